// `show SEQ` and `records`: one record in full and readable, or one line per
// record. `show` stops reading once it has the record.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "cli/json_writer.h"
#include "cli/term.h"
#include "core/walk.h"

namespace goalcup::inspect {

// The record at `seq`, rendered; nullopt when the trace has no such record.
std::optional<std::string> show_record(const std::string& path, const WalkOptions& options, uint64_t seq, bool json,
                                       const Style& style);

struct RecordFilter {
  std::vector<std::string> kinds;  // empty: all
  uint64_t from = 0, to = UINT64_MAX;
  std::string host, grep;
};

// Streams one line (or one JSON object) per matching record to stdout.
VerifyReport list_records(const std::string& path, const WalkOptions& options, const RecordFilter& filter, bool json,
                          const Style& style);

}  // namespace goalcup::inspect
