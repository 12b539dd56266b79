// Pieces shared by the source implementations; not part of the public API.
#pragma once

#include <sys/stat.h>

#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "core/source.h"

namespace goalcup {

// The names a submission's trace goes by, in a directory or a .tar.
inline constexpr std::string_view kTraceFileNames[] = {"trace.jsonl", "trace.jsonl.zst"};
inline bool is_trace_file_name(std::string_view name) {
  return name == kTraceFileNames[0] || name == kTraceFileNames[1];
}

// Why an entry named like a trace may not be read as the trace, or nothing:
// it must be a regular file and no link of either kind, in a folder as in a
// .tar (`type` is the S_IFMT part of the mode).
inline std::optional<std::string> unsafe_trace_entry(mode_t type, bool hard_link) {
  if (type == S_IFLNK) return "is a symbolic link; links are never followed";
  if (type != S_IFREG) return "is not a regular file";
  if (hard_link) return "is a hard link; links are never followed";
  return std::nullopt;
}

std::unique_ptr<ByteSource> fd_source(int fd, bool owned, int64_t expected_size);

// What a zstd reader has read and inflated so far, for the ratio cap.
struct ZstdCounts {
  uint64_t consumed = 0, produced = 0;
};
// The streaming zstd reader, starting from `counts` (source_zstd.cc).
std::unique_ptr<ByteSource> zstd_stream_source(std::unique_ptr<ByteSource> inner, const Limits& limits,
                                               std::shared_ptr<UploadBudget> budget, ZstdCounts counts);
// zstd read frame by frame, inflated on use_threads() threads, falling back
// to the streaming reader for what it cannot read so (source_zstd_frames.cc).
std::unique_ptr<ByteSource> framed_zstd_source(std::unique_ptr<ByteSource> inner, const Limits& limits,
                                               std::shared_ptr<UploadBudget> budget);

// Opens the trace member of a .tar read from `inner`.
Result<std::unique_ptr<ByteSource>> tar_member_source(std::unique_ptr<ByteSource> inner, const Limits& limits,
                                                      std::shared_ptr<UploadBudget> budget, std::string* member);

}  // namespace goalcup
