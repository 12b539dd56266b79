#include "cli/safe_text.h"

#include <ostream>

namespace goalcup {
namespace {

constexpr char kHex[] = "0123456789abcdef";

void append_byte_escape(std::string* out, unsigned char c) {
  switch (c) {
    case '\n': out->append("\\n"); return;
    case '\t': out->append("\\t"); return;
    case '\r': out->append("\\r"); return;
    default: break;
  }
  out->append("\\x");
  out->push_back(kHex[c >> 4]);
  out->push_back(kHex[c & 15]);
}

void append_code_point_escape(std::string* out, char32_t cp) {
  out->append("\\u");
  for (int shift = 12; shift >= 0; shift -= 4) out->push_back(kHex[(cp >> shift) & 15]);
}

// Appends s[i..] up to the next character that needs escaping; returns where
// it stopped.
size_t append_until_unsafe(std::string* out, std::string_view s, size_t i, Lines lines) {
  const size_t start = i;
  while (i < s.size()) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c < 0x7f) {
      ++i;
      continue;
    }
    if (lines == Lines::keep && (c == '\n' || c == '\t')) {
      ++i;
      continue;
    }
    char32_t cp = 0;
    const size_t n = c >= 0x80 ? decode_utf8(s, i, &cp) : 0;
    if (n == 0 || is_hidden_control(cp)) break;
    i += n;
  }
  out->append(s.substr(start, i - start));
  return i;
}

// Escapes the character at s[i] (known to need it); returns its length.
size_t append_escaped(std::string* out, std::string_view s, size_t i) {
  const auto c = static_cast<unsigned char>(s[i]);
  char32_t cp = 0;
  const size_t n = c >= 0x80 ? decode_utf8(s, i, &cp) : 0;
  if (n == 0) {
    append_byte_escape(out, c);
    return 1;
  }
  append_code_point_escape(out, cp);
  return n;
}

void append_safe(std::string* out, std::string_view s, Lines lines, const Style* style) {
  size_t i = 0;
  while ((i = append_until_unsafe(out, s, i, lines)) < s.size()) {
    const size_t own = style && style->enabled() ? style_sequence_length(s.substr(i)) : 0;
    if (own > 0) {
      out->append(s.substr(i, own));
      i += own;
    } else {
      i += append_escaped(out, s, i);
    }
  }
}

}  // namespace

bool is_hidden_control(char32_t cp) {
  if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f)) return true;
  switch (cp) {
    case 0x061c:                                              // Arabic letter mark
    case 0x200e: case 0x200f:                                 // LRM, RLM
    case 0x202a: case 0x202b: case 0x202c: case 0x202d: case 0x202e:  // embeddings, overrides
    case 0x2066: case 0x2067: case 0x2068: case 0x2069:       // isolates
    case 0x2028: case 0x2029:                                 // line and paragraph separators
      return true;
    default: return false;
  }
}

size_t decode_utf8(std::string_view s, size_t i, char32_t* cp) {
  const auto b0 = static_cast<unsigned char>(s[i]);
  if (b0 < 0x80) {
    *cp = b0;
    return 1;
  }
  // Lead byte: sequence length, its payload bits, the smallest code point
  // that needs this length (anything below is an overlong form).
  struct Lead {
    unsigned char mask, tag;
    size_t n;
    char32_t min;
  };
  static constexpr Lead kLeads[] = {{0xE0, 0xC0, 2, 0x80}, {0xF0, 0xE0, 3, 0x800}, {0xF8, 0xF0, 4, 0x10000}};
  const Lead* lead = nullptr;
  for (const Lead& l : kLeads) {
    if ((b0 & l.mask) == l.tag) lead = &l;
  }
  if (!lead) return 0;
  const size_t n = lead->n;
  char32_t v = b0 & static_cast<unsigned char>(~lead->mask);
  if (i + n > s.size()) return 0;
  for (size_t k = 1; k < n; ++k) {
    const auto b = static_cast<unsigned char>(s[i + k]);
    if ((b & 0xC0) != 0x80) return 0;
    v = (v << 6) | (b & 0x3F);
  }
  if (v < lead->min || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF)) return 0;
  *cp = v;
  return n;
}

void append_safe_text(std::string* out, std::string_view s, Lines lines) { append_safe(out, s, lines, nullptr); }

std::string html_text(std::string_view s) {
  const std::string safe = safe_text(s, Lines::keep);
  std::string out;
  out.reserve(safe.size());
  for (const char c : safe) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string safe_text(std::string_view s, Lines lines) {
  std::string out;
  out.reserve(s.size());
  append_safe_text(&out, s, lines);
  return out;
}

bool is_safe_text(std::string_view s, Lines lines) {
  std::string scratch;
  return append_until_unsafe(&scratch, s, 0, lines) == s.size();
}

std::string safe_output(std::string_view text, const Style& style) {
  std::string out;
  out.reserve(text.size());
  append_safe(&out, text, Lines::keep, &style);
  return out;
}

void print_text(std::ostream& os, std::string_view text, const Style& style) {
  if (is_safe_text(text, Lines::keep)) os << text;  // the usual case: no copy
  else os << safe_output(text, style);
}

}  // namespace goalcup
