// Audits of a coop agent farm (coopd): a copy of its data directory
// (`goalcup-cheatcheck coop DIR`) and hen manifests
// (`goalcup-cheatcheck manifest FILE...`). Findings use the same shape,
// fingerprints, baseline and exit codes as the trace checks. See
// docs/COOP.md for what this can and cannot establish.
#pragma once

#include <string>

#include "cheatcheck/policy.h"
#include "cheatcheck/scanner.h"
#include "core/limits.h"

namespace goalcup::cheat {

CheatReport audit_coop_dir(const std::string& dir, const Limits& limits, const Policy& policy);
CheatReport audit_manifest(const std::string& path, const Limits& limits, const Policy& policy);

}  // namespace goalcup::cheat
