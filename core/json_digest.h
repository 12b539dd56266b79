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
// value_digest with every member named `skipped` left out, at any depth:
// Claude Code marks the last block of a request with cache_control, which
// its copy of the message (api-request-blob) does not hold.
Digest value_digest_without(simdjson::dom::element e, std::string_view skipped);
// value_digest_without(message, "cache_control") of a message whose
// content is the string `text`, as if that content were written as one
// text block ([{"type":"text","text":...}]): Claude Code sends a message
// in either form (the block form when it marks it for caching) and copies
// it (api-request-blob) as it first sent it. The model reads both alike.
Digest text_block_message_digest(simdjson::dom::object message, std::string_view text);
// value_digest of an object with its members whose value is `false` left
// out (any other value: value_digest). Claude Code (2.1.3xx) logs a tool
// call's input with the schema's defaults filled in (Edit's
// "replace_all":false) where the model streamed none: a false flag and an
// absent one mean the same call.
Digest value_digest_without_false_members(simdjson::dom::element e);
Digest text_value_digest_without_false_members(std::string_view text, StrictJsonParser& parser);
}  // namespace goalcup::json
