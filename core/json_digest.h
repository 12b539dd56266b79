// JSON values compared by value: a digest that is equal for equal values
// however they were written (member order, spacing, escapes, number
// spelling). GC04 compares a tool call's input as the harness logged it
// with the input as the model streamed it.
#pragma once

#include <simdjson.h>

#include <string_view>

#include "core/json_strict.h"
#include "core/sha256.h"

namespace goalcup::json {
// A digest of a JSON value, equal for equal values however they were
// written: member order, spacing, escapes and number spelling (1, 1.0, 1e0)
// do not change it. Used to compare a tool call's input as logged with the
// input as streamed.
Digest value_digest(simdjson::dom::element e);
// The digest of {} (an absent input), without parsing anything.
Digest empty_object_digest();
// The same for JSON text: `text` parsed with `parser`; text that is not
// JSON (a custom tool's free-text input) is digested as a string value, and
// empty text as {} (a tool called with no arguments streams none).
Digest text_value_digest(std::string_view text, StrictJsonParser& parser);
}  // namespace goalcup::json
