// goalcup-verify's printers, one per --format, chosen once per run.
#pragma once

#include <memory>

#include "cli/format.h"
#include "cli/printer.h"
#include "cli/term.h"
#include "core/verifier.h"

namespace goalcup {

struct VerifyPrintOptions {
  Style style = Style::plain();  // text's colours
  bool quiet = false;            // verified traces are left out (the summary counts them)
};

// text, json or jsonl (`format` is one --format accepts).
std::unique_ptr<BatchPrinter<VerifyReport>> make_verify_printer(Format format, const VerifyPrintOptions& options);

}  // namespace goalcup
