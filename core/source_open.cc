// open_trace(): from a command-line argument to a stream of trace bytes.
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <optional>

#include "core/owned.h"
#include "core/source.h"
#include "core/source_internal.h"
#include "core/tree_walk.h"

namespace goalcup {
namespace {

Error open_error(const std::string& path, int err) {
  Code code = err == ENOENT ? Code::not_found : Code::io_error;
  return Error{code, -1, path + ": " + std::strerror(err)};
}

// Opens without following a final symlink and without blocking on a FIFO;
// the caller decides what file types it accepts.
struct OpenedFd {
  UniqueFd fd;
  struct stat st {};
};

Result<OpenedFd> open_checked(int dirfd, const std::string& name, int extra_flags) {
  OpenedFd o;
  o.fd.reset(::openat(dirfd, name.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | extra_flags));
  if (!o.fd.valid()) {
    if (errno == ELOOP && (extra_flags & O_NOFOLLOW)) {
      return Error{Code::unsafe_path, -1, name + " is a symbolic link; refusing to follow it"};
    }
    return open_error(name, errno);
  }
  if (::fstat(o.fd.get(), &o.st) != 0) return open_error(name, errno);
  return o;
}

Result<std::unique_ptr<ByteSource>> regular_file_source(OpenedFd o, const std::string& name) {
  if (!S_ISREG(o.st.st_mode)) {
    return Error{Code::not_regular_file, -1, name + " is not a regular file (a FIFO, device or socket?)"};
  }
  // Reading may block from here on, as for any regular file.
  ::fcntl(o.fd.get(), F_SETFL, ::fcntl(o.fd.get(), F_GETFL) & ~O_NONBLOCK);
  return fd_source(o.fd.release(), true, static_cast<int64_t>(o.st.st_size));
}

// The one trace of a submission folder, by the rule a .tar is read with
// (docs/FORMAT.md): the whole tree is looked at, exactly one entry may be
// named like a trace, at any depth, and it must be a regular file that is
// no link of either kind. What the walk could not read might hide a second
// trace, so it makes the submission unreadable rather than being skipped.
class TraceFinder {
 public:
  TreeStep visit(const TreeEntry& e) {
    if (!is_trace_file_name(e.name)) return TreeStep::go_on;
    if (!rel_.empty()) return fail(Error{Code::ambiguous_submission, -1, "holds both " + rel_ + " and " + e.rel});
    if (auto bad = unsafe_trace_entry(e.st.st_mode & S_IFMT, e.st.st_nlink > 1)) return fail(Error{Code::unsafe_path, -1, e.rel + " " + *bad});
    dirfd_.reset(::dup(e.dirfd));
    if (!dirfd_.valid()) return fail(open_error(e.rel, errno));
    rel_ = e.rel;
    name_ = e.name;
    st_ = e.st;
    return TreeStep::go_on;
  }

  std::optional<Error>& error() { return error_; }
  const std::string& rel() const { return rel_; }

  // Opens the trace found, checking it is still the file the walk saw.
  Result<OpenedFd> open() const {
    auto o = open_checked(dirfd_.get(), name_, O_NOFOLLOW);
    if (!o) return o;
    if (o->st.st_dev != st_.st_dev || o->st.st_ino != st_.st_ino || o->st.st_nlink != st_.st_nlink) {
      return Error{Code::file_changed, -1, rel_ + " was replaced while the submission was read"};
    }
    return o;
  }

 private:
  TreeStep fail(Error e) {
    error_ = std::move(e);
    return TreeStep::stop;
  }

  std::optional<Error> error_;
  std::string rel_, name_;
  struct stat st_ {};
  UniqueFd dirfd_;
};

Result<std::unique_ptr<ByteSource>> submission_source(int dirfd, const std::string& path, const Limits& limits,
                                                      std::string* member) {
  TraceFinder finder;
  const TreeWalkResult walk = walk_tree(dirfd, limits, [&](const TreeEntry& e) { return finder.visit(e); });
  std::optional<Error> failure = std::move(finder.error());
  if (!failure) failure = walk.error;
  if (!failure) failure = walk.first_skip_error(path);
  if (!failure && finder.rel().empty()) {
    failure = Error{Code::no_trace_in_submission, -1, path + " holds no trace.jsonl or trace.jsonl.zst"};
  }
  if (failure) {
    if (!failure->message.starts_with(path)) failure->message = path + ": " + failure->message;
    return std::move(*failure);
  }
  auto o = finder.open();
  if (!o) return Error{o.error().code, -1, path + "/" + finder.rel() + ": " + o.error().message};
  *member = finder.rel();
  return regular_file_source(std::move(*o), path + "/" + finder.rel());
}

Result<std::unique_ptr<ByteSource>> raw_source(const std::string& path, const Limits& limits,
                                                std::string* description, std::string* folder_member,
                                                bool follow_link) {
  if (path == "-") {
    *description = "stdin";
    return fd_source(STDIN_FILENO, false, -1);
  }
  GOALCUP_ASSIGN_OR_RETURN(OpenedFd o, open_checked(AT_FDCWD, path, follow_link ? 0 : O_NOFOLLOW));
  if (S_ISDIR(o.st.st_mode)) {
    std::string member;
    auto src = submission_source(o.fd.get(), path, limits, &member);
    if (src) *description = member + " in directory";
    if (src) *folder_member = member;
    return src;
  }
  return regular_file_source(std::move(o), path);
}

}  // namespace

Result<std::unique_ptr<ByteSource>> open_regular_file(const std::string& path, bool follow_links) {
  GOALCUP_ASSIGN_OR_RETURN(OpenedFd o, open_checked(AT_FDCWD, path, follow_links ? 0 : O_NOFOLLOW));
  return regular_file_source(std::move(o), path);
}

Result<OpenedTrace> open_trace(const std::string& path, const Limits& limits, bool follow_link) {
  std::string description, folder_member;
  GOALCUP_ASSIGN_OR_RETURN(auto raw, raw_source(path, limits, &description, &folder_member, follow_link));
  auto opened = open_layers(std::move(raw), std::move(description), limits);
  if (opened && !folder_member.empty()) opened->member = std::move(folder_member);
  return opened;
}

Result<OpenedTrace> open_layers(std::unique_ptr<ByteSource> raw, std::string description, const Limits& limits) {
  OpenedTrace out;
  out.description = std::move(description);
  // Every layer of this upload draws on one budget.
  auto budget = std::make_shared<UploadBudget>(limits);
  raw = budgeted_source(std::move(raw), budget);
  bool outer_zstd = false;
  GOALCUP_ASSIGN_OR_RETURN(std::unique_ptr<ByteSource> src, sniff_compression(std::move(raw), limits, &outer_zstd, budget));

  GOALCUP_ASSIGN_OR_RETURN(std::string prefix, read_prefix(*src, 512));
  const bool tar = looks_like_tar(prefix);
  src = prefixed_source(std::move(prefix), std::move(src));
  if (!tar) {
    out.source = std::move(src);
    if (outer_zstd) out.description += out.description.empty() ? "zstd" : ", zstd";
    return out;
  }
  std::string member;
  GOALCUP_ASSIGN_OR_RETURN(auto m, tar_member_source(std::move(src), limits, budget, &member));
  out.description = member + (outer_zstd ? " in tar.zst" : " in tar");
  out.member = member;
  out.member_of_archive = true;
  bool zstd = false;
  GOALCUP_ASSIGN_OR_RETURN(out.source, sniff_compression(std::move(m), limits, &zstd, budget));
  if (zstd) out.description += ", zstd";
  return out;
}

}  // namespace goalcup
