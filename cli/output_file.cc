#include "cli/output_file.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <utility>

#include "core/owned.h"

namespace goalcup {
namespace {

constexpr size_t kBufferBytes = 1 << 20;
constexpr size_t kTempBaseChars = 100;  // a temporary name stays under NAME_MAX

Error refused(Code code, const std::string& path, const std::string& why) {
  return Error{code, -1, "will not write " + path + ": " + why};
}

Error io_failure(const std::string& what, int err) { return Error{Code::io_error, -1, what + ": " + std::strerror(err)}; }

std::optional<std::string> real_path(const std::string& path) {
  char* r = ::realpath(path.c_str(), nullptr);
  if (!r) return std::nullopt;
  std::string out(r);
  std::free(r);  // realpath allocates with malloc
  return out;
}

std::pair<std::string, std::string> split_dir(const std::string& path) {
  const size_t slash = path.rfind('/');
  if (slash == std::string::npos) return {".", path};
  return {slash == 0 ? "/" : path.substr(0, slash), path.substr(slash + 1)};
}

std::string join(const std::string& dir, const std::string& name) { return dir == "/" ? "/" + name : dir + "/" + name; }

// Where `path` leads: its resolved form, whether it exists, its identity.
struct Target {
  std::string path;
  bool exists = false;
  struct stat st {};
};

Result<Target> resolve_output(const std::string& path) {
  Target t;
  struct stat lst {};
  if (::lstat(path.c_str(), &lst) != 0) {
    if (errno != ENOENT) return io_failure(path, errno);
    // A new name: its folder must exist; the name must be a file's.
    auto [dir, name] = split_dir(path);
    if (name.empty() || name == "." || name == "..") return refused(Code::not_regular_file, path, "it names a folder");
    auto real_dir = real_path(dir);
    struct stat dst {};
    if (!real_dir || ::stat(real_dir->c_str(), &dst) != 0 || !S_ISDIR(dst.st_mode)) {
      return refused(Code::not_found, path, "its folder does not exist");
    }
    t.path = join(*real_dir, name);
    return t;
  }
  auto real = real_path(path);
  if (!real) return refused(Code::unsafe_path, path, "it is a symbolic link that leads nowhere");
  // stat, not open: a FIFO or a device is recognised without blocking.
  if (::stat(real->c_str(), &t.st) != 0) return io_failure(path, errno);
  if (!S_ISREG(t.st.st_mode)) {
    return refused(Code::not_regular_file, path,
                   S_ISDIR(t.st.st_mode) ? "it is a folder" : "it is not a regular file (a FIFO, device or socket)");
  }
  // Replacing is a rename, which a read-only file would not stop: refuse
  // what a plain write would.
  if (::access(real->c_str(), W_OK) != 0) return refused(Code::io_error, path, std::string("not writable: ") + std::strerror(errno));
  t.path = *real;
  t.exists = true;
  return t;
}

// The output must be none of the inputs, however it is spelled, and not
// inside an input folder (a submission being read).
Status check_not_an_input(const std::string& path, const Target& out, const std::vector<std::string>& inputs) {
  for (const auto& in : inputs) {
    if (in.empty() || in == "-") continue;
    struct stat st {};
    if (::stat(in.c_str(), &st) != 0) continue;  // the reader reports it
    const auto real_in = real_path(in);
    const bool same_inode = out.exists && st.st_dev == out.st.st_dev && st.st_ino == out.st.st_ino;
    if (same_inode || (real_in && *real_in == out.path)) {
      return refused(Code::usage, path, "it is the input " + in + " (write the copy elsewhere)");
    }
    if (S_ISDIR(st.st_mode) && real_in && out.path.starts_with(join(*real_in, ""))) {
      return refused(Code::usage, path, "it is inside the input folder " + in);
    }
  }
  return {};
}

std::string random_suffix() {
  static thread_local std::mt19937_64 rng{std::random_device{}()};
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(rng()));
  return buf;
}

std::string temp_name(const std::string& dir, const std::string& base) {
  return join(dir, "." + base.substr(0, kTempBaseChars) + "." + random_suffix() + ".tmp");
}

// An unnamed file in `dir` (nothing is left if the process dies), when the
// file system and /proc allow linking it in later; -1 otherwise.
int open_unnamed(const std::string& dir) {
  if (::access("/proc/self/fd", X_OK) != 0) return -1;
  return ::open(dir.c_str(), O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666);
}

// A new named file in `dir`; sets *name.
int open_named(const std::string& dir, const std::string& base, std::string* name) {
  for (int attempt = 0; attempt < 100; ++attempt) {
    *name = temp_name(dir, base);
    const int fd = ::open(name->c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd >= 0 || errno != EEXIST) return fd;
  }
  return -1;
}

bool wait_writable(int fd) {
  pollfd p{fd, POLLOUT, 0};
  return ::poll(&p, 1, -1) > 0;
}

}  // namespace

Result<OutputFile> OutputFile::create(const std::string& path, const std::vector<std::string>& inputs) {
  if (path == "-") return OutputFile(path, "", "", STDOUT_FILENO, "", -1);
  if (path.empty()) return Error{Code::usage, -1, "the output path is empty"};
  GOALCUP_ASSIGN_OR_RETURN(const Target target, resolve_output(path));
  GOALCUP_RETURN_IF_ERROR(check_not_an_input(path, target, inputs));
  auto [dir, base] = split_dir(target.path);
  std::string temp;
  int fd = open_unnamed(dir);
  if (fd < 0) fd = open_named(dir, base, &temp);
  if (fd < 0) return io_failure("cannot create a file in the folder of " + path, errno);
  const int mode = target.exists ? static_cast<int>(target.st.st_mode & 07777) : -1;
  return OutputFile(path, target.path, dir, fd, temp, mode);
}

OutputFile::OutputFile(std::string path, std::string target, std::string dir, int fd, std::string temp, int mode)
    : path_(std::move(path)), target_(std::move(target)), dir_(std::move(dir)), fd_(fd), temp_(std::move(temp)), mode_(mode) {}

OutputFile::OutputFile(OutputFile&& o) noexcept
    : path_(std::move(o.path_)),
      target_(std::move(o.target_)),
      dir_(std::move(o.dir_)),
      fd_(std::exchange(o.fd_, -1)),
      temp_(std::exchange(o.temp_, "")),
      mode_(o.mode_),
      buffer_(std::move(o.buffer_)),
      error_(std::move(o.error_)),
      done_(std::exchange(o.done_, true)) {}

OutputFile::~OutputFile() {
  if (!done_) discard();
}

void OutputFile::discard() {
  if (!target_.empty() && fd_ >= 0) ::close(fd_);
  fd_ = -1;
  if (!temp_.empty()) ::unlink(temp_.c_str());
  temp_.clear();
  done_ = true;
}

Status OutputFile::status() const {
  if (error_) return *error_;
  return {};
}

Status OutputFile::fail(const std::string& what, int err) {
  if (!error_) error_ = io_failure(what + " " + path_, err);
  return *error_;
}

// Bytes of a buffer's size or more go out as they are, after what is
// buffered: appended, a long line was copied and the buffer kept its size
// to the end (redact held its longest line once more for nothing).
Status OutputFile::write(std::string_view bytes) {
  if (error_) return *error_;
  if (bytes.size() >= kBufferBytes) {
    GOALCUP_RETURN_IF_ERROR(flush());
    return write_all(bytes);
  }
  buffer_.append(bytes);
  return buffer_.size() >= kBufferBytes ? flush() : Status{};
}

Status OutputFile::flush() {
  if (error_) return *error_;
  GOALCUP_RETURN_IF_ERROR(write_all(buffer_));
  buffer_.clear();
  return {};
}

Status OutputFile::write_all(std::string_view bytes) {
  size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd_, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno == EAGAIN && wait_writable(fd_)) continue;  // a non-blocking stdout
    if (n <= 0) return fail("cannot write", n < 0 ? errno : EIO);
    done += static_cast<size_t>(n);
  }
  return {};
}

Status OutputFile::commit() {
  if (done_) return status();
  GOALCUP_RETURN_IF_ERROR(flush());
  if (target_.empty()) {  // stdout
    done_ = true;
    return {};
  }
  if (mode_ >= 0 && ::fchmod(fd_, static_cast<mode_t>(mode_)) != 0) return fail("cannot set the mode of", errno);
  if (::fsync(fd_) != 0) return fail("cannot sync", errno);
  if (temp_.empty()) {  // unnamed: give it a name beside the output first
    const std::string proc = "/proc/self/fd/" + std::to_string(fd_);
    for (int attempt = 0; attempt < 100 && temp_.empty(); ++attempt) {
      const std::string name = temp_name(dir_, split_dir(target_).second);
      if (::linkat(AT_FDCWD, proc.c_str(), AT_FDCWD, name.c_str(), AT_SYMLINK_FOLLOW) == 0) temp_ = name;
      else if (errno != EEXIST) return fail("cannot link the new file for", errno);
    }
    if (temp_.empty()) return fail("cannot link the new file for", EEXIST);
  }
  const int fd = std::exchange(fd_, -1);
  if (::close(fd) != 0) return fail("cannot close", errno);
  if (::rename(temp_.c_str(), target_.c_str()) != 0) return fail("cannot rename the new file over", errno);
  temp_.clear();
  done_ = true;
  // The rename is durable once the folder is synced.
  const UniqueFd dir(::open(dir_.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (!dir.valid() || ::fsync(dir.get()) != 0) return fail("wrote but could not sync the folder of", errno);
  return {};
}

}  // namespace goalcup
