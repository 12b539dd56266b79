// JSON objects embedded verbatim in binary data, as redb stores serde_json
// values inside its pages: found without a redb reader by trying each '{'
// as the start of a strict JSON object (bounded in size and attempts).
#pragma once

#include <functional>
#include <string_view>

#include <simdjson.h>

namespace goalcup::cheat {

// Calls `on_object(offset, object)` for each JSON object found in `bytes`
// (outermost objects only).
void for_each_embedded_object(std::string_view bytes,
                              const std::function<void(size_t, simdjson::dom::object)>& on_object);

}  // namespace goalcup::cheat
