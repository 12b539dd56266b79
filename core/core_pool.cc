#include "core/core_pool.h"

#include <sched.h>

#include <algorithm>
#include <thread>

namespace goalcup {

unsigned available_cores() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (::sched_getaffinity(0, sizeof set, &set) == 0) {
    const int n = CPU_COUNT(&set);
    if (n > 0) return static_cast<unsigned>(n);
  }
  return std::max(1u, std::thread::hardware_concurrency());
}

CorePool::Lease& CorePool::Lease::operator=(Lease&& other) noexcept {
  if (this != &other) {
    release(count_);
    pool_ = other.pool_;
    count_ = other.count_;
    other.count_ = 0;
  }
  return *this;
}

void CorePool::Lease::release(unsigned n) {
  n = std::min(n, count_);
  if (n == 0 || !pool_) return;
  count_ -= n;
  std::lock_guard lock(pool_->mu_);
  pool_->used_ -= n;
}

CorePool& CorePool::shared() {
  static CorePool pool(available_cores());
  return pool;
}

void CorePool::resize(unsigned size) {
  std::lock_guard lock(mu_);
  size_ = std::max(1u, size);
}

unsigned CorePool::size() const {
  std::lock_guard lock(mu_);
  return size_;
}

CorePool::Lease CorePool::reserve(unsigned want) {
  std::lock_guard lock(mu_);
  const unsigned free = used_ < size_ ? size_ - used_ : 0;
  const unsigned got = std::min(want, free);
  used_ += got;
  return Lease(this, got);
}

}  // namespace goalcup
