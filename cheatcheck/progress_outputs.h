// GC04's hold of what Claude Code 2.x shows of a running Bash command: a
// `progress` line (data.type "bash_progress") holds the output so far
// (data.output, its last lines; data.fullOutput), for the call its
// parentToolUseID names. A viewer replays these lines, so a rewritten one
// shows the judge a run that never happened (a failing test run's live
// output passing). The command's result, logged for the same call and held
// to the request that sent it, holds that output when the command ends:
// each line the progress shows must be a line of the result, the first
// one maybe cut at its start and the last at its end (a line still being
// written). Left alone: a call with no result logged (interrupted, the log
// ends), a result Claude Code shortened (a truncation marker, output
// persisted to a file) or sent to the background.
//
// No real log of the corpora holds a bash_progress line, so how closely
// Claude Code's progress output follows the final output (ANSI sequences,
// carriage-return redraws, stdout and stderr interleaved) is not measured:
// a line not held is a warning, for the judge to read, not high.
// Bounded: at most kMaxKeptBytes of distinct outputs and results kept, and
// kMaxScannedBytes of result text searched.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <absl/container/flat_hash_map.h>
#include <absl/container/flat_hash_set.h>

#include "cheatcheck/checks/check.h"
#include "cheatcheck/native.h"

namespace goalcup::cheat {

class ProgressOutputs {
 public:
  // A Claude Code line (lines that repeat an earlier one left out by the caller).
  void logged_line(const NativeInfo& n, uint64_t seq);
  void finish(Context& ctx);

 private:
  static constexpr size_t kMaxKeptBytes = size_t{32} << 20;
  static constexpr size_t kMaxScannedBytes = size_t{512} << 20;
  struct Shown {
    uint64_t seq = 0;
    Identity call{};
    std::string text;
  };
  struct Result {
    std::string text;                // normalized (progress_outputs.cc): lines joined by \n
    absl::flat_hash_set<Digest> lines;  // each normalized line's SHA-256
    bool shortened = false;          // cut or sent elsewhere by Claude Code: not judged
  };
  bool keep(size_t bytes);
  // Whether every line of `shown` is one of `result`'s (ends maybe cut);
  // nullopt when the scan budget is spent.
  std::optional<bool> held(const std::string& shown, const Result& result);

  std::vector<Shown> shown_;
  absl::flat_hash_set<Digest> shown_keys_;             // call and output: each distinct one kept once
  absl::flat_hash_map<Identity, Result> results_;      // calls with progress -> their result
  absl::flat_hash_set<Identity> results_before_;       // file and call: its result came before any progress
  size_t kept_bytes_ = 0, scanned_bytes_ = 0;
  bool over_ = false;
  SeqList unheld_, after_result_;
};

}  // namespace goalcup::cheat
