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

#include <simdjson.h>

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
  // A run wrapped over lines (see add_wrapped_base64_runs): the width of its
  // full lines, and how many runs after it in the list are pieces of it.
  // 0 and 0 for a run on one line.
  uint32_t width = 0, pieces = 0;
};
void find_base64_runs(std::string_view in, std::vector<Run>* runs);
// Base64 wrapped over lines, as `base64` (76 columns), `openssl base64` and
// PEM bodies (64) write it: two or more lines, every one but the last of
// the same width (a multiple of 4, 20 or more, unpadded), the last no
// longer, each separated from the next by one line break (LF or CRLF, or
// their escapes \n and \r\n in JSON-escaped text) and any indentation.
// Inserts into `runs` (find_base64_runs', in text order) each such run just
// before the runs of its lines, which it counts as its `pieces`: a reader
// decodes the wrapped run first (redaction, replacing it whole, then skips
// its pieces; the scan reads them too, as lines may be separate values).
// Linear in the text: each line is read once.
void add_wrapped_base64_runs(std::string_view in, std::vector<Run>* runs);
// The base64 characters of `run` in `in`: those of a wrapped run's lines
// joined (in `joined`), without line breaks or indentation.
std::string_view base64_chars(std::string_view in, const Run& run, std::string* joined);
// `encoded` written back in the shape of the wrapped run `like` of `in`: its
// width, and its first line break and indentation between lines.
std::string wrap_like(std::string_view encoded, std::string_view in, const Run& like);
// Decodes one run when the result looks like text (a secret is text).
bool decode_base64_text(std::string_view run, std::string* out);
// Encodes as `like` was encoded (standard or url alphabet, padded or not).
std::string encode_base64_like(std::string_view bytes, std::string_view like);

// Calls f on each string of a JSON value in document order, member names
// too when `names`, until f returns true; whether it did. Recursion is
// bounded by the strict parser's depth limit.
enum class JsonNames : bool { skip, visit };
template <typename F>
bool any_json_string(simdjson::dom::element e, JsonNames names, F&& f) {
  simdjson::dom::object o;
  simdjson::dom::array a;
  std::string_view s;
  if (!e.get(o)) {
    for (auto field : o) {
      if ((names == JsonNames::visit && f(field.key)) || any_json_string(field.value, names, f)) return true;
    }
  } else if (!e.get(a)) {
    for (auto v : a) {
      if (any_json_string(v, names, f)) return true;
    }
  } else if (!e.get(s)) {
    return f(s);
  }
  return false;
}

}  // namespace goalcup::cheat
