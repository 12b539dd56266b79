// The texts of a parsed record that the secret scan reads, copied out of the
// parser's DOM: its strings, a wire record's headers and its stored body.
// The walk has parsed each record already; copying its strings for the
// scan's worker threads costs a fraction of parsing the line again there
// (the DOM is reused for the next line, so it cannot travel). A worker given
// only the line extracts the same texts from its own parse: one reading of a
// record, whoever parsed it.
//
// Only what could hold a secret is copied (strings of at least
// SecretEngine::kMinText bytes, header values of at least 8), and a string's
// place ("body.messages[2].content") is not: it is its rank among the
// record's strings, turned back into a path by record_string_path() for the
// rare string that holds a secret. So the copy never outgrows the line by
// more than a small factor, however the JSON nests.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cheatcheck/secrets/engine.h"
#include "core/record.h"

namespace goalcup::cheat {

struct TextItem {
  enum class Role : uint8_t {
    header,     // index: its place in body.headers; name() its name
    wire_body,  // a wire record's `body` as stored; base64 when so encoded; name(): its content coding
    field,      // any other string; index: its rank among the record's strings
  };
  Role role = Role::field;
  bool base64 = false;
  size_t name_len = 0;  // a header's name, stored just before its value
  uint64_t index = 0;
  size_t text_at = 0, text_len = 0;
};

// One record's items in a TextArena.
struct RecordTexts {
  Kind kind = Kind::unknown;
  size_t first = 0, count = 0;
};

// Items of many records, their bytes in one buffer (one allocation per batch
// of lines, reused, instead of one per string).
class TextArena {
 public:
  // Appends the texts of `r`, in the order the scan reads them: headers, the
  // wire body, then every other string of the body in document order.
  RecordTexts add(const Record& r);
  void clear();
  // Room for `bytes` of text: a record's texts never take more than its line.
  void reserve(size_t bytes) { bytes_.reserve(bytes); }
  // Memory held, for the scan pool's bound on what is in flight.
  size_t bytes() const { return bytes_.size() + items_.size() * sizeof(TextItem); }
  size_t capacity() const { return bytes_.capacity() + items_.capacity() * sizeof(TextItem); }

  std::span<const TextItem> items(const RecordTexts& r) const {
    return std::span<const TextItem>(items_).subspan(r.first, r.count);
  }
  std::string_view name(const TextItem& i) const {
    return std::string_view(bytes_).substr(i.text_at - i.name_len, i.name_len);
  }
  std::string_view text(const TextItem& i) const { return std::string_view(bytes_).substr(i.text_at, i.text_len); }

 private:
  void add_headers(simdjson::dom::object body);
  void push(TextItem::Role role, std::string_view name, std::string_view text, uint64_t index = 0, bool base64 = false);

  std::string bytes_;
  std::vector<TextItem> items_;
};

// Calls f(rank, path, text) for every string of the record's body in
// document order ("body.messages[2].content"), a wire record's headers and
// body excepted (the scan reads those as such). `rank` counts from 0.
template <typename F>
void for_each_record_string(const Record& r, F&& f) {
  const bool wire = r.kind == Kind::wire;
  uint64_t rank = 0;
  std::string path;
  for (auto field : r.body) {
    if (wire && (field.key == "body" || field.key == "headers")) continue;
    path = "body.";
    path += field.key;
    for_each_string_at(field.value, path, [&](std::string_view text, const std::string& at) { f(rank++, at, text); });
  }
}

// The path of the string of rank `rank` (see for_each_record_string).
std::string record_string_path(const Record& r, uint64_t rank);

}  // namespace goalcup::cheat
