// Terminal conventions shared by the printers: colour only on a terminal and
// never with NO_COLOR set; byte counts in people's units.
#pragma once

#include <cstddef>
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
  static Style colored() { return Style(true); }  // whatever the fd: tests, --color=always
  std::string paint(std::string_view text, Color c) const;
  bool enabled() const { return on_; }

 private:
  explicit Style(bool on) : on_(on) {}
  bool on_;
};

// Length of one of the escape sequences Style::paint writes at the start of
// `s` ("\x1b[31m", "\x1b[0m", ...), 0 if there is none: the printer seam
// (cli/safe_text.h) lets these through and nothing else.
size_t style_sequence_length(std::string_view s);

std::string human_bytes(uint64_t n);  // "48 KB", "1.2 GB"

}  // namespace goalcup
