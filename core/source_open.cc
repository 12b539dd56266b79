// open_trace(): from a command-line argument to a stream of trace bytes.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

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

// A submission directory holds trace.jsonl or trace.jsonl.zst. Symlinks are
// refused: an upload must not make the judge read files outside it.
Result<std::unique_ptr<ByteSource>> submission_source(int dirfd, const std::string& path,
                                                      std::string* member) {
  std::unique_ptr<ByteSource> found;
  for (const char* name : {"trace.jsonl", "trace.jsonl.zst"}) {
    auto o = open_checked(dirfd, name, O_NOFOLLOW);
    if (!o && o.error().code == Code::not_found) continue;
    if (!o) return Error{o.error().code, -1, path + "/" + o.error().message};
    if (found) {
      ::close(o->fd);
      return Error{Code::ambiguous_submission, -1, path + " holds both trace.jsonl and trace.jsonl.zst"};
    }
    auto src = regular_file_source(*o, path + "/" + name);
    if (!src) return src.take_error();
    found = std::move(*src);
    *member = name;
  }
  if (!found) return Error{Code::no_trace_in_submission, -1, path + " holds no trace.jsonl or trace.jsonl.zst"};
  return found;
}

Result<std::unique_ptr<ByteSource>> raw_source(const std::string& path, std::string* description) {
  if (path == "-") {
    *description = "stdin";
    return fd_source(STDIN_FILENO, false, -1);
  }
  auto o = open_checked(AT_FDCWD, path, 0);
  if (!o) return o.take_error();
  if (S_ISDIR(o->st.st_mode)) {
    std::string member;
    auto src = submission_source(o->fd, path, &member);
    ::close(o->fd);
    if (src) *description = member + " in directory";
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
  std::string description;
  auto raw = raw_source(path, &description);
  if (!raw) return raw.take_error();
  return open_layers(std::move(*raw), std::move(description), limits);
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
  bool zstd = false;
  auto sniffed = sniff_compression(std::move(*m), limits, &zstd);
  if (!sniffed) return sniffed.take_error();
  out.source = std::move(*sniffed);
  if (zstd) out.description += ", zstd";
  return out;
}

}  // namespace goalcup
