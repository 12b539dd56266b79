#include "core/tree_walk.h"

#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <utility>

#include "core/owned.h"

namespace goalcup {
namespace {

using Dir = Owned<DIR, &::closedir>;

class Walker {
 public:
  Walker(const Limits& limits, size_t root_path_bytes, const TreeVisitor& visit)
      : limits_(limits), root_path_bytes_(root_path_bytes), visit_(visit) {}

  TreeWalkResult run(int root_fd) {
    struct stat st {};
    if (::fstat(root_fd, &st) == 0) ancestors_.emplace_back(st.st_dev, st.st_ino);
    folder(root_fd, "", 0);
    return std::move(result_);
  }

 private:
  void skip(std::string rel, Code code, std::string why) {
    if (result_.skipped.size() < TreeWalkResult::kMaxSkipsKept) {
      result_.skipped.push_back(TreeSkip{std::move(rel), code, std::move(why)});
    }
    ++result_.skipped_count;
  }

  // The names in a folder, sorted so that every run sees the same order;
  // nothing when it cannot be read (reported) or the entry budget ran out.
  std::optional<std::vector<std::string>> names(int fd, const std::string& rel) {
    const std::string shown = rel.empty() ? "." : rel.substr(0, rel.size() - 1);
    // A fresh open file description: reading must not move the caller's offset.
    UniqueFd own(::openat(fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    Dir d(own.valid() ? ::fdopendir(own.get()) : nullptr);
    if (!d) {
      skip(shown, Code::io_error, std::string("cannot be read: ") + std::strerror(errno));
      return std::nullopt;
    }
    (void)own.release();  // the DIR owns it now
    std::vector<std::string> out;
    errno = 0;
    for (dirent* e = ::readdir(d.get()); e; e = ::readdir(d.get())) {
      if (std::strcmp(e->d_name, ".") == 0 || std::strcmp(e->d_name, "..") == 0) continue;
      if (++entries_ > limits_.max_archive_members) {
        result_.error = Error{Code::limit_archive_members, -1,
                              "more than " + std::to_string(limits_.max_archive_members) +
                                  " entries in the folder tree; raise --max-archive-members"};
        return std::nullopt;
      }
      out.emplace_back(e->d_name);
      errno = 0;
    }
    const int err = errno;
    if (err != 0) skip(shown, Code::io_error, std::string("cannot be listed in full: ") + std::strerror(err));
    std::sort(out.begin(), out.end());
    return out;
  }

  // False once the walk must end.
  bool folder(int fd, const std::string& rel, uint32_t depth) {
    auto list = names(fd, rel);
    if (!list) return !result_.error;
    if (!list->empty() && depth + 1 > limits_.max_walk_depth) {
      skip(rel.substr(0, rel.size() - 1), Code::limit_walk_depth,
           "holds entries more than " + std::to_string(limits_.max_walk_depth) +
               " folders deep, not read; raise --max-walk-depth");
      return true;
    }
    for (const auto& name : *list) {
      TreeEntry e;
      e.dirfd = fd;
      e.name = name;
      e.rel = rel + name;
      e.depth = depth + 1;
      if (root_path_bytes_ + e.rel.size() > kMaxWalkPath) {
        skip(rel + "...", Code::limit_walk_depth,
             "a path longer than " + std::to_string(kMaxWalkPath) + " bytes, not read");
        continue;
      }
      if (::fstatat(fd, name.c_str(), &e.st, AT_SYMLINK_NOFOLLOW) != 0) {
        const int err = errno;
        skip(e.rel, Code::io_error, std::string("cannot be examined: ") + std::strerror(err));
        continue;
      }
      const TreeStep step = visit_(e);
      if (step == TreeStep::stop) return false;
      if (step == TreeStep::go_on && S_ISDIR(e.st.st_mode) && !enter(e)) return false;
    }
    return true;
  }

  bool enter(const TreeEntry& e) {
    const std::pair<dev_t, ino_t> id{e.st.st_dev, e.st.st_ino};
    if (std::find(ancestors_.begin(), ancestors_.end(), id) != ancestors_.end()) {
      skip(e.rel, Code::unsafe_path, "a folder that contains itself (a loop), not entered again");
      return true;
    }
    UniqueFd sub(::openat(e.dirfd, e.name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
    if (!sub.valid()) {
      const int err = errno;
      skip(e.rel, Code::io_error, std::string("cannot be opened: ") + std::strerror(err));
      return true;
    }
    struct stat now {};
    if (::fstat(sub.get(), &now) != 0 || now.st_dev != e.st.st_dev || now.st_ino != e.st.st_ino) {
      skip(e.rel, Code::file_changed, "was replaced while the tree was read");
      return true;
    }
    ancestors_.push_back(id);
    const bool go_on = folder(sub.get(), e.rel + "/", e.depth);
    ancestors_.pop_back();
    return go_on;
  }

  const Limits& limits_;
  size_t root_path_bytes_;
  const TreeVisitor& visit_;
  TreeWalkResult result_;
  uint64_t entries_ = 0;
  std::vector<std::pair<dev_t, ino_t>> ancestors_;
};

}  // namespace

std::optional<Error> TreeWalkResult::first_skip_error(const std::string& root) const {
  if (skipped.empty()) return std::nullopt;
  const TreeSkip& s = skipped.front();
  std::string more = skipped_count > 1 ? " (and " + std::to_string(skipped_count - 1) + " more)" : "";
  return Error{s.code, -1, root + "/" + s.rel + ": " + s.why + more};
}

TreeWalkResult walk_tree(int root_fd, const Limits& limits, const TreeVisitor& visit) {
  return Walker(limits, 0, visit).run(root_fd);
}

TreeWalkResult walk_tree(const std::string& root, const Limits& limits, const TreeVisitor& visit) {
  UniqueFd fd(::open(root.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (!fd.valid()) {
    const int err = errno;
    TreeWalkResult r;
    r.error = Error{err == ENOENT ? Code::not_found : Code::io_error, -1, root + ": " + std::strerror(err)};
    return r;
  }
  return Walker(limits, root.size() + 1, visit).run(fd.get());
}

}  // namespace goalcup
