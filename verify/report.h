// Printers for goalcup-verify's report; no checking happens here.
#pragma once

#include <string>

#include "cli/json_writer.h"
#include "cli/term.h"
#include "core/verifier.h"

namespace goalcup {

// The report object of schemas/verify-report.schema.json.
void write_verify_json(JsonWriter& w, const VerifyReport& r);
// One verdict line, then what was checked and the first errors.
std::string format_verify_text(const VerifyReport& r, const Style& style);

}  // namespace goalcup
