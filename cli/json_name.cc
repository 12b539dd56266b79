#include "cli/json_name.h"

#include "cli/safe_text.h"
#include "core/keyring.h"

namespace goalcup {

bool is_valid_utf8(std::string_view s) {
  for (size_t i = 0; i < s.size();) {
    if (static_cast<uint8_t>(s[i]) < 0x80) {
      ++i;
      continue;
    }
    char32_t cp = 0;
    const size_t n = decode_utf8(s, i, &cp);
    if (n == 0) return false;
    i += n;
  }
  return true;
}

std::string json_name_text(std::string_view name) {
  if (is_valid_utf8(name)) return std::string(name);
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(name.size() + 16);
  for (size_t i = 0; i < name.size();) {
    const auto c = static_cast<uint8_t>(name[i]);
    char32_t cp = 0;
    const size_t n = c < 0x80 ? 1 : decode_utf8(name, i, &cp);
    if (n > 0) {
      out.append(name.substr(i, n));
      i += n;
      continue;
    }
    out += "\\x";
    out += kHex[c >> 4];
    out += kHex[c & 15];
    ++i;
  }
  return out;
}

void write_name_field(JsonWriter& w, std::string_view key, std::string_view name) {
  if (is_valid_utf8(name)) {
    w.field(key, name);
    return;
  }
  w.field(key, json_name_text(name));
  w.field(std::string(key) + "_base64", base64_encode(name));
}

}  // namespace goalcup
