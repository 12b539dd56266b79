// open_trace(): from a command-line argument to a stream of trace bytes.
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <optional>

#include "core/source.h"
#include "core/source_internal.h"

namespace goalcup {
namespace {

Error open_error(const std::string& path, int err) {
  Code code = err == ENOENT ? Code::not_found : Code::io_error;
  return Error{code, -1, path + ": " + std::strerror(err)};
}

// Opens without following a final symlink and without blocking on a FIFO;
// the caller decides what file types it accepts.
struct OpenedFd {
  int fd = -1;
  struct stat st {};
};

Result<OpenedFd> open_checked(int dirfd, const std::string& name, int extra_flags) {
  OpenedFd o;
  o.fd = ::openat(dirfd, name.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | extra_flags);
  if (o.fd < 0) {
    if (errno == ELOOP && (extra_flags & O_NOFOLLOW)) {
      return Error{Code::unsafe_path, -1, name + " is a symbolic link; refusing to follow it"};
    }
    return open_error(name, errno);
  }
  if (::fstat(o.fd, &o.st) != 0) {
    int err = errno;
    ::close(o.fd);
    return open_error(name, err);
  }
  return o;
}

Result<std::unique_ptr<ByteSource>> regular_file_source(OpenedFd o, const std::string& name) {
  if (!S_ISREG(o.st.st_mode)) {
    ::close(o.fd);
    return Error{Code::not_regular_file, -1, name + " is not a regular file (a FIFO, device or socket?)"};
  }
  // Reading may block from here on, as for any regular file.
  ::fcntl(o.fd, F_SETFL, ::fcntl(o.fd, F_GETFL) & ~O_NONBLOCK);
  return fd_source(o.fd, true, static_cast<int64_t>(o.st.st_size));
}

// Looks for the trace below a submission directory that has none at its
// top, the way a .tar is searched: at any depth, never through a link, and
// only one may exist. An extracted `tar cf entry.tar entry/` gets the
// verdict the archive gets.
class TreeSearch {
 public:
  explicit TreeSearch(const Limits& limits) : budget_(limits.max_archive_members) {}
  ~TreeSearch() {
    if (found_dir_ >= 0) ::close(found_dir_);
  }

  std::optional<Error> search(int dirfd, const std::string& rel, int depth) {
    int fd = ::dup(dirfd);
    if (fd < 0) return open_error(rel, errno);
    DIR* d = ::fdopendir(fd);
    if (!d) {
      ::close(fd);
      return open_error(rel, errno);
    }
    std::optional<Error> failure;
    for (dirent* e = ::readdir(d); e && !failure; e = ::readdir(d)) {
      const std::string name = e->d_name;
      if (name == "." || name == "..") continue;
      if (budget_-- == 0) {
        failure = Error{Code::limit_archive_members, -1,
                        "the submission directory has too many entries to search; raise --max-archive-members"};
      } else if (is_trace_file_name(name)) {
        failure = note_found(::dirfd(d), name, rel + name);
      } else if (depth < kMaxDepth && is_directory(::dirfd(d), name)) {
        int sub = ::openat(::dirfd(d), name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (sub >= 0) {
          failure = search(sub, rel + name + "/", depth + 1);
          ::close(sub);
        }
      }
    }
    ::closedir(d);
    return failure;
  }

  // The one trace found: its path below the submission, the directory that
  // holds it (owned) and its name there.
  const std::string& found() const { return found_; }
  int found_dir() const { return found_dir_; }
  const std::string& found_name() const { return found_name_; }

 private:
  static constexpr int kMaxDepth = 8;

  static bool is_directory(int dirfd, const std::string& name) {
    struct stat st {};
    return ::fstatat(dirfd, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(st.st_mode);
  }

  std::optional<Error> note_found(int dirfd, const std::string& name, const std::string& rel) {
    if (!found_.empty()) {
      return Error{Code::ambiguous_submission, -1, "the submission holds both " + found_ + " and " + rel};
    }
    found_ = rel;
    found_name_ = name;
    found_dir_ = ::dup(dirfd);
    if (found_dir_ < 0) return open_error(rel, errno);
    return std::nullopt;
  }

  uint64_t budget_;
  std::string found_, found_name_;
  int found_dir_ = -1;
};

// A submission directory holds trace.jsonl or trace.jsonl.zst, at its top or
// else further down (TreeSearch). Symlinks are refused: an upload must not
// make the judge read files outside it.
Result<std::unique_ptr<ByteSource>> submission_source(int dirfd, const std::string& path, const Limits& limits,
                                                      std::string* member) {
  std::unique_ptr<ByteSource> found;
  for (std::string_view name_view : kTraceFileNames) {
    const std::string name(name_view);
    auto o = open_checked(dirfd, name, O_NOFOLLOW);
    if (!o && o.error().code == Code::not_found) continue;
    if (!o) return Error{o.error().code, -1, path + "/" + o.error().message};
    if (found) {
      ::close(o->fd);
      return Error{Code::ambiguous_submission, -1, path + " holds both trace.jsonl and trace.jsonl.zst"};
    }
    std::string where = path + "/";
    where += name;
    auto src = regular_file_source(*o, where);
    if (!src) return src.take_error();
    found = std::move(*src);
    *member = name;
  }
  if (found) return found;
  TreeSearch tree(limits);
  if (auto e = tree.search(dirfd, "", 0)) return Error{e->code, -1, path + ": " + e->message};
  if (tree.found().empty()) {
    return Error{Code::no_trace_in_submission, -1, path + " holds no trace.jsonl or trace.jsonl.zst"};
  }
  auto o = open_checked(tree.found_dir(), tree.found_name(), O_NOFOLLOW);
  if (!o) return Error{o.error().code, -1, path + "/" + tree.found() + ": " + o.error().message};
  *member = tree.found();
  return regular_file_source(*o, path + "/" + tree.found());
}

Result<std::unique_ptr<ByteSource>> raw_source(const std::string& path, const Limits& limits,
                                                std::string* description, std::string* folder_member) {
  if (path == "-") {
    *description = "stdin";
    return fd_source(STDIN_FILENO, false, -1);
  }
  auto o = open_checked(AT_FDCWD, path, 0);
  if (!o) return o.take_error();
  if (S_ISDIR(o->st.st_mode)) {
    std::string member;
    auto src = submission_source(o->fd, path, limits, &member);
    ::close(o->fd);
    if (src) *description = member + " in directory";
    if (src) *folder_member = member;
    return src;
  }
  return regular_file_source(*o, path);
}

}  // namespace

Result<std::unique_ptr<ByteSource>> open_regular_file(const std::string& path, bool follow_links) {
  auto o = open_checked(AT_FDCWD, path, follow_links ? 0 : O_NOFOLLOW);
  if (!o) return o.take_error();
  return regular_file_source(*o, path);
}

Result<OpenedTrace> open_trace(const std::string& path, const Limits& limits) {
  std::string description, folder_member;
  auto raw = raw_source(path, limits, &description, &folder_member);
  if (!raw) return raw.take_error();
  auto opened = open_layers(std::move(*raw), std::move(description), limits);
  if (opened && !folder_member.empty()) opened->member = std::move(folder_member);
  return opened;
}

Result<OpenedTrace> open_layers(std::unique_ptr<ByteSource> raw, std::string description, const Limits& limits) {
  OpenedTrace out;
  out.description = std::move(description);
  bool outer_zstd = false;
  auto outer = sniff_compression(std::move(raw), limits, &outer_zstd);
  if (!outer) return outer.take_error();
  std::unique_ptr<ByteSource> src = std::move(*outer);

  auto prefix = read_prefix(*src, 512);
  if (!prefix) return prefix.take_error();
  const bool tar = looks_like_tar(*prefix);
  src = prefixed_source(std::move(*prefix), std::move(src));
  if (!tar) {
    out.source = std::move(src);
    if (outer_zstd) out.description += out.description.empty() ? "zstd" : ", zstd";
    return out;
  }
  std::string member;
  auto m = tar_member_source(std::move(src), limits, &member);
  if (!m) return m.take_error();
  out.description = member + (outer_zstd ? " in tar.zst" : " in tar");
  out.member = member;
  out.member_of_archive = true;
  bool zstd = false;
  auto sniffed = sniff_compression(std::move(*m), limits, &zstd);
  if (!sniffed) return sniffed.take_error();
  out.source = std::move(*sniffed);
  if (zstd) out.description += ", zstd";
  return out;
}

}  // namespace goalcup
