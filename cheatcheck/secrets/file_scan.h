// `goalcup-cheatcheck scan PATH...`: the secret engine over any files, so
// that fixtures can be gated before they are committed. Directories are
// walked (links are not followed), zstd is decompressed and every member of
// a .tar is read, all transparently. A line that is JSON is scanned by its
// strings (so trace fixtures get the same decoding as traces).
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "cheatcheck/scanner.h"
#include "core/limits.h"
#include "core/upload_budget.h"

namespace goalcup::cheat {

// The files PATH arguments stand for (a directory expands recursively, by
// the bounded walk of core/tree_walk.h), and one report per directory whose
// walk left something out: links and special files as skipped, what could
// not be read (or a limit) as errors.
struct ScanInputs {
  std::vector<std::string> files;
  std::map<std::string, std::shared_ptr<UploadBudget>> budgets;  // a folder's files: the folder's, shared
  std::vector<CheatReport> walks;
};
ScanInputs expand_scan_paths(const std::vector<std::string>& paths, const Limits& limits);
// One report per file (or archive), its findings GC02/GC03 by policy.
// `threads` workers scan its lines (0: this thread does). The budget is
// the upload's the file belongs to (docs/LIMITS.md); null: its own.
CheatReport scan_file(const std::string& path, const Limits& limits, const Policy& policy, bool show_secrets = false,
                      unsigned threads = 0, std::shared_ptr<UploadBudget> budget = nullptr);

}  // namespace goalcup::cheat
