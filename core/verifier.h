// Stage 4: the chain and the statements. ChainVerifier takes one line at a
// time (its hash and, when it parsed, its record) and keeps only fixed state:
// the previous hash, a bounded window of recent hashes for acks to point
// into, the header's ids and the statements seen. finish() says exactly what
// was checked and how much of the trace a server statement covers.
#pragma once

#include <absl/container/flat_hash_map.h>

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/keyring.h"
#include "core/limits.h"
#include "core/lines.h"
#include "core/record.h"
#include "core/statement.h"

namespace goalcup {

enum class Verdict : uint8_t { verified, incomplete, invalid, error };
// not_read_to_end: the tool stopped reading on purpose (inspect show, a seq
// range) and nothing wrong was found in what was read.
enum class IncompleteReason : uint8_t { none, unsealed, seal_unacknowledged, not_read_to_end };
std::string_view verdict_name(Verdict v);
std::string_view incomplete_reason_name(IncompleteReason r);  // "" for none
// Process exit code of a verdict: 0 verified, 1 invalid, 2 error, 3 incomplete.
int verdict_exit_code(Verdict v);
// For a batch: invalid > error > incomplete > verified.
Verdict worst(Verdict a, Verdict b);

struct StatementReport {
  uint64_t seq = 0;        // the record holding the statement
  Kind kind = Kind::unknown;  // start_receipt, ack or seal_ack
  std::string type;        // from the payload, "" if unreadable
  int64_t covers_seq = -1; // the payload's seq, -1 if unreadable
  std::string key_id;      // the key that verified, else the envelope's hint
  KeySource key_source = KeySource::none;
  std::string at;
  bool valid = false;      // signature, key window, ids, seq and head all hold
};

// What a report warns of: the trace was judged, but its reader should know.
// The names are the "warnings" of schemas/verify-report.schema.json.
enum class WarningCode : uint8_t {
  server_key_unpinned,  // statements hold only under a --dev-key key
  unknown_kind,         // a record of a kind the format does not name
  zstd_truncated,       // the stream ends inside a zstd frame (judged on what was read)
  statement_time_order, // server time goes back where the format sets no order (see verifier.cc)
};
std::string_view warning_name(WarningCode c);
// The warning a cut stream's error (ByteSource::cut) stands for, if any.
std::optional<WarningCode> cut_warning(Code c);

struct Warning {
  WarningCode code = WarningCode::unknown_kind;
  int64_t seq = -1;
  std::string message;
};

// One line per group of checks, like a signature verifier's result.
struct CheckReport {
  std::string name;
  bool passed = true;
  uint64_t failures = 0;
  std::string detail;
};

// How many errors of one code were found, and the first one's seq.
struct ErrorTally {
  Code code;
  uint64_t count = 0;
  int64_t first_seq = -1;
};

struct VerifyReport {
  std::string file;
  std::string source;  // how it was read, e.g. "trace.jsonl.zst in tar, zstd"
  std::string member;  // its path inside the folder or .tar `file` names, "" for a plain file
  bool member_of_archive = false;
  Verdict verdict = Verdict::error;
  IncompleteReason incomplete_reason = IncompleteReason::none;
  KeySource key_source = KeySource::none;
  std::vector<WarningCode> warnings;        // distinct codes
  std::vector<Warning> warning_details;     // first few, with seqs
  // Every error found is counted (error_count, errors_by_code); the verdict
  // and the checks are derived from the counts. Only the first
  // kMaxStoredErrors are kept with their message, as a sample to show.
  std::vector<Error> errors;
  uint64_t error_count = 0;
  std::vector<ErrorTally> errors_by_code;    // one per code found, in order of first occurrence
  std::string entry_id, run_id;
  uint64_t records = 0;
  std::string head;  // "sha256:..." of the last line, "" if none
  int64_t attested_through_seq = -1;
  // The same under pinned keys alone: with --dev-key, statements after it
  // verify only under a supplied key (-1 if no pinned key attests anything).
  int64_t pinned_attested_through_seq = -1;
  // The first line whose link in the chain fails (unparsable, wrong seq or
  // prev), -1 if none: nothing from it on is attested.
  int64_t first_break_seq = -1;
  uint64_t unattested_records = 0;
  uint64_t unattested_wire_bytes = 0;
  uint64_t wire_bytes = 0;
  std::vector<StatementReport> statements;
  bool sealed = false;
  bool seal_acknowledged = false;
  std::string seal_reason;
  bool exited = false;
  uint64_t bytes = 0;  // decompressed trace bytes read
  std::vector<CheckReport> checks;
  bool complete_read = false;  // every byte was read and judged
};

// Errors kept with their message (a display sample; counting has no cap).
// Not to be confused with Limits::max_errors, the errors after which
// reading stops.
inline constexpr size_t kMaxStoredErrors = 100;
inline constexpr size_t kMaxWarningDetails = 20;

class ChainVerifier {
 public:
  ChainVerifier(const Keyring& keyring, const Limits& limits);

  // Every line, in order. `record` is the parse result of this line.
  void add_line(const Line& line, const Digest& hash, const Result<Record>& record);
  // Reading stopped early (I/O error, a limit, a cut last line).
  void add_read_error(Error e);
  // The tool stopped reading on purpose: not an error, but what was not
  // read is not judged (the verdict is at best incomplete, not_read_to_end).
  void stop_reading() { stopped_by_tool_ = true; }
  // The source ended early but cleanly enough to judge (ByteSource::cut):
  // a warning under the error's code; the lines read decide the verdict.
  // A cut before the first line leaves nothing to judge: an upload damaged
  // on its way is not evidence of an empty trace, so it could not be judged.
  void add_cut_warning(const Error& e);
  VerifyReport finish(uint64_t bytes_read);
  // True once --max-errors errors were found: the verdict is settled and
  // reading on would only cost time.
  bool should_stop() const { return stop_; }

 private:
  struct Slot {
    uint64_t seq = UINT64_MAX;
    Digest hash{};
    uint64_t wire_through = 0;  // wire bytes in records 0..seq
  };
  struct Seen {  // a validly signed statement, for fork detection
    Digest head{};
    uint64_t record_seq = 0;
  };

  void error(Code code, int64_t seq, std::string message);
  void count(Code code, int64_t seq);
  void warn(WarningCode code, int64_t seq, std::string message);
  void check_order(const Record& r);
  void check_kind(const Record& r);
  void check_statement(const Record& r);
  bool check_statement_binding(const Record& r, const Statement& st, StatementReport& rep);
  const Slot* slot_for(uint64_t seq) const;

  const Keyring& keyring_;
  Limits limits_;
  VerifyReport rep_;
  std::array<uint64_t, kCodeCount> per_code_{};   // every error found, by code
  std::array<int64_t, kCodeCount> first_seq_{};   // of each code's first error
  std::vector<Code> code_order_;                  // codes in order of first occurrence
  StrictJsonParser payload_parser_;
  static constexpr size_t kInitialWindow = 256;
  std::vector<Slot> window_;
  Digest last_hash_{};
  uint64_t lines_ = 0;
  uint64_t wire_total_ = 0;
  // Order state.
  bool have_header_ = false;
  bool unsupported_format_ = false;  // the header names another format or version
  // A statement whose signature verifies names another head than this
  // file's (or than another signed statement): proof of an edit whatever
  // format the header claims, so it outranks unsupported_format_.
  bool signed_contradiction_ = false;
  bool exited_ = false;
  bool ingest_lost_ = false;  // an IngestLost gap: the capture was recovered after a restart
  bool sealed_ = false;
  bool seal_acked_ = false;
  int64_t seal_seq_ = -1;
  bool read_error_ = false;
  bool stopped_by_tool_ = false;
  // The first line whose link in the chain failed (unparsable, wrong seq or
  // wrong prev): no statement attests records across it.
  uint64_t first_break_ = UINT64_MAX;
  bool stop_ = false;
  // Statement state.
  uint64_t statement_count_ = 0;
  bool statement_limit_hit_ = false;
  int64_t last_ack_seq_ = -1;
  std::optional<Timestamp> start_at_, last_ack_at_;
  absl::flat_hash_map<uint64_t, Seen> seen_;
  uint64_t attested_wire_ = 0;
  bool used_supplied_ = false;
  bool used_any_ = false;
  bool seal_ack_valid_ = false;
  uint64_t last_seq_ = 0;
};

}  // namespace goalcup
