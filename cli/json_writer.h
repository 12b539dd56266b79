// A small streaming JSON writer for reports: correct escaping, commas and
// optional indentation. Output formats live with the printers; this only
// spells JSON.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace goalcup {

class JsonWriter {
 public:
  explicit JsonWriter(std::string* out, bool pretty = false) : out_(out), pretty_(pretty) {}

  JsonWriter& begin_object();
  JsonWriter& end_object();
  JsonWriter& begin_array();
  JsonWriter& end_array();
  JsonWriter& key(std::string_view k);
  JsonWriter& value(std::string_view s);
  JsonWriter& value(const char* s) { return value(std::string_view(s)); }
  JsonWriter& value(const std::string& s) { return value(std::string_view(s)); }
  JsonWriter& value(int64_t v);
  JsonWriter& value(uint64_t v);
  JsonWriter& value(int v) { return value(static_cast<int64_t>(v)); }
  JsonWriter& value(unsigned v) { return value(static_cast<uint64_t>(v)); }
  JsonWriter& value(double v);
  JsonWriter& value(bool v);
  JsonWriter& null();
  // Writes already-serialized JSON as a value.
  JsonWriter& raw(std::string_view json);
  template <typename T>
  JsonWriter& field(std::string_view k, const T& v) {
    key(k);
    return value(v);
  }
  JsonWriter& null_field(std::string_view k) {
    key(k);
    return null();
  }

 private:
  void before_value();
  void newline();
  std::string* out_;
  bool pretty_;
  std::vector<bool> first_;  // per open container: no member written yet
  bool after_key_ = false;
};

// Appends `s` as a JSON string literal. Bytes that are not valid UTF-8 are
// written as U+FFFD so that the output is always valid JSON; C0, DEL, C1 and
// bidi controls as \u escapes (the same value, inert on a terminal).
void append_json_string(std::string* out, std::string_view s);

}  // namespace goalcup
