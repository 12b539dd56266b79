// Pieces shared by the source implementations; not part of the public API.
#pragma once

#include <memory>
#include <string>

#include "core/source.h"

namespace goalcup {

std::unique_ptr<ByteSource> fd_source(int fd, bool owned, int64_t expected_size);

// Opens the trace member of a .tar read from `inner`.
Result<std::unique_ptr<ByteSource>> tar_member_source(std::unique_ptr<ByteSource> inner,
                                                      const Limits& limits, std::string* member);

}  // namespace goalcup
