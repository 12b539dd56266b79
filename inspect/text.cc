#include "inspect/text.h"

#include "cli/safe_text.h"

namespace goalcup::inspect {
namespace {

bool continuation(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

// Bytes of the longest prefix of `s` that fits `cols` columns.
size_t prefix_bytes(std::string_view s, size_t cols) {
  size_t i = 0, used = 0;
  while (i < s.size()) {
    if (!continuation(s[i])) {
      if (used == cols) break;
      ++used;
    }
    ++i;
  }
  return i;
}

}  // namespace

size_t columns(std::string_view s) {
  size_t n = 0;
  for (char c : s) n += !continuation(c);
  return n;
}

std::string fit_columns(std::string_view s, size_t cols) {
  if (columns(s) <= cols) return std::string(s);
  if (cols == 0) return {};
  return std::string(s.substr(0, prefix_bytes(s, cols - 1))) + "~";
}

std::string wrap(std::string_view raw, const std::string& indent) {
  // Trace text is made safe first, its lines kept (safe_text is idempotent).
  const std::string safe = safe_text(raw, Lines::keep);
  std::string_view text = safe;
  std::string out;
  const size_t width = kWidth - columns(indent);
  while (!text.empty()) {
    const size_t nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
    do {
      // Only the next `width` columns are measured: measuring the whole
      // rest of the line at each cut made one long line quadratic.
      const size_t max = prefix_bytes(line, width);
      size_t cut = line.size();
      if (max < line.size()) {
        cut = line.rfind(' ', max);
        if (cut == std::string_view::npos || cut == 0) cut = max;
      }
      out += indent + std::string(line.substr(0, cut)) + "\n";
      line.remove_prefix(cut);
      if (!line.empty() && line.front() == ' ') line.remove_prefix(1);
    } while (!line.empty());
  }
  return out;
}

std::string hard_wrap(std::string_view text) {
  std::string out;
  while (!text.empty()) {
    const size_t nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
    const size_t lead = std::min<size_t>(line.find_first_not_of(' ') == std::string_view::npos ? 0 : line.find_first_not_of(' '), 40);
    const std::string indent(lead + 2, ' ');
    size_t width = kWidth;
    do {
      const size_t cut = prefix_bytes(line, width);
      out += std::string(line.substr(0, cut)) + "\n";
      line.remove_prefix(cut);
      if (!line.empty()) out += indent;
      width = kWidth - indent.size();
    } while (!line.empty());
  }
  return out;
}

}  // namespace goalcup::inspect
