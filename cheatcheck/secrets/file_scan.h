// `goalcup-cheatcheck scan PATH...`: the secret engine over any files, so
// that fixtures can be gated before they are committed. Directories are
// walked (links are not followed), zstd is decompressed and every member of
// a .tar is read, all transparently. A line that is JSON is scanned by its
// strings (so trace fixtures get the same decoding as traces).
#pragma once

#include <string>
#include <vector>

#include "cheatcheck/scanner.h"
#include "core/limits.h"

namespace goalcup::cheat {

// The files a PATH argument stands for (a directory expands recursively).
std::vector<std::string> expand_scan_paths(const std::vector<std::string>& paths);
// One report per file (or archive), its findings GC02/GC03 by policy.
// `threads` workers scan its lines (0: this thread does).
CheatReport scan_file(const std::string& path, const Limits& limits, const Policy& policy, bool show_secrets = false,
                      unsigned threads = 0);

}  // namespace goalcup::cheat
