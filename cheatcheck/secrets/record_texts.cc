#include "cheatcheck/secrets/record_texts.h"

#include "core/bodies.h"
#include "cheatcheck/secrets/rules.h"
#include "core/json_strict.h"

namespace goalcup::cheat {
namespace {

// A header value shorter than this holds no credential (see the scan's
// header rule and SecretEngine::kMinText).
constexpr size_t kMinHeaderValue = 8;

}  // namespace

RecordTexts TextArena::add(const Record& r, const ParsedBody* parsed, uint32_t max_depth) {
  RecordTexts out{r.kind, items_.size(), 0};
  if (r.kind == Kind::wire) {
    add_headers(r.body);
    // Stored as written; a base64 body is decoded by the scan (wire_body()),
    // and so is its content coding, kept as the item's name.
    std::string_view stored, encoding;
    if (json::string(r.body, "body", &stored) == json::Get::ok) {
      (void)json::string(r.body, "encoding", &encoding);
      const bool base64 = encoding == "base64";
      if (!parsed || !add_parsed(*parsed, TextItem::Role::json_body, 0, base64, max_depth)) {
        push(TextItem::Role::wire_body, content_encoding_of(r.body), stored, 0, base64);
      }
    }
  }
  // Paths are built for nothing here; only a string that holds a secret
  // needs its own, and it is found again from the rank.
  // A native line's text, parsed by the checks, is the string itself.
  const ParsedBody* native = r.kind == Kind::native ? parsed : nullptr;
  for_each_record_string(r, [&](uint64_t rank, const std::string&, std::string_view text) {
    if (native && text.data() == native->text.data() && text.size() == native->text.size() &&
        add_parsed(*native, TextItem::Role::json_field, rank, false, max_depth)) {
      return;
    }
    if (text.size() >= SecretEngine::kMinText) push(TextItem::Role::field, {}, text, rank);
  });
  out.count = items_.size() - out.first;
  return out;
}

// What SecretEngine::scan() reads of a JSON text it parses (scan_json):
// every key and string value in document order, then the string members.
// Copied only when the scan would parse the same document: the text it
// reads (for a wire body, the content, readable, as the caller checks),
// opening with '{' or '[', long enough to be scanned, and its own parser,
// under `max_depth` where the checks' allows more, would not stop on depth
// (simdjson counts the root as depth 1).
bool TextArena::add_parsed(const ParsedBody& parsed, TextItem::Role role, uint64_t index, bool base64,
                           uint32_t max_depth) {
  if (parsed.text.size() < SecretEngine::kMinText || (parsed.text.front() != '{' && parsed.text.front() != '[') ||
      parsed.base64 != base64 || !(parsed.root.is_object() || parsed.root.is_array())) {
    return false;
  }
  const size_t bytes_before = bytes_.size(), items_before = items_.size();
  push(role, {}, {}, index, base64, parsed.text.size());
  if (!add_json_strings(parsed.root, 1, max_depth)) {
    bytes_.resize(bytes_before);
    items_.resize(items_before);
    return false;
  }
  add_json_members(parsed.root);
  return true;
}

// False past `max_depth` (less one: a margin, never a different answer).
bool TextArena::add_json_strings(simdjson::dom::element e, uint32_t depth, uint32_t max_depth) {
  simdjson::dom::object o;
  simdjson::dom::array a;
  std::string_view s;
  if (!e.get(o)) {
    if (depth + 1 > max_depth) return false;
    for (auto field : o) {
      if (field.key.size() >= SecretEngine::kMinText) push(TextItem::Role::json_string, {}, field.key);
      if (!add_json_strings(field.value, depth + 1, max_depth)) return false;
    }
  } else if (!e.get(a)) {
    if (depth + 1 > max_depth) return false;
    for (auto v : a) {
      if (!add_json_strings(v, depth + 1, max_depth)) return false;
    }
  } else if (!e.get(s) && s.size() >= SecretEngine::kMinText) {
    push(TextItem::Role::json_string, {}, s);
  }
  return true;
}

void TextArena::add_json_members(simdjson::dom::element e) {
  simdjson::dom::object o;
  simdjson::dom::array a;
  if (!e.get(o)) {
    for (auto field : o) {
      std::string_view s;
      if (field.value.get(s)) {
        add_json_members(field.value);
      } else if (may_be_generic_assignment(field.key, s)) {
        push(TextItem::Role::json_member, field.key, s);
      }
    }
  } else if (!e.get(a)) {
    for (auto v : a) add_json_members(v);
  }
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

void TextArena::push(TextItem::Role role, std::string_view name, std::string_view text, uint64_t index, bool base64,
                     size_t parsed_bytes) {
  bytes_ += name;
  items_.push_back({role, base64, name.size(), index, bytes_.size(), text.size(), parsed_bytes});
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
