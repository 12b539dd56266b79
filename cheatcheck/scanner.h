// Runs every check (and the secret scan) over a trace in the one pass the
// core makes, and gathers the findings with the verifier's result.
#pragma once

#include <string>
#include <vector>

#include "cheatcheck/finding.h"
#include "cheatcheck/policy.h"
#include "cheatcheck/context.h"
#include "core/verifier.h"
#include "core/walk.h"

namespace goalcup::cheat {

struct CheatOptions {
  WalkOptions walk;
  const Policy* policy = nullptr;
  bool secrets = true;
  bool keep_secret_text = false;  // redaction and --show-secrets only
  unsigned secret_threads = 0;    // workers for the secret scan (0: on the walking thread)
};

struct CheatReport {
  std::string file;
  VerifyReport verify;
  std::vector<Finding> findings;  // worst first
  std::vector<Skipped> skipped;
  std::vector<std::pair<std::string, std::string>> secret_texts;  // (text, rule), with keep_secret_text
};

CheatReport check_trace(const std::string& path, const CheatOptions& options);

// Orders findings worst first, then by check and first seq.
void sort_findings(std::vector<Finding>& findings);

}  // namespace goalcup::cheat
