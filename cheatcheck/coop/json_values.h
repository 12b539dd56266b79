// JSON objects embedded verbatim in binary data, as redb stores serde_json
// values inside its pages: found without a redb reader by trying each '{'
// that closes as the start of a strict JSON object (bounded in size).
#pragma once

#include <functional>
#include <string_view>

#include <simdjson.h>

#include "core/limits.h"

namespace goalcup::cheat {

// The longest object looked for (a job's error body can be large, not
// unbounded).
constexpr size_t kMaxEmbeddedObject = 4 << 20;

// Calls `on_object(offset, object)` for each JSON object found in `bytes`
// that starts before `start_limit` and ends after `min_end` (outermost
// objects only), parsed under the run's `limits`. Returns where the next window of a longer stream should
// start: `start_limit`, or the end of an object that runs past it.
// `stop()` (when given) is asked every few candidates: true ends the scan
// early (the upload's time budget ran out; the caller says so). The braces
// are matched in one pass over the bytes (hostile runs of '{' included);
// only candidates that close within kMaxEmbeddedObject are parsed.
size_t for_each_embedded_object(std::string_view bytes,
                                const std::function<void(size_t, simdjson::dom::object)>& on_object,
                                const Limits& limits, size_t start_limit = std::string_view::npos, size_t min_end = 0,
                                const std::function<bool()>& stop = nullptr);

}  // namespace goalcup::cheat
