// The cores a process may keep busy, shared by everything it runs at once:
// the traces of a batch (--jobs) and the threads inside each trace
// (--threads). A batch reserves one core per job thread before it starts;
// a trace then asks for extra cores and gets only those still free, so
// jobs x threads never exceeds the pool (docs/BATCH.md#threads).
#pragma once

#include <mutex>

namespace goalcup {

// The cores this process may run on (its CPU affinity, so that taskset and
// container limits count), at least 1.
unsigned available_cores();

class CorePool {
 public:
  // Cores reserved until released or destroyed.
  class Lease {
   public:
    Lease() = default;
    Lease(Lease&& other) noexcept : pool_(other.pool_), count_(other.count_) { other.count_ = 0; }
    Lease& operator=(Lease&& other) noexcept;
    Lease(const Lease&) = delete;
    Lease& operator=(const Lease&) = delete;
    ~Lease() { release(count_); }
    unsigned count() const { return count_; }
    // Gives back `n` of the cores (a batch's job thread that has no more
    // traces to take).
    void release(unsigned n);

   private:
    friend class CorePool;
    Lease(CorePool* pool, unsigned count) : pool_(pool), count_(count) {}
    CorePool* pool_ = nullptr;
    unsigned count_ = 0;
  };

  explicit CorePool(unsigned size) : size_(size < 1 ? 1 : size) {}
  // The process's pool: available_cores() unless a tool's --threads set it.
  static CorePool& shared();
  void resize(unsigned size);
  unsigned size() const;
  // Up to `want` of the free cores; possibly none.
  Lease reserve(unsigned want);

 private:
  mutable std::mutex mu_;
  unsigned size_;
  unsigned used_ = 0;
};

}  // namespace goalcup
