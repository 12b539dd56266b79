// The verdict in every view: a one-line banner, the verify object of the
// JSON views, and per record whether a valid statement covers it and whether
// it comes at or after the first break in the chain. The marks need the
// whole walk (an ack covers records before it), so the streaming views make
// two passes: a verify pass, then the view (see ReplayableInput).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "cli/json_writer.h"
#include "cli/term.h"
#include "core/verifier.h"

namespace goalcup::inspect {

struct RecordMarks {
  bool attested = false;     // a valid server statement covers it
  // At or after the first fault: an unparsable record, a wrong seq, or a
  // prev that does not match (then from the record before it, whose bytes
  // or the next prev were altered).
  bool after_break = false;
};

class VerdictView {
 public:
  explicit VerdictView(const VerifyReport& report) : r_(report) {}
  RecordMarks marks(uint64_t seq) const;
  // "!" at or after the first fault, "?" not attested, " " attested.
  char mark_char(uint64_t seq) const;
  // "at or after the first fault (...)", "not attested", "" when attested.
  std::string mark_text(uint64_t seq) const;
  // One line: verdict, reason, key source, what is attested; `legend` adds
  // what the record marks mean when some record is marked.
  std::string banner(const Style& st, bool legend = false) const;
  std::string banner_markdown() const;
  // "invalid (prev_mismatch at seq 12)", "incomplete (unsealed)", "verified".
  std::string verdict_with_reason() const;
  bool dev_key() const { return r_.key_source == KeySource::supplied; }
  bool any_marked() const;
  const VerifyReport& report() const { return r_; }
  // What and where the first fault is, e.g. "chain broken between seq 11
  // and seq 12" or "malformed record at seq 14 (duplicate_member)".
  std::string break_text() const;

 private:
  int64_t break_start() const;
  const Error* break_error() const;
  const VerifyReport& r_;
};

// The `verify` object every JSON view carries (schemas/inspect-*.schema.json).
void write_verify_json(JsonWriter& w, const VerifyReport& v);
void write_marks_json(JsonWriter& w, const RecordMarks& m);

// When nothing could be read (a missing or unreadable input): the one line
// for stderr; nullopt when the trace was read, even if it is invalid.
std::optional<std::string> unreadable_message(const VerifyReport& v);

// An input that can be read twice: a path as is, stdin spooled to a
// temporary file (removed by the destructor) so that memory stays flat.
class ReplayableInput {
 public:
  ReplayableInput() = default;
  ReplayableInput(const ReplayableInput&) = delete;
  ReplayableInput& operator=(const ReplayableInput&) = delete;
  ~ReplayableInput();
  // False (with a message) when stdin could not be spooled.
  bool open(const std::string& path, uint64_t max_bytes, std::string* error);
  const std::string& path() const { return path_; }

 private:
  std::string path_, temp_;
};

}  // namespace goalcup::inspect
