// Cleared findings: a baseline (an earlier JSON report) and an allowlist
// (one fingerprint or secret SHA-256 per line, # comments) suppress findings
// a judge has already looked at. Suppressed findings stay in JSON output,
// marked, and never fail a run.
#pragma once

#include <absl/container/flat_hash_set.h>

#include <string>
#include <vector>

#include "cheatcheck/scanner.h"
#include "core/error.h"

namespace goalcup::cheat {

class Suppressions {
 public:
  Status load_baseline(const std::string& path);
  Status load_allowlist(const std::string& path);
  void apply(std::vector<Finding>& findings) const;
  bool empty() const { return ids_.empty(); }

 private:
  absl::flat_hash_set<std::string> ids_;  // fingerprints and secret hashes
};

}  // namespace goalcup::cheat
