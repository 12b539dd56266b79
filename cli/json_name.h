// File and member names in JSON reports. A name is bytes, not text: one
// that is not valid UTF-8 cannot be a JSON string as it is, and writing its
// bad bytes as U+FFFD (as any other string) made two uploads `bad\xff` and
// `bad\xfe` share one name in JSON, JSON Lines and merge (red-team 16c #14).
//
// The rule (docs/BATCH.md): a name that is valid UTF-8 is written as it is.
// In one that is not, each byte that is not part of well-formed UTF-8 is
// written as the four characters \xNN (lowercase hex), so names that differ
// in such bytes stay different; where a report names its input in a member
// (`file`), a second member `file_base64` then holds the exact bytes
// (standard base64), so the name can be got back whatever it holds.
#pragma once

#include <string>
#include <string_view>

#include "cli/json_writer.h"

namespace goalcup {

bool is_valid_utf8(std::string_view s);
// The text a name is written as in JSON (the name itself when valid UTF-8).
std::string json_name_text(std::string_view name);
// `key`: the name's text, and `key`_base64: its bytes when it is not UTF-8.
void write_name_field(JsonWriter& w, std::string_view key, std::string_view name);

}  // namespace goalcup
