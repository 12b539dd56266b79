// Printers for goalcup-cheatcheck: text grouped by check, JSON
// (schemas/cheatcheck-report.schema.json) and SARIF 2.1.0. No checking here.
#pragma once

#include <string>
#include <vector>

#include "cheatcheck/scanner.h"
#include "cli/json_writer.h"
#include "cli/term.h"

namespace goalcup::cheat {

struct ReportSet {
  std::vector<CheatReport> reports;
  Severity fail_on = Severity::high;
  std::string mode = "trace";  // trace | scan | coop | manifest
};

std::string format_cheat_text(const CheatReport& r, Severity fail_on, const Style& style, bool scan_mode = false);
std::string format_cheat_json(const ReportSet& set);
std::string format_cheat_sarif(const ReportSet& set);

// True when a report has an unsuppressed finding at or above `fail_on`.
bool fails(const CheatReport& r, Severity fail_on);
// True when the report could not be judged (the trace could not be read).
bool unjudged(const CheatReport& r);

}  // namespace goalcup::cheat
