// `show SEQ` and `records`: one record in full and readable, or one line per
// record, each with the verdict first and its marks (not attested, after
// the break). `show` reads to the end for the verdict, keeping only the
// rendered record.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "cli/format.h"
#include "cli/json_writer.h"
#include "cli/term.h"
#include "core/walk.h"
#include "inspect/verdict_view.h"

namespace goalcup::cheat {
class CredentialMasker;
}

namespace goalcup::inspect {

struct ShownRecord {
  VerifyReport report;
  std::optional<std::string> out;  // banner and record; nullopt: no such record
};
// `format`: text or json. With a `masker`, credentials show as their masked
// previews (the caller also masks what is printed).
ShownRecord show_record(const std::string& path, const WalkOptions& options, uint64_t seq, Format format,
                        const Style& style, cheat::CredentialMasker* masker = nullptr);

struct RecordFilter {
  std::vector<std::string> kinds;  // empty: all; kind names of the format
  uint64_t from = 0, to = UINT64_MAX;
  std::string host, grep;
};

// The first of `kinds` that names no kind of the format, if any.
std::optional<std::string> unknown_kind(const std::vector<std::string>& kinds);

// Streams one line (or one JSON object) per matching record to stdout after
// the banner of `verdict` (the verify pass made before).
VerifyReport list_records(const std::string& path, const WalkOptions& options, const RecordFilter& filter,
                          Format format, const Style& style, const VerdictView& verdict);

}  // namespace goalcup::inspect
