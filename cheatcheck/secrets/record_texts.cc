#include "cheatcheck/secrets/record_texts.h"

#include "cheatcheck/secrets/engine.h"
#include "core/json_strict.h"

namespace goalcup::cheat {

RecordTexts TextArena::add(const Record& r) {
  RecordTexts out{r.kind, items_.size(), 0};
  const bool wire = r.kind == Kind::wire;
  if (wire) {
    add_headers(r.body);
    // Stored as written; a base64 body is decoded by the scan (wire_body()).
    std::string_view stored, encoding;
    if (json::string(r.body, "body", &stored) == json::Get::ok) {
      (void)json::string(r.body, "encoding", &encoding);
      push(TextItem::Role::wire_body, {}, stored, 0, encoding == "base64");
    }
  }
  std::string path;
  for (auto field : r.body) {
    if (wire && (field.key == "body" || field.key == "headers")) continue;
    path = "body.";
    path += field.key;
    for_each_string_at(field.value, path,
                       [&](std::string_view text, const std::string& at) { push(TextItem::Role::field, at, text); });
  }
  out.count = items_.size() - out.first;
  return out;
}

void TextArena::clear() {
  bytes_.clear();
  items_.clear();
}

// Every [name, value] pair of strings; an element of another shape is
// skipped but keeps its place in the numbering.
void TextArena::add_headers(simdjson::dom::object body) {
  simdjson::dom::array headers;
  if (json::array(body, "headers", &headers) != json::Get::ok) return;
  uint32_t i = 0;
  for (auto h : headers) {
    const uint32_t index = i++;
    simdjson::dom::array pair;
    std::string_view name, value;
    if (h.get(pair) || pair.size() != 2 || pair.at(0).get(name) || pair.at(1).get(value)) continue;
    push(TextItem::Role::header, name, value, index);
  }
}

void TextArena::push(TextItem::Role role, std::string_view name, std::string_view text, uint32_t index, bool base64) {
  TextItem item{role, base64, index, bytes_.size(), name.size(), 0, text.size()};
  bytes_ += name;
  item.text_at = bytes_.size();
  bytes_ += text;
  items_.push_back(item);
}

}  // namespace goalcup::cheat
