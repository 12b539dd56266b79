#include "cheatcheck/secrets/mask.h"

#include "cheatcheck/secrets/prefilter.h"
#include "cheatcheck/secrets/redact.h"
#include "cheatcheck/secrets/rules.h"
#include "cheatcheck/secrets/trace_scan.h"
#include "core/lines.h"

namespace goalcup::cheat {

std::optional<std::string> CredentialMasker::mask(std::string_view text) {
  // Most texts hold nothing the decoders could reveal: the prefilter says so
  // from the raw bytes (it reads kLinePadding bytes past the end).
  padded_.assign(text);
  padded_.append(kLinePadding, '\0');
  if (!Prefilter::instance().may_hold_secret(std::string_view(padded_).substr(0, text.size()))) return std::nullopt;
  hits_.clear();
  engine_.scan(text, "", &hits_);
  std::vector<const SecretHit*> found;
  for (const SecretHit& h : hits_) found.push_back(&h);
  return mask_hits(text, found);
}

std::optional<std::string> CredentialMasker::mask_record(std::string_view line) {
  if (!records_) records_ = make_record_line_scanner(true, limits_);
  padded_.assign(line);
  padded_.append(kLinePadding, '\0');  // the scanner's parser reads past the end
  ScanOutput out;
  records_->scan(std::string_view(padded_).substr(0, line.size()), 0, &out);
  std::vector<const SecretHit*> found;
  record_secrets_.clear();
  for (const LocatedHit& h : out.hits) {
    found.push_back(&h.hit);
    record_secrets_.push_back({h.hit.secret, std::string(secret_rules()[h.hit.rule].id), mask_secret(h.hit.secret)});
  }
  return mask_hits(line, found);
}

std::optional<std::string> CredentialMasker::mask_decoded(std::string_view text) {
  std::optional<std::string> masked = record_secrets_.empty() ? std::nullopt : Redactor(record_secrets_, limits_).redact(text);
  if (auto more = mask(masked ? std::string_view(*masked) : text)) masked = std::move(more);
  return masked;
}

std::optional<std::string> CredentialMasker::mask_hits(std::string_view text, const std::vector<const SecretHit*>& hits) {
  if (hits.empty()) return std::nullopt;
  std::vector<KnownSecret> secrets;
  for (const SecretHit* h : hits) {
    seen_.insert(h->secret);
    secrets.push_back({h->secret, std::string(secret_rules()[h->rule].id), mask_secret(h->secret)});
  }
  return Redactor(std::move(secrets), limits_).redact(text);
}

}  // namespace goalcup::cheat
