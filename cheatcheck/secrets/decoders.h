// The encodings a secret can hide behind after the recorder's plain-text
// redactor has passed: \u escapes, percent-encoding, base64 and base64url
// runs. (JSON inside strings and SSE deltas are handled by engine.cc.) Each
// decoder says whether it changed anything, so that nothing is scanned twice
// for nothing.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <cstdint>
#include <vector>

namespace goalcup::cheat {

// Decodes JSON-style escapes left in text (\uXXXX with surrogate pairs,
// \n \t \" \\ \/ ...), as when a tool printed JSON-escaped output.
// With `src`, records for each output byte the input offset of the escape
// (or character) that produced it, so a span found in the output can be
// mapped back to the input (used by redaction).
bool decode_escapes(std::string_view in, std::string* out, std::vector<uint32_t>* src = nullptr);
bool has_escapes(std::string_view in);

// %XX sequences.
bool decode_percent(std::string_view in, std::string* out, std::vector<uint32_t>* src = nullptr);

// Runs of base64 or base64url characters long enough to hold a secret.
struct Run {
  size_t start, length;
};
void find_base64_runs(std::string_view in, std::vector<Run>* runs);
// Decodes one run when the result looks like text (a secret is text).
bool decode_base64_text(std::string_view run, std::string* out);
// Encodes as `like` was encoded (standard or url alphabet, padded or not).
std::string encode_base64_like(std::string_view bytes, std::string_view like);

}  // namespace goalcup::cheat
