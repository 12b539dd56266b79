#include "cli/term.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>

namespace goalcup {

Style Style::for_fd(int fd) {
  const char* no_color = std::getenv("NO_COLOR");
  return Style(::isatty(fd) && !(no_color && *no_color));
}

namespace {

constexpr std::string_view kReset = "\x1b[0m";

std::string_view sgr_code(Color c) {
  switch (c) {
    case Color::red: return "31";
    case Color::green: return "32";
    case Color::yellow: return "33";
    case Color::blue: return "34";
    case Color::dim: return "2";
    case Color::bold: return "1";
    case Color::none: break;
  }
  return "";
}

std::string sequence(Color c) { return "\x1b[" + std::string(sgr_code(c)) + "m"; }

}  // namespace

std::string Style::paint(std::string_view text, Color c) const {
  if (!on_ || c == Color::none) return std::string(text);
  return sequence(c) + std::string(text) + std::string(kReset);
}

size_t style_sequence_length(std::string_view s) {
  if (s.starts_with(kReset)) return kReset.size();
  for (Color c : {Color::red, Color::green, Color::yellow, Color::blue, Color::dim, Color::bold}) {
    const std::string seq = sequence(c);
    if (s.starts_with(seq)) return seq.size();
  }
  return 0;
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
