// Running one job per trace over many traces: --jobs threads, --shard K/N
// selection so that any job runner can split a batch, results emitted in
// input order, and a progress line on a terminal.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/error.h"

namespace goalcup {

struct Shard {
  unsigned index = 0;  // 0-based, as a Kubernetes indexed job numbers them
  unsigned count = 1;
  // The whole input list the shard was taken from: its length and the
  // SHA-256 of its paths, each followed by a newline ("sha256:<hex>"), so
  // that merge refuses shards of different lists.
  uint64_t list_inputs = 0;
  std::string list_sha256;
};
// Parses "K/N" with 0 <= K < N (numbers out of range refused).
std::optional<Shard> parse_shard(std::string_view text);
// Inputs K, K+N, ... of the whole list; records the list in *shard.
std::vector<std::string> select_shard(const std::vector<std::string>& inputs, Shard* shard);
// Reads one path per line from a file, or from stdin for "-". Blank lines
// and lines whose first non-blank character is '#' are skipped (name a file
// starting with '#' as ./#name); a trailing CR is dropped.
Result<std::vector<std::string>> read_file_list(const std::string& path);

// --batch: the inputs a folder of many submissions stands for, in name
// order. A folder is one submission (not looked into further) when it holds
// trace.jsonl or trace.jsonl.zst at its top, or when its tree holds exactly
// one entry of those names: the submission reader's rule (FORMAT.md), the
// highest such folder being the upload. Outside submissions every file named
// *.jsonl, *.jsonl.zst, *.tar, *.tar.zst or *.tgz (or another compressor's
// ending, judged could-not-judge) is an input and subfolders are walked.
// Links are never followed: one named like an input, or leading to a folder,
// is an input the tools refuse (they open walked inputs without following a
// link). Depth and entries are bounded.
struct BatchWalkLimits {
  unsigned max_depth = 16;
  size_t max_entries = 1000000;
};
struct BatchFolder {
  std::vector<std::string> inputs;
};
Result<BatchFolder> expand_batch_dir(const std::string& dir, const BatchWalkLimits& limits = {});
// For an input that failed as one submission: a hint on stderr when it is a
// folder holding several traces or submissions (use --batch), else "".
std::string batch_hint(const std::string& input, Code code, std::string_view tool);
// "TOOL: could not judge FILE: code: message" on stderr (and the hint), so
// that a CI log shows why even when stdout is JSON or SARIF.
void report_could_not_judge(std::string_view tool, const std::string& file, const Error* first_error);

// The inputs of a run: the arguments, then --files-from, each folder
// expanded under --batch, then only this --shard's.
struct InputOptions {
  std::vector<std::string> inputs;
  std::string files_from, shard;
  bool batch = false;
};
struct SelectedInputs {
  std::vector<std::string> inputs;
  std::optional<Shard> shard;
  // The inputs a --batch walk found: open them without following a link.
  std::set<std::string> walked;
  bool follow_link(const std::string& input) const { return !walked.contains(input); }
};
Result<SelectedInputs> gather_inputs(const InputOptions& options);

// The cores this process may run on (available_cores()).
unsigned default_jobs();

// Calls work(i) for every input on `jobs` threads and emit(i) on the calling
// thread in input order, as soon as input i and all before it are done.
// `status(i)` (optional) names the outcome for the progress line.
// `status(i)` is read before emit(i), which may free what it reads. Each
// job thread holds one core of CorePool::shared() while it works.
void run_batch(size_t count, unsigned jobs, const std::function<void(size_t)>& work,
               const std::function<void(size_t)>& emit, bool progress,
               const std::function<std::string(size_t)>& status = {});

}  // namespace goalcup
