#include "cli/json_writer.h"

#include "cli/safe_text.h"

#include <cmath>
#include <cstdio>

namespace goalcup {

void append_json_string(std::string* out, std::string_view s) {
  static constexpr char kHex[] = "0123456789abcdef";
  out->push_back('"');
  for (size_t i = 0; i < s.size(); ++i) {
    auto c = static_cast<uint8_t>(s[i]);
    if (c == '"' || c == '\\') {
      out->push_back('\\');
      out->push_back(static_cast<char>(c));
    } else if (c == '\n') {
      out->append("\\n");
    } else if (c == '\t') {
      out->append("\\t");
    } else if (c == '\r') {
      out->append("\\r");
    } else if (c < 0x20 || c == 0x7f) {
      out->append("\\u00");
      out->push_back(kHex[c >> 4]);
      out->push_back(kHex[c & 15]);
    } else if (c < 0x80) {
      out->push_back(static_cast<char>(c));
    } else if (char32_t cp = 0; size_t n = decode_utf8(s, i, &cp)) {
      // C1 and bidi controls are escaped too (RFC 8259 allows any): the
      // value is the same, and a terminal showing the JSON does not act on them.
      if (is_hidden_control(cp)) {
        out->append("\\u");
        for (int shift = 12; shift >= 0; shift -= 4) out->push_back(kHex[(cp >> shift) & 15]);
      } else {
        out->append(s.substr(i, n));
      }
      i += n - 1;
    } else {
      out->append("\xEF\xBF\xBD");
    }
  }
  out->push_back('"');
}

void JsonWriter::newline() {
  if (!pretty_) return;
  out_->push_back('\n');
  out_->append(2 * first_.size(), ' ');
}

void JsonWriter::before_value() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (!first_.empty()) {
    if (!first_.back()) out_->push_back(',');
    first_.back() = false;
    newline();
  }
}

JsonWriter& JsonWriter::begin_object() {
  before_value();
  out_->push_back('{');
  first_.push_back(true);
  return *this;
}

JsonWriter& JsonWriter::end_object() {
  const bool empty = first_.back();
  first_.pop_back();
  if (!empty) newline();
  out_->push_back('}');
  return *this;
}

JsonWriter& JsonWriter::begin_array() {
  before_value();
  out_->push_back('[');
  first_.push_back(true);
  return *this;
}

JsonWriter& JsonWriter::end_array() {
  const bool empty = first_.back();
  first_.pop_back();
  if (!empty) newline();
  out_->push_back(']');
  return *this;
}

JsonWriter& JsonWriter::key(std::string_view k) {
  before_value();
  append_json_string(out_, k);
  out_->append(pretty_ ? ": " : ":");
  after_key_ = true;
  return *this;
}

JsonWriter& JsonWriter::value(std::string_view s) {
  before_value();
  append_json_string(out_, s);
  return *this;
}

JsonWriter& JsonWriter::value(int64_t v) {
  before_value();
  out_->append(std::to_string(v));
  return *this;
}

JsonWriter& JsonWriter::value(uint64_t v) {
  before_value();
  out_->append(std::to_string(v));
  return *this;
}

JsonWriter& JsonWriter::value(double v) {
  before_value();
  if (!std::isfinite(v)) {
    out_->append("null");
    return *this;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  out_->append(buf);
  return *this;
}

JsonWriter& JsonWriter::value(bool v) {
  before_value();
  out_->append(v ? "true" : "false");
  return *this;
}

JsonWriter& JsonWriter::null() {
  before_value();
  out_->append("null");
  return *this;
}

JsonWriter& JsonWriter::raw(std::string_view json) {
  before_value();
  out_->append(json);
  return *this;
}

}  // namespace goalcup
