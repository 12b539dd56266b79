#include "cheatcheck/secrets/record_texts.h"

#include "core/bodies.h"
#include "core/json_strict.h"

namespace goalcup::cheat {
namespace {

// A header value shorter than this holds no credential (see the scan's
// header rule and SecretEngine::kMinText).
constexpr size_t kMinHeaderValue = 8;

}  // namespace

RecordTexts TextArena::add(const Record& r) {
  RecordTexts out{r.kind, items_.size(), 0};
  if (r.kind == Kind::wire) {
    add_headers(r.body);
    // Stored as written; a base64 body is decoded by the scan (wire_body()),
    // and so is its content coding, kept as the item's name.
    std::string_view stored, encoding;
    if (json::string(r.body, "body", &stored) == json::Get::ok) {
      (void)json::string(r.body, "encoding", &encoding);
      push(TextItem::Role::wire_body, content_encoding_of(r.body), stored, 0, encoding == "base64");
    }
  }
  // Paths are built for nothing here; only a string that holds a secret
  // needs its own, and it is found again from the rank.
  for_each_record_string(r, [&](uint64_t rank, const std::string&, std::string_view text) {
    if (text.size() >= SecretEngine::kMinText) push(TextItem::Role::field, {}, text, rank);
  });
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
  uint64_t i = 0;
  for (auto h : headers) {
    const uint64_t index = i++;
    simdjson::dom::array pair;
    std::string_view name, value;
    if (h.get(pair) || pair.size() != 2 || pair.at(0).get(name) || pair.at(1).get(value)) continue;
    if (value.size() >= kMinHeaderValue) push(TextItem::Role::header, name, value, index);
  }
}

void TextArena::push(TextItem::Role role, std::string_view name, std::string_view text, uint64_t index, bool base64) {
  bytes_ += name;
  items_.push_back({role, base64, name.size(), index, bytes_.size(), text.size()});
  bytes_ += text;
}

std::string record_string_path(const Record& r, uint64_t rank) {
  std::string found = "body";
  for_each_record_string(r, [&](uint64_t at, const std::string& path, std::string_view) {
    if (at == rank) found = path;
  });
  return found;
}

}  // namespace goalcup::cheat
