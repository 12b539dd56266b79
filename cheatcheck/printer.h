// goalcup-cheatcheck's printers, one per --format, chosen once per run:
// text and JSON Lines as each input is done, JSON and SARIF whole at the end
// from every report of the set.
#pragma once

#include <memory>

#include "cheatcheck/report.h"
#include "cheatcheck/sarif.h"
#include "cli/format.h"
#include "cli/printer.h"
#include "cli/term.h"

namespace goalcup::cheat {

struct CheatPrintOptions {
  Style style = Style::plain();  // text's colours
  SarifOptions sarif;
};

// `set` holds the run's mode, --fail-on, --quiet and (for the printers that
// keep them) the reports; it must outlive the printer.
std::unique_ptr<BatchPrinter<CheatReport>> make_cheat_printer(Format format, const ReportSet& set,
                                                              const CheatPrintOptions& options);

}  // namespace goalcup::cheat
