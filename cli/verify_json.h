// The members every tool's JSON writes of a verify report: goalcup-verify's
// full report (verify/report.cc), and the `verify` object inspect's views and
// cheatcheck's reports carry. Written here once so that the three spell them
// alike.
#pragma once

#include "cli/json_writer.h"
#include "core/error.h"
#include "core/verifier.h"

namespace goalcup {

// "verdict", "incomplete_reason" (null unless incomplete) and "key_source".
void write_verdict_fields(JsonWriter& w, const VerifyReport& r);
// "warnings": the warning codes.
void write_warning_codes(JsonWriter& w, const VerifyReport& r);
// {"code", "seq", "message"}
void write_error_json(JsonWriter& w, const Error& e);

}  // namespace goalcup
