// Credentials masked for display: every secret the engine finds in a text
// is replaced by the masked preview its finding shows (mask_secret: a short
// prefix and the length), wherever it sits: plainly, inside JSON strings,
// \u escapes, %XX or base64 (the redactor's machinery, with the preview in
// place of the [REDACTED:rule] marker). The inspect views call it on every
// text they print unless --show-secrets is given.
#pragma once

#include <absl/container/flat_hash_set.h>

#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "cheatcheck/secrets/engine.h"
#include "cheatcheck/secrets/redact.h"
#include "cheatcheck/secrets/scan_pool.h"

namespace goalcup::cheat {

class CredentialMasker {
 public:
  // Texts are scanned and rewritten under the run's `limits`.
  explicit CredentialMasker(const Limits& limits) : engine_(limits), limits_(limits) {}
  // `text` with each credential masked, or nullopt when it shows none.
  std::optional<std::string> mask(std::string_view text);
  // `text` masked, or as it was.
  std::string masked(std::string_view text) { return mask(text).value_or(std::string(text)); }
  // A record's line with each credential masked that the trace scan finds
  // in it (cheatcheck's GC02/GC03: also a credential header's value that no
  // rule knows, a wire body under base64 or a content coding), or nullopt.
  std::optional<std::string> mask_record(std::string_view line);
  // A text a view decoded from the record last given to mask_record (a
  // wire body under a content coding, which masking the line cannot reach:
  // the line holds it compressed) with each credential masked: those the
  // trace scan found in that record, and those the engine finds in `text`.
  std::optional<std::string> mask_decoded(std::string_view text);
  // Distinct credentials masked so far (the HTML page reports it).
  uint64_t count() const { return seen_.size(); }

 private:
  // The secrets of `hits` masked in `text`.
  std::optional<std::string> mask_hits(std::string_view text, const std::vector<const SecretHit*>& hits);

  SecretEngine engine_;
  Limits limits_;
  std::unique_ptr<LineScanner> records_;  // made on first use
  std::vector<SecretHit> hits_;
  std::string padded_;
  absl::flat_hash_set<std::string> seen_;
  std::vector<KnownSecret> record_secrets_;  // what mask_record found in its last line
};

}  // namespace goalcup::cheat
