// The one walk over a directory tree that every tool makes (submission
// folders, `cheatcheck scan`, the coop audit). An upload decides what is in
// the folder, so the walk is bounded and never trusts it: links are seen as
// links and never followed, folders nest at most --max-walk-depth deep,
// paths are at most kMaxWalkPath bytes, at most --max-archive-members
// entries are looked at in all, a folder that contains itself (a bind
// mount) is not entered twice, and nothing throws. What it could not look
// at is reported with the reason, never left out silently.
#pragma once

#include <sys/stat.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/limits.h"

namespace goalcup {

// Longer paths are refused (Linux's PATH_MAX): no tool can open them anyway.
inline constexpr size_t kMaxWalkPath = 4096;

struct TreeEntry {
  int dirfd = -1;        // the folder holding the entry, open during the call
  std::string name;      // its name in that folder
  std::string rel;       // its path below the root, '/'-separated
  struct stat st {};     // as lstat sees it: a link is a link
  uint32_t depth = 1;    // path components: 1 for the root's own entries
};

// Something the walk could not look at: its path below the root, a code
// (io_error, limit_walk_depth, unsafe_path) and why.
struct TreeSkip {
  std::string rel;
  Code code;
  std::string why;
};

enum class TreeStep : uint8_t {
  go_on,        // carry on (into the entry, if it is a folder)
  skip_folder,  // do not enter this folder (the visitor reports why, if it must)
  stop,         // end the walk now
};

struct TreeWalkResult {
  std::optional<Error> error;     // what ended it early: limit_archive_members, or the root unreadable
  std::vector<TreeSkip> skipped;  // the first kMaxSkipsKept
  uint64_t skipped_count = 0;
  static constexpr size_t kMaxSkipsKept = 100;
  // The first skip as an error, for callers that must read a tree whole.
  std::optional<Error> first_skip_error(const std::string& root) const;
};

using TreeVisitor = std::function<TreeStep(const TreeEntry&)>;

// Walks the folder open at `root_fd` (not closed) in name order, showing
// every entry to `visit` before entering it.
TreeWalkResult walk_tree(int root_fd, const Limits& limits, const TreeVisitor& visit);
// The same from a path (followed if it is a link: the user named it).
TreeWalkResult walk_tree(const std::string& root, const Limits& limits, const TreeVisitor& visit);

}  // namespace goalcup
