// The batch at a glance, the same for every tool: counts per verdict (and
// per finding severity), the checks skipped, the exit code of the whole and
// the inputs that caused it. Printed last on stdout so that a CI log reader
// sees it without scrolling; the same totals go into the JSON reports.
//
// One batch exit rule for all tools (docs/BATCH.md): a batch exits with the
// worst exit code of its inputs, ranked
//   1 (invalid, or findings at or above --fail-on)
//   > 2 (could not judge)
//   > 3 (incomplete)
//   > 0 (passed).
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cli/batch.h"
#include "cli/json_writer.h"
#include "cli/term.h"

namespace goalcup {

// True when exit code `a` outranks `b` under the batch exit rule.
bool exit_code_worse(int a, int b);

class BatchSummary {
 public:
  // At most this many inputs are named for the worst exit code (all counted).
  static constexpr size_t kMaxNamed = 20;

  // `noun` names one input in the text ("trace", "file").
  explicit BatchSummary(std::string noun = "trace") : noun_(std::move(noun)) {}

  // One input: its verdict word and its exit code.
  void add(std::string_view file, std::string_view verdict, int exit_code);
  // An input just `add`ed whose statements hold only thanks to a key given
  // with --dev-key (vouched_by_supplied_key): the text counts it beside its
  // verdict and names it, the JSON has "supplied_key". Nothing is said for a
  // batch without one, and exit codes do not change.
  void add_supplied_key(std::string_view file, std::string_view verdict);
  void add_findings(std::string_view severity, size_t count);
  void add_skipped(std::string_view check, std::string_view reason);
  void set_shard(Shard shard) { shard_ = shard; }
  // Names the verdict an exit code stands for in the text ("invalid").
  void set_exit_meaning(int exit_code, std::string meaning) { meanings_[exit_code] = std::move(meaning); }
  // An input that failed before any report (a usage error): exit 2.
  void fail_usage() { usage_failed_ = true; }

  size_t inputs() const { return inputs_; }
  int exit_code() const;
  const std::map<std::string, size_t>& verdicts() const { return verdicts_; }
  const std::map<std::string, size_t>& severities() const { return severities_; }

  // Several lines; the last one is the exit code and who caused it.
  std::string text(const Style& style) const;
  // The "summary" object of the report schemas.
  void write_json(JsonWriter& w) const;
  // The last line of a --format jsonl output: {"summary": {...}}.
  std::string jsonl_line() const;

 private:
  std::string supplied_key_text(const Style& st) const;

  std::string noun_;
  size_t inputs_ = 0;
  int worst_ = 0;
  bool usage_failed_ = false;
  std::vector<std::string> worst_files_;
  size_t worst_count_ = 0;
  std::map<std::string, size_t> verdicts_;
  std::map<std::string, size_t> severities_;
  std::map<std::string, size_t> supplied_key_verdicts_;
  std::vector<std::string> supplied_key_files_;
  size_t supplied_key_count_ = 0;
  std::map<std::pair<std::string, std::string>, size_t> skipped_;
  std::map<int, std::string> meanings_;
  std::optional<Shard> shard_;
};

}  // namespace goalcup
