// Running one job per trace over many traces: --jobs threads, --shard K/N
// selection so that any job runner can split a batch, results emitted in
// input order, and a progress line on a terminal.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/error.h"

namespace goalcup {

struct Shard {
  unsigned index = 0;  // 0-based, as a Kubernetes indexed job numbers them
  unsigned count = 1;
};
// Parses "K/N" with 0 <= K < N.
std::optional<Shard> parse_shard(std::string_view text);
std::vector<std::string> select_shard(const std::vector<std::string>& inputs, Shard shard);
// Reads one path per line ("-" and blank lines excluded).
Result<std::vector<std::string>> read_file_list(const std::string& path);

unsigned default_jobs();

// Calls work(i) for every input on `jobs` threads and emit(i) on the calling
// thread in input order, as soon as input i and all before it are done.
// `status(i)` (optional) names the outcome for the progress line.
void run_batch(size_t count, unsigned jobs, const std::function<void(size_t)>& work,
               const std::function<void(size_t)>& emit, bool progress,
               const std::function<std::string(size_t)>& status = {});

}  // namespace goalcup
