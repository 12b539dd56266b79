// What the fuzz targets share: an input's bytes written as a JSON string's
// contents, so that a target can put fuzzed text inside a record.
#pragma once

#include <string>
#include <string_view>

namespace goalcup::fuzz {

// Quotes, backslashes and control bytes escaped; other bytes as they are
// (invalid UTF-8 then fails the record parse, as it would in a trace).
inline std::string json_escaped(std::string_view s) {
  std::string out;
  out.reserve(s.size() + 16);
  for (const char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (u < 0x20) {
      static constexpr char kHex[] = "0123456789abcdef";
      out += "\\u00";
      out += kHex[u >> 4];
      out += kHex[u & 15];
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace goalcup::fuzz
