// Terminal conventions shared by the printers: colour only on a terminal and
// never with NO_COLOR set; byte counts in people's units.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace goalcup {

enum class Color { none, red, green, yellow, blue, dim, bold };

class Style {
 public:
  // Colour when `fd` is a terminal and NO_COLOR is unset (https://no-color.org).
  static Style for_fd(int fd);
  static Style plain() { return Style(false); }
  std::string paint(std::string_view text, Color c) const;
  bool enabled() const { return on_; }

 private:
  explicit Style(bool on) : on_(on) {}
  bool on_;
};

std::string human_bytes(uint64_t n);  // "48 KB", "1.2 GB"

}  // namespace goalcup
