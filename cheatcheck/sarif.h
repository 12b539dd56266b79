// SARIF 2.1.0 as GitHub code scanning reads it (docs/CHEATCHECK.md, "SARIF"):
//  - one invocation per run; executionSuccessful is false and a
//    toolExecutionNotification names each input that could not be judged,
//    so an upload never shows a clean scan for a batch it could not read;
//  - artifact URIs percent-encoded, relative to --sarif-base (SRCROOT in
//    originalUriBaseIds) when given; a trace found in a submission folder is
//    named by its path there, a .tar member as a nested artifact;
//  - a region on every result; partialFingerprints carry GitHub's
//    primaryLocationLineHash beside our own fingerprint;
//  - results worst first in runs of at most 5,000 (what GitHub keeps per
//    run), at most 20 runs and about 24 MB; what does not fit is counted in
//    a notification, never dropped silently.
#pragma once

#include <cstddef>
#include <string>

#include "cheatcheck/report.h"

namespace goalcup::cheat {

struct SarifOptions {
  std::string base_dir;  // --sarif-base: URIs relative to it; "" = as given
  size_t max_results_per_run = 5000;
  size_t max_runs = 20;
  size_t max_bytes = 24u << 20;
};

std::string format_cheat_sarif(const ReportSet& set, const SarifOptions& options = {});

// RFC 3986 percent-encoding of a path for a URI: everything but unreserved
// characters and '/' is encoded, byte by byte.
std::string percent_encode_path(std::string_view path);

}  // namespace goalcup::cheat
