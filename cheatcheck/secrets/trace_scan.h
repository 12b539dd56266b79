// GC02 and GC03 over a trace: every string of every record goes through the
// secret engine, with its place in the record ("body.headers[2]"); secrets
// are grouped by rule and SHA-256 so that a key repeated in every request
// is one finding with all its seqs. A rule the recorder's redactor knows
// (a name seen in its [REDACTED:...] markers, or listed in the policy) makes
// the finding GC02; any other rule, GC03.
#pragma once

#include <absl/container/flat_hash_map.h>
#include <absl/container/flat_hash_set.h>

#include <string>
#include <vector>

#include "cheatcheck/context.h"
#include "cheatcheck/secrets/engine.h"
#include "cheatcheck/secrets/scan_cache.h"
#include "cheatcheck/secrets/scan_pool.h"

namespace goalcup::cheat {

// One secret, wherever it was seen.
struct SecretGroup {
  uint32_t rule = 0;
  std::string sha256;
  std::string preview;
  std::string location;   // of the first occurrence
  std::string decoding;   // the shortest chain seen
  std::string file;
  Severity severity = Severity::high;
  std::string note;
  uint64_t occurrences = 0;
  std::vector<uint64_t> seqs;
};

// The most distinct secrets a scan keeps (with their texts, for redact);
// the rest are counted, in one finding, and redact refuses the trace.
constexpr size_t kMaxDistinctSecrets = 10000;

// Where the "[REDACTED:rule]" marker that opens at `open` closes (its ']'),
// or npos: a marker is short, so its ']' is looked for within 80 bytes only
// (a line of unclosed openers, each searched to the line's end, is quadratic).
size_t redaction_marker_close(std::string_view text, size_t open);

class SecretCollector {
 public:
  explicit SecretCollector(bool keep_text = false) : keep_text_(keep_text) {}
  // (text, rule) of every secret, when constructed with keep_text.
  std::vector<std::pair<std::string, std::string>> texts() const;
  void add(const SecretHit& hit, uint64_t seq, const std::string& location, const std::string& file = "");
  // Emits one finding per secret. `known` are the redactor's rule names;
  // `check`, when given, replaces the GC02/GC03 label (coop audits).
  void emit(Context& ctx, const absl::flat_hash_set<std::string>& known, std::string_view check = {});
  const std::vector<SecretGroup>& groups() const { return groups_; }
  // Places of secrets past kMaxDistinctSecrets (not kept), counted only.
  uint64_t dropped() const { return dropped_; }

 private:
  absl::flat_hash_map<std::string, size_t> index_;  // sha -> group
  std::vector<SecretGroup> groups_;
  std::vector<std::string> texts_;  // parallel to groups_ when keep_text_
  bool keep_text_;
  uint64_t dropped_ = 0;
};

// The secret scan of a trace, fed every line in order (records that did not
// parse are scanned as text, so a broken line hides nothing). With threads,
// lines are scanned on workers (with the texts of the walk's parse, copied,
// or parsing the line again when given none) and collected here in order. A long text seen
// before in the trace is not scanned again (ScanCache).
class TraceSecretScan final : public BodyDigests {
 public:
  // `limits` are the run's: each record line and the JSON inside its
  // strings are parsed under them.
  TraceSecretScan(unsigned threads, bool keep_text, const Limits& limits);
  std::vector<std::pair<std::string, std::string>> texts() const { return collector_.texts(); }
  uint64_t secrets_not_kept() const { return collector_.dropped(); }
  void on_line(std::string_view line, uint64_t seq) { pool_.add(line, seq); }
  // A line the caller parsed into `record`: its texts go to the workers, which
  // then need not parse it again.
  // `parsed`, when given, is its wire body's content parsed (by the checks):
  // its strings go instead of the body, which the workers then need not parse.
  // `answer`, when given, is its wire body's stream as the checks rebuilt it
  // (Context::lend_answer()).
  void on_record(std::string_view line, uint64_t seq, const Record& record, const ParsedBody* parsed = nullptr,
                 std::optional<RebuiltAnswer> answer = std::nullopt) {
    pool_.add(line, seq, &record, parsed, max_depth_, std::move(answer));
  }
  void finish(Context& ctx);
  // GC13's body digests on the workers; null when there are none (hashing
  // in place then costs the same, without the copy).
  BodyDigests* body_digests() { return pool_.threaded() ? this : nullptr; }
  void check(uint64_t seq, std::string_view bytes, std::string_view stated) override {
    pool_.add_digest(seq, bytes, stated);
  }
  const SeqList& mismatches() override {
    pool_.flush();
    return digest_mismatches_;
  }

 private:
  void collect(ScanOutput& out);

  SecretCollector collector_;
  absl::flat_hash_set<std::string> markers_;
  SeqList provider_key_lines_;
  SeqList digest_mismatches_;
  uint32_t max_depth_;  // the run's --max-depth, under which the workers parse
  ScanCache cache_;  // before pool_: its workers use it until they stop
  ScanPool pool_;
};

// Scans a trace line: every string of the record with its place, or the
// text of a line that is not a record. `prefilter` false decodes every line
// (for tests of the prefilter, which must not change what is found).
// `cache`, when given, is shared by the scanners of one input (and outlives them).
std::unique_ptr<LineScanner> make_record_line_scanner(bool prefilter, const Limits& limits,
                                                      ScanCache* cache = nullptr);
// Scans plain text lines (files, not traces); hits are located "line N".
std::unique_ptr<LineScanner> make_text_line_scanner(bool prefilter, const Limits& limits,
                                                    ScanCache* cache = nullptr);

// Names inside "[REDACTED:...]" markers in `text`.
void collect_markers(std::string_view text, absl::flat_hash_set<std::string>* names);

}  // namespace goalcup::cheat
