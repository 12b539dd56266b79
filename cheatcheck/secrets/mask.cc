#include "cheatcheck/secrets/mask.h"

#include "cheatcheck/secrets/prefilter.h"
#include "cheatcheck/secrets/redact.h"
#include "cheatcheck/secrets/rules.h"
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
  if (hits_.empty()) return std::nullopt;
  std::vector<KnownSecret> secrets;
  for (const SecretHit& h : hits_) {
    seen_.insert(h.secret);
    secrets.push_back({h.secret, std::string(secret_rules()[h.rule].id), mask_secret(h.secret)});
  }
  return Redactor(std::move(secrets), limits_).redact(text);
}

}  // namespace goalcup::cheat
