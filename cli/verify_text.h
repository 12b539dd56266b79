// Phrases every tool's text uses for a verify report, written once so that
// verify, inspect's views and the HTML page say the same thing.
#pragma once

#include <string>
#include <string_view>

#include "core/verifier.h"

namespace goalcup {

// Where the keys behind the attestation change, for a report that used a
// key supplied with --dev-key: " (by supplied keys only)", or " (by pinned
// keys through seq N, after that by supplied keys only)" when a trace kept
// from a real run was re-acknowledged with another key; "" otherwise.
std::string supplied_key_scope(const VerifyReport& r);

// True when a trace judged verified or incomplete owes any of its statements
// to a key supplied with --dev-key (key_source "supplied"): anyone holding
// that key (the development key is public) could have signed them, so every
// gate output (a batch's summary, -q, merge, SARIF) says so, not only the
// full report (red-team 16c #9). The second form reads a report's JSON words.
bool vouched_by_supplied_key(const VerifyReport& r);
bool vouched_by_supplied_key(std::string_view verdict, std::string_view key_source);
// How a one-line view marks such a trace.
inline constexpr std::string_view kSuppliedKeyNote = "supplied key, not a production key";

// The statement report of the record at `seq`, if it holds one.
const StatementReport* statement_at(const VerifyReport& r, uint64_t seq);

}  // namespace goalcup
