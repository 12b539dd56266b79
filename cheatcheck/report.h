// Printers for goalcup-cheatcheck: text grouped by check, JSON
// (schemas/cheatcheck-report.schema.json) and SARIF 2.1.0. No checking here.
#pragma once

#include <string>
#include <vector>

#include "cheatcheck/scanner.h"
#include "cli/json_writer.h"
#include "cli/summary.h"
#include "cli/term.h"

namespace goalcup::cheat {

// What the run reads: a trace (the checklist), plain files (the secret
// scan), a coop data directory or a coop manifest.
enum class Mode { trace, scan, coop, manifest };
// The name the JSON report and SARIF give a mode.
std::string_view mode_name(Mode mode);

struct ReportSet {
  std::vector<CheatReport> reports;
  Severity fail_on = Severity::high;
  Mode mode = Mode::trace;
  bool quiet = false;          // JSON lists only the inputs that did not pass
};

std::string format_cheat_text(const CheatReport& r, Severity fail_on, const Style& style, bool scan_mode = false);
// One report object of schemas/cheatcheck-report.schema.json (a JSON Lines line).
void write_cheat_report(JsonWriter& w, const CheatReport& r, const ReportSet& set);
std::string format_cheat_json(const ReportSet& set, const BatchSummary* summary = nullptr);

// True when a report has an unsuppressed finding at or above `fail_on`.
bool fails(const CheatReport& r, Severity fail_on);
// True when the report could not be judged (the trace could not be read).
bool unjudged(const CheatReport& r);
// An input's exit code: 2 could not judge, 1 fails --fail-on, 0 passed;
// and the verdict word the summary counts it under.
int cheat_exit_code(const CheatReport& r, Severity fail_on);
std::string_view cheat_verdict(int exit_code);
// Counts the input, its unsuppressed findings by severity and its skipped checks.
void add_to_summary(BatchSummary& summary, const CheatReport& r, Severity fail_on);

}  // namespace goalcup::cheat
