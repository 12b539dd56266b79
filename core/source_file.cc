// Plain files, stdin and in-memory buffers.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "core/owned.h"
#include "core/source.h"
#include "core/source_internal.h"

namespace goalcup {
namespace {

class FdSource final : public ByteSource {
 public:
  // expected_size < 0: a pipe or stdin, read to the end.
  FdSource(int fd, bool owned, int64_t expected_size)
      : fd_(fd), owned_(owned ? fd : -1), expected_(expected_size) {}

  Result<size_t> read(char* buf, size_t cap) override {
    for (;;) {
      ssize_t n = ::read(fd_, buf, cap);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) return Error{Code::io_error, -1, std::string("read failed: ") + std::strerror(errno)};
      done_ += static_cast<uint64_t>(n);
      if (expected_ >= 0) {
        // A regular file must not change while it is judged: the verdict
        // would describe bytes that are no longer there.
        if (done_ > static_cast<uint64_t>(expected_) ||
            (n == 0 && done_ < static_cast<uint64_t>(expected_))) {
          return Error{Code::file_changed, -1, "the file changed size while it was read"};
        }
      }
      return static_cast<size_t>(n);
    }
  }

 private:
  int fd_;
  UniqueFd owned_;  // closes fd_ when the source owns it
  int64_t expected_;
  uint64_t done_ = 0;
};

class MemorySource final : public ByteSource {
 public:
  explicit MemorySource(std::string bytes) : bytes_(std::move(bytes)) {}
  Result<size_t> read(char* buf, size_t cap) override {
    size_t n = std::min(cap, bytes_.size() - pos_);
    std::memcpy(buf, bytes_.data() + pos_, n);
    pos_ += n;
    return n;
  }

 private:
  std::string bytes_;
  size_t pos_ = 0;
};

}  // namespace

std::unique_ptr<ByteSource> fd_source(int fd, bool owned, int64_t expected_size) {
  return std::make_unique<FdSource>(fd, owned, expected_size);
}

std::unique_ptr<ByteSource> memory_source(std::string bytes) {
  return std::make_unique<MemorySource>(std::move(bytes));
}

}  // namespace goalcup
