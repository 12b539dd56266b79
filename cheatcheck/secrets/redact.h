// Redaction for contributors: every secret the engine finds is replaced by
// [REDACTED:<rule>] where it sits, in its decoded form, and re-encoded
// (inside JSON strings at any level, across SSE deltas, inside \u escapes,
// percent-encoding and base64). Touched wire bodies get a new sha256 and a
// redactions list naming every marker; the chain is recomputed and the
// statements re-signed with a development key: the server's signatures
// cannot survive an edit, and the output says so.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/limits.h"
#include "core/error.h"
#include "core/sse.h"

namespace goalcup::cheat {

struct KnownSecret {
  std::string text;
  std::string rule;
  std::string replacement;  // "" for [REDACTED:<rule>]
};

class Redactor {
 public:
  // JSON and SSE bodies are parsed under `limits` (the run's).
  Redactor(std::vector<KnownSecret> secrets, const Limits& limits);
  // `text` with every known secret replaced where it shows, or nullopt when
  // nothing changed.
  std::optional<std::string> redact(std::string_view text, int depth = 0) const;
  size_t secret_count() const { return secrets_.size(); }

  // Where secret `secret` (an index in secrets_) starts in a text.
  struct Place {
    size_t secret, at;
  };

 private:
  // A span of a text that spells a secret, and what replaces it.
  struct Span {
    size_t from, to;
    std::string with;
  };
  // Where each secret starts in `s` (by index in secrets_, then ascending,
  // overlapping ones too), found in one pass for all of them.
  std::vector<Place> occurrences(std::string_view s) const;
  // Each returns true, and the new text in `result`, when it changed `s`.
  bool plain(std::string_view s, std::string* result) const;
  bool plain_slowly(std::string& s) const;
  void mapped_spans(std::string_view s, bool percent, std::vector<Span>* spans) const;
  static void last_first(std::vector<Span>* spans);
  bool mapped(std::string_view s, bool percent, std::string* result) const;
  std::vector<Span> secret_spans(std::string_view s) const;
  std::optional<std::string> json(std::string_view text, int depth) const;
  std::optional<std::string> sse(std::string_view text, int depth) const;
  static std::vector<std::string> marked_pieces(const SseStrand& strand, const std::vector<Span>& spans);
  bool strand_rest(const SseStrand& strand, std::vector<std::string>* pieces, int depth) const;
  bool base64_runs(std::string_view s, int depth, std::string* result) const;

  std::vector<KnownSecret> secrets_;  // longest first
  Limits limits_;
  struct Literals;                           // Hyperscan's literal matcher over secrets_
  std::shared_ptr<const Literals> literals_;  // null when it could not compile: each secret is sought alone
};

struct RedactResult {
  uint64_t records = 0;
  uint64_t records_changed = 0;
  uint64_t secrets = 0;
  std::string key_id;
};

// Writes a redacted, re-chained copy of `trace` to `out`, statements signed
// with the Ed25519 seed in `dev_key_file` (the dev-key.json shape). The copy
// is scanned again, as written, with the full engine: if anything is still
// found the result is an error naming each secret (rule, masked preview,
// seq, place) and nothing is written. `skip_rule` leaves that rule's secrets
// in place: only for tests of that last check.
Result<RedactResult> redact_trace(const std::string& trace, const std::string& out, const std::string& dev_key_file,
                                  const Limits& limits, std::string_view skip_rule = {});

}  // namespace goalcup::cheat
