// The encodings a secret can hide behind after the recorder's plain-text
// redactor has passed: \u escapes, percent-encoding, base64 and base64url
// runs. (JSON inside strings and SSE deltas are handled by engine.cc.) Each
// decoder says whether it changed anything, so that nothing is scanned twice
// for nothing.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace goalcup::cheat {

// Decodes JSON-style escapes left in text (\uXXXX with surrogate pairs,
// \n \t \" \\ \/ ...), as when a tool printed JSON-escaped output.
bool decode_escapes(std::string_view in, std::string* out);
bool has_escapes(std::string_view in);

// %XX sequences.
bool decode_percent(std::string_view in, std::string* out);

// Runs of base64 or base64url characters long enough to hold a secret.
struct Run {
  size_t start, length;
};
void find_base64_runs(std::string_view in, std::vector<Run>* runs);
// Decodes one run when the result looks like text (a secret is text).
bool decode_base64_text(std::string_view run, std::string* out);

}  // namespace goalcup::cheat
