// Runs every check (and the secret scan) over a trace in the one pass the
// core makes, and gathers the findings with the verifier's result.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "cheatcheck/finding.h"
#include "cheatcheck/policy.h"
#include "cheatcheck/context.h"
#include "core/verifier.h"
#include "core/walk.h"

namespace goalcup::cheat {

struct CheatOptions {
  WalkOptions walk;
  const Policy* policy = nullptr;
  bool secrets = true;
  // The trace checks (GC01...) beside the secret scan; redact needs only the
  // scan, and the checks' state grows with the trace (within their bounds).
  bool checks = true;
  bool keep_secret_text = false;  // redaction and --show-secrets only
  unsigned secret_threads = 0;    // workers for the secret scan (0: on the walking thread)
};

struct CheatReport {
  std::string file;
  VerifyReport verify;
  std::vector<Finding> findings;  // worst first
  std::vector<Skipped> skipped;
  std::vector<std::pair<std::string, std::string>> secret_texts;  // (text, rule), with keep_secret_text
  uint64_t secrets_not_kept = 0;  // places of secrets past kMaxDistinctSecrets: neither listed nor in secret_texts
};

CheatReport check_trace(const std::string& path, const CheatOptions& options);

// The checks and the secret scan as a visitor of a walk that another view
// makes (goalcup-inspect html runs them in its own pass): show each record
// to visitor(), then finish() with the walk's report. `options.walk` is not
// used; `options.policy` must outlive the scan.
class CheatScan {
 public:
  explicit CheatScan(const CheatOptions& options);
  ~CheatScan();
  CheatScan(const CheatScan&) = delete;
  CheatScan& operator=(const CheatScan&) = delete;
  RecordVisitor& visitor();
  CheatReport finish(const std::string& path, VerifyReport verify);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// Orders findings worst first, then by check and first seq.
void sort_findings(std::vector<Finding>& findings);

}  // namespace goalcup::cheat
