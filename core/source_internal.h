// Pieces shared by the source implementations; not part of the public API.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "core/source.h"

namespace goalcup {

// The names a submission's trace goes by, in a directory or a .tar.
inline constexpr std::string_view kTraceFileNames[] = {"trace.jsonl", "trace.jsonl.zst"};
inline bool is_trace_file_name(std::string_view name) {
  return name == kTraceFileNames[0] || name == kTraceFileNames[1];
}

std::unique_ptr<ByteSource> fd_source(int fd, bool owned, int64_t expected_size);

// Opens the trace member of a .tar read from `inner`.
Result<std::unique_ptr<ByteSource>> tar_member_source(std::unique_ptr<ByteSource> inner,
                                                      const Limits& limits, std::string* member);

}  // namespace goalcup
