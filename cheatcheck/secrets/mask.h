// Credentials masked for display: every secret the engine finds in a text
// is replaced by the masked preview its finding shows (mask_secret: a short
// prefix and the length), wherever it sits: plainly, inside JSON strings,
// \u escapes, %XX or base64 (the redactor's machinery, with the preview in
// place of the [REDACTED:rule] marker). The inspect views call it on every
// text they print unless --show-secrets is given.
#pragma once

#include <absl/container/flat_hash_set.h>

#include <optional>
#include <string>
#include <string_view>

#include "cheatcheck/secrets/engine.h"

namespace goalcup::cheat {

class CredentialMasker {
 public:
  // Texts are scanned and rewritten under the run's `limits`.
  explicit CredentialMasker(const Limits& limits) : engine_(limits), limits_(limits) {}
  // `text` with each credential masked, or nullopt when it shows none.
  std::optional<std::string> mask(std::string_view text);
  // `text` masked, or as it was.
  std::string masked(std::string_view text) { return mask(text).value_or(std::string(text)); }
  // Distinct credentials masked so far (the HTML page reports it).
  uint64_t count() const { return seen_.size(); }

 private:
  SecretEngine engine_;
  Limits limits_;
  std::vector<SecretHit> hits_;
  std::string padded_;
  absl::flat_hash_set<std::string> seen_;
};

}  // namespace goalcup::cheat
