// Owners for what C libraries and the kernel hand out: a file descriptor,
// and any handle freed by one function (a ZSTD_DCtx, an archive*, a
// Vectorscan database or scratch). Each is released once, on every path, by
// its owner's destructor: no hand-written close paths.
#pragma once

#include <unistd.h>

#include <memory>
#include <utility>

namespace goalcup {

// Calls `Free` on the handle; for std::unique_ptr<T, FreeWith<Free>>.
template <auto Free>
struct FreeWith {
  template <typename T>
  void operator()(T* p) const {
    if (p) (void)Free(p);
  }
};

template <typename T, auto Free>
using Owned = std::unique_ptr<T, FreeWith<Free>>;

// Owns a file descriptor (-1: none).
class UniqueFd {
 public:
  UniqueFd() = default;
  explicit UniqueFd(int fd) : fd_(fd) {}
  ~UniqueFd() { reset(); }
  UniqueFd(UniqueFd&& o) noexcept : fd_(o.release()) {}
  UniqueFd& operator=(UniqueFd&& o) noexcept {
    if (this != &o) reset(o.release());
    return *this;
  }
  UniqueFd(const UniqueFd&) = delete;
  UniqueFd& operator=(const UniqueFd&) = delete;

  int get() const { return fd_; }
  bool valid() const { return fd_ >= 0; }
  // Hands the descriptor over; the owner no longer closes it.
  int release() { return std::exchange(fd_, -1); }
  void reset(int fd = -1) {
    if (fd_ >= 0) (void)::close(fd_);
    fd_ = fd;
  }

 private:
  int fd_ = -1;
};

}  // namespace goalcup
