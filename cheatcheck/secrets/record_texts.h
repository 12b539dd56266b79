// The texts of a parsed record that the secret scan reads, copied out of the
// parser's DOM: every string with its place ("body.messages[2].content"), a
// wire record's headers and its stored body. The walk has parsed each record
// already; copying its strings for the scan's worker threads costs a fraction
// of parsing the line again there (the DOM is reused for the next line, so it
// cannot travel). A worker given only the line extracts the same texts from
// its own parse: one reading of a record, whoever parsed it.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/record.h"

namespace goalcup::cheat {

struct TextItem {
  enum class Role : uint8_t {
    header,       // name: the header's name; index: its place in body.headers
    wire_body,    // a wire record's `body` as stored; base64 when so encoded
    field,        // any other string; name: its place
  };
  Role role = Role::field;
  bool base64 = false;
  uint32_t index = 0;
  size_t name_at = 0, name_len = 0;
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
  // Bytes held, for the scan pool's bound on what is in flight.
  size_t bytes() const { return bytes_.size(); }
  size_t capacity() const { return bytes_.capacity(); }

  std::span<const TextItem> items(const RecordTexts& r) const {
    return std::span<const TextItem>(items_).subspan(r.first, r.count);
  }
  std::string_view name(const TextItem& i) const { return std::string_view(bytes_).substr(i.name_at, i.name_len); }
  std::string_view text(const TextItem& i) const { return std::string_view(bytes_).substr(i.text_at, i.text_len); }

 private:
  void add_headers(simdjson::dom::object body);
  void push(TextItem::Role role, std::string_view name, std::string_view text, uint32_t index = 0, bool base64 = false);

  std::string bytes_;
  std::vector<TextItem> items_;
};

}  // namespace goalcup::cheat
