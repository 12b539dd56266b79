// Budgets for one upload as a whole: a file, an archive with all its
// members, or a folder with all its files. The per-stream limits (the zstd
// ratio, the decompressed size) bound one stream; without these, a 3 MB
// .tar of a thousand small zstd bombs, each under its own cap, would cost
// minutes. Shared by the sources of the upload (atomics: the files of a
// folder may be scanned on several threads).
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>

#include "core/error.h"
#include "core/limits.h"

namespace goalcup {

class ByteSource;

class UploadBudget {
 public:
  explicit UploadBudget(const Limits& limits);

  // Bytes read from the upload's own files.
  Status add_read(uint64_t n);
  // Bytes a decompressor produced, at any layer.
  Status add_inflated(uint64_t n);
  // Members of archives and files of folders looked at.
  Status add_members(uint64_t n);

 private:
  Status check_time() const;

  Limits limits_;
  std::chrono::steady_clock::time_point deadline_;
  std::atomic<uint64_t> read_{0}, inflated_{0}, members_{0};
};

// Counts what `inner` yields as bytes read from the upload.
std::unique_ptr<ByteSource> budgeted_source(std::unique_ptr<ByteSource> inner,
                                                  std::shared_ptr<UploadBudget> budget);

}  // namespace goalcup
