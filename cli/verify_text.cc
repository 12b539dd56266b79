#include "cli/verify_text.h"

namespace goalcup {

std::string supplied_key_scope(const VerifyReport& r) {
  if (r.key_source != KeySource::supplied || r.pinned_attested_through_seq == r.attested_through_seq) return "";
  if (r.pinned_attested_through_seq < 0) return " (by supplied keys only)";
  return " (by pinned keys through seq " + std::to_string(r.pinned_attested_through_seq) + ", after that by supplied keys only)";
}

bool vouched_by_supplied_key(const VerifyReport& r) {
  return vouched_by_supplied_key(verdict_name(r.verdict), key_source_name(r.key_source));
}

bool vouched_by_supplied_key(std::string_view verdict, std::string_view key_source) {
  const bool judged_sound = verdict == verdict_name(Verdict::verified) || verdict == verdict_name(Verdict::incomplete);
  return judged_sound && key_source == key_source_name(KeySource::supplied);
}

const StatementReport* statement_at(const VerifyReport& r, uint64_t seq) {
  for (const StatementReport& s : r.statements) {
    if (s.seq == seq) return &s;
  }
  return nullptr;
}

}  // namespace goalcup
