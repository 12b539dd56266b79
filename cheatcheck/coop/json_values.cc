#include "cheatcheck/coop/json_values.h"

#include <algorithm>

#include "core/json_strict.h"

namespace goalcup::cheat {
namespace {


// The end of the object starting at `p` (balanced braces outside strings),
// or npos.
size_t object_end(std::string_view s, size_t p) {
  int depth = 0;
  bool in_string = false;
  const size_t limit = std::min(s.size(), p + kMaxEmbeddedObject);
  for (size_t i = p; i < limit; ++i) {
    const char c = s[i];
    if (in_string) {
      if (c == '\\') ++i;
      else if (c == '"') in_string = false;
      else if (static_cast<unsigned char>(c) < 0x20) return std::string_view::npos;  // not JSON text
      continue;
    }
    if (c == '"') in_string = true;
    else if (c == '{' || c == '[') ++depth;
    else if (c == '}' || c == ']') {
      if (--depth == 0) return i + 1;
    } else if (static_cast<unsigned char>(c) < 0x09) {
      return std::string_view::npos;
    }
  }
  return std::string_view::npos;
}

}  // namespace

size_t for_each_embedded_object(std::string_view bytes,
                                const std::function<void(size_t, simdjson::dom::object)>& on_object,
                                const Limits& limits, size_t start_limit, size_t min_end,
                                const std::function<bool()>& stop) {
  constexpr size_t kStopEvery = 16;  // candidates between two asks
  StrictJsonParser parser{limits};
  size_t resume = std::min(start_limit, bytes.size());
  size_t tried = 0;
  for (size_t p = bytes.find('{'); p != std::string_view::npos && p < start_limit; p = bytes.find('{', p + 1)) {
    if (stop && ++tried % kStopEvery == 0 && stop()) return bytes.size();
    const size_t end = object_end(bytes, p);
    if (end == std::string_view::npos) continue;
    auto root = parser.parse_copy(bytes.substr(p, end - p), -1);
    simdjson::dom::object o;
    if (!root || root->get(o)) continue;
    if (end > min_end) on_object(p, o);
    resume = std::max(resume, end);
    p = end - 1;  // outermost only
  }
  return resume;
}

}  // namespace goalcup::cheat
