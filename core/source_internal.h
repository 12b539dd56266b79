// Pieces shared by the source implementations; not part of the public API.
#pragma once

#include <memory>
#include <string>

#include "core/source.h"

namespace goalcup {

std::unique_ptr<ByteSource> fd_source(int fd, bool owned, int64_t expected_size);

// Replays `prefix` before the rest of `inner` (used after sniffing magic).
std::unique_ptr<ByteSource> prefixed_source(std::string prefix, std::unique_ptr<ByteSource> inner);

// Reads up to n bytes, fewer only at the end of the stream.
Result<std::string> read_prefix(ByteSource& src, size_t n);

// Opens the trace member of a .tar read from `inner`.
Result<std::unique_ptr<ByteSource>> tar_member_source(std::unique_ptr<ByteSource> inner,
                                                      const Limits& limits, std::string* member);

bool looks_like_tar(const std::string& prefix);

}  // namespace goalcup
