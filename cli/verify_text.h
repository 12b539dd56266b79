// Phrases every tool's text uses for a verify report, written once so that
// verify, inspect's views and the HTML page say the same thing.
#pragma once

#include <string>

#include "core/verifier.h"

namespace goalcup {

// Where the keys behind the attestation change, for a report that used a
// key supplied with --dev-key: " (by supplied keys only)", or " (by pinned
// keys through seq N, after that by supplied keys only)" when a trace kept
// from a real run was re-acknowledged with another key; "" otherwise.
std::string supplied_key_scope(const VerifyReport& r);

// The statement report of the record at `seq`, if it holds one.
const StatementReport* statement_at(const VerifyReport& r, uint64_t seq);

}  // namespace goalcup
