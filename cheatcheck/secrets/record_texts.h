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

// JSON inside a record, parsed where the record was read (the checks parse
// each request's content and each native line's text), so that the scan
// need not parse it again: a wire body's content, or a native record's
// `text` member.
struct ParsedBody {
  simdjson::dom::element root;
  std::string_view text;  // what was parsed (for a native line, the record's own string)
  bool base64 = false;    // a wire body stored as base64
};

struct TextItem {
  enum class Role : uint8_t {
    header,     // index: its place in body.headers; name() its name
    wire_body,  // a wire record's `body` as stored; base64 when so encoded; name(): its content coding
    field,      // any other string; index: its rank among the record's strings
    // JSON given parsed: json_body in place of wire_body (base64 as
    // there), json_field in place of a field (index: its rank), each with
    // parsed_bytes, the size of the JSON text, and followed by the strings
    // the scan would read in it, in its order: json_string (keys and
    // values of SecretEngine::kMinText bytes or more), then json_member
    // (name(): the member's name; text: its string value) for members that
    // may be a generic assignment.
    json_body,
    json_field,
    json_string,
    json_member,
  };
  Role role = Role::field;
  bool base64 = false;
  size_t name_len = 0;  // a header's name, stored just before its value
  uint64_t index = 0;
  size_t text_at = 0, text_len = 0;
  size_t parsed_bytes = 0;  // json_body, json_field
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
  // `parsed`, when given, is the wire body's content parsed, or a native
  // record's text: its strings are copied instead of the text when the
  // scan's own parse, under `max_depth`, would read the same document.
  RecordTexts add(const Record& r, const ParsedBody* parsed = nullptr, uint32_t max_depth = 0);
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
  bool add_parsed(const ParsedBody& parsed, TextItem::Role role, uint64_t index, bool base64, uint32_t max_depth);
  bool add_json_strings(simdjson::dom::element e, uint32_t depth, uint32_t max_depth);
  void add_json_members(simdjson::dom::element e);
  void push(TextItem::Role role, std::string_view name, std::string_view text, uint64_t index = 0, bool base64 = false,
            size_t parsed_bytes = 0);

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
