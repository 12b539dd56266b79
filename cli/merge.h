// `goalcup-verify merge` / `goalcup-cheatcheck merge`: the JSON Lines of the
// N shards of one batch (each run with --shard K/N --format jsonl) combined
// into the report of the whole batch: the reports in the order a single
// process gives them, a summary of the whole and its exit code.
//
// Each shard's output ends with its summary line, which names the shard, so
// the shards may be given in any order; a missing, repeated or cut shard
// makes the merge fail (exit 2), never a smaller batch that looks whole.
// Memory does not grow with the batch: the shards are read side by side.
#pragma once

#include <simdjson.h>

#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

#include "cli/format.h"
#include "cli/summary.h"

namespace goalcup {

// What a tool makes of one report line: adds it to the summary and says
// whether it passed, and the line printed for it in text.
struct MergedReport {
  bool passed = true;
  std::string text_line;
};
using ReportJudge = std::function<MergedReport(simdjson::dom::element report, BatchSummary& summary)>;

struct MergeOptions {
  std::string tool;     // "goalcup-verify"
  std::string version;
  Format format = Format::jsonl;  // text, json or jsonl
  bool quiet = false;
  // Key/value pairs written first in the JSON header, beside "tool".
  std::vector<std::pair<std::string, std::string>> header;
};

// Returns the batch exit code (2 with a message on stderr when the shards
// do not make one whole batch).
int merge_shards(const std::vector<std::string>& files, const MergeOptions& options, BatchSummary& summary,
                 const ReportJudge& judge, std::ostream& out);

}  // namespace goalcup
