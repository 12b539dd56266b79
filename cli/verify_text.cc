#include "cli/verify_text.h"

namespace goalcup {

std::string supplied_key_scope(const VerifyReport& r) {
  if (r.key_source != KeySource::supplied || r.pinned_attested_through_seq == r.attested_through_seq) return "";
  if (r.pinned_attested_through_seq < 0) return " (by supplied keys only)";
  return " (by pinned keys through seq " + std::to_string(r.pinned_attested_through_seq) + ", after that by supplied keys only)";
}

const StatementReport* statement_at(const VerifyReport& r, uint64_t seq) {
  for (const StatementReport& s : r.statements) {
    if (s.seq == seq) return &s;
  }
  return nullptr;
}

}  // namespace goalcup
