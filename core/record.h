// Stage 3: records. A line becomes a Record only if it is exactly the
// envelope the format defines: five members in order (seq, t, kind, prev,
// body) with the right types, in a line that is strict JSON.
#pragma once

#include <simdjson.h>

#include <cstdint>
#include <string_view>

#include "core/error.h"
#include "core/json_strict.h"
#include "core/limits.h"
#include "core/sha256.h"
#include "core/timefmt.h"

namespace goalcup {

enum class Kind : uint8_t {
  header, start_receipt, launch, wire, tunnel, native, gap, ack, exit, seal, seal_ack, unknown
};
std::string_view kind_name(Kind k);
Kind parse_kind(std::string_view name);
inline bool is_statement(Kind k) {
  return k == Kind::start_receipt || k == Kind::ack || k == Kind::seal_ack;
}

// Views into the parser's memory: valid until the next parse.
struct Record {
  uint64_t seq = 0;
  std::string_view t_text;
  Timestamp t;
  Kind kind = Kind::unknown;
  std::string_view kind_text;  // as written (matters for unknown kinds)
  Digest prev{};
  simdjson::dom::object body;
};

class RecordParser {
 public:
  explicit RecordParser(const Limits& limits) : json_(limits) {}
  // `line` must have kLinePadding readable bytes after it (LineReader's do).
  Result<Record> parse(std::string_view line, uint64_t index);
  // After a huge line: see StrictJsonParser::release_memory.
  void release_memory() { json_.release_memory(); }

 private:
  StrictJsonParser json_;
};

}  // namespace goalcup
