// Strict JSON: RFC 8259 as simdjson checks it (structure, UTF-8, escapes,
// number syntax), plus what simdjson allows and this format
// does not: duplicate member names in any object and nesting beyond the
// limit. A valid number simdjson cannot hold (beyond 64 bits or a double)
// reads as a non-integer, so a member that must be an integer refuses it;
// an escaped lone surrogate ("\ud800") reads as U+FFFD.
#pragma once

#include <simdjson.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string_view>

#include "core/error.h"
#include "core/limits.h"

namespace goalcup {

class StrictJsonParser {
 public:
  explicit StrictJsonParser(const Limits& limits);

  // Parses `bytes`, which must have kLinePadding readable bytes after its
  // end. The returned element lives until the next call. Errors carry `seq`.
  Result<simdjson::dom::element> parse_padded(std::string_view bytes, int64_t seq);
  // Same for bytes without padding (copies them first).
  Result<simdjson::dom::element> parse_copy(std::string_view bytes, int64_t seq);
  // Gives back buffers grown for a huge document (the last element becomes
  // invalid), so that memory follows the longest line only while it is used.
  void release_memory();
  // release_memory() when the document just parsed was over 16 MiB: a
  // parser kept for many documents does not hold the longest one's buffers.
  void release_if_large(size_t parsed_bytes) {
    if (parsed_bytes > (16u << 20)) release_memory();
  }
  // The largest document its buffers are sized for (the parser's or the
  // parsed document's): what release_memory() gives back.
  size_t capacity() const { return std::max(parser_.capacity(), parser_.doc.capacity()); }

 private:
  simdjson::dom::parser parser_;
  uint32_t max_depth_;  // the format's bound, held by strict_walk()
  std::string copy_;       // reused: most calls need no allocation
  std::string wide_copy_;  // a line rewritten for simdjson (see .cc)
};

// The first member name that repeats within one object, anywhere in `root`.
std::optional<std::string_view> find_duplicate_member(simdjson::dom::element root);

// What the strict walk of a parsed line found first: a member name that
// repeats within one object, or a container nested deeper than max_depth
// (`e` being at `depth`, the root at 1).
struct StrictFault {
  std::string_view duplicate;
  bool too_deep = false;
};
std::optional<StrictFault> strict_walk(simdjson::dom::element e, uint32_t depth, uint32_t max_depth);

// Typed lookups that distinguish "absent" from "wrong type".
namespace json {
enum class Get { ok, absent, wrong_type };
Get string(simdjson::dom::object o, std::string_view key, std::string_view* out);
Get uint(simdjson::dom::object o, std::string_view key, uint64_t* out);
Get object(simdjson::dom::object o, std::string_view key, simdjson::dom::object* out);
Get array(simdjson::dom::object o, std::string_view key, simdjson::dom::array* out);
Get boolean(simdjson::dom::object o, std::string_view key, bool* out);
// An integer (negative allowed) that was written as an integer.
Get integer(simdjson::dom::object o, std::string_view key, int64_t* out);
bool is_integer(simdjson::dom::element e);
}  // namespace json

}  // namespace goalcup
