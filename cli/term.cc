#include "cli/term.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>

namespace goalcup {

Style Style::for_fd(int fd) {
  const char* no_color = std::getenv("NO_COLOR");
  return Style(::isatty(fd) && !(no_color && *no_color));
}

std::string Style::paint(std::string_view text, Color c) const {
  if (!on_ || c == Color::none) return std::string(text);
  const char* code = "";
  switch (c) {
    case Color::red: code = "31"; break;
    case Color::green: code = "32"; break;
    case Color::yellow: code = "33"; break;
    case Color::blue: code = "34"; break;
    case Color::dim: code = "2"; break;
    case Color::bold: code = "1"; break;
    case Color::none: break;
  }
  return "\x1b[" + std::string(code) + "m" + std::string(text) + "\x1b[0m";
}

std::string human_bytes(uint64_t n) {
  static constexpr const char* kUnits[] = {"B", "KB", "MB", "GB", "TB"};
  double v = static_cast<double>(n);
  size_t u = 0;
  while (v >= 1000 && u + 1 < std::size(kUnits)) {
    v /= 1000;
    ++u;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, u == 0 || v >= 100 ? "%.0f %s" : "%.1f %s", v, kUnits[u]);
  return buf;
}

}  // namespace goalcup
