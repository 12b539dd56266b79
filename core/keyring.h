// Ed25519 public keys the verifier trusts. Pinned keys are compiled in from
// core/data/server-keys.json, each with its validity window; any other key
// must be supplied by the person running a tool (--dev-key) and is reported
// as such.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/timefmt.h"

namespace goalcup {

// Where a key came from; for a report, where the keys its statements
// verified under came from (none: no statement verified).
enum class KeySource : uint8_t { none, pinned, supplied };
std::string_view key_source_name(KeySource s);  // "none", "pinned", "supplied"

using PublicKeyBytes = std::array<uint8_t, 32>;

struct PublicKey {
  std::string key_id;  // "ed25519:" + first 16 hex of SHA-256(key)
  PublicKeyBytes bytes{};
  KeySource source = KeySource::supplied;
  std::optional<Timestamp> not_before;  // pinned keys only
  std::optional<Timestamp> not_after;
  bool valid_at(Timestamp t) const {
    return (!not_before || *not_before <= t) && (!not_after || t <= *not_after);
  }
};

std::string key_id_for(const PublicKeyBytes& key);

// Decodes standard padded base64 strictly (no whitespace, canonical padding).
std::optional<std::string> base64_decode(std::string_view text);
std::string base64_encode(std::string_view bytes);

class Keyring {
 public:
  // The production keys pinned at build time.
  static const Keyring& production();

  void add(PublicKey key) { keys_.push_back(std::move(key)); }
  const std::vector<PublicKey>& keys() const { return keys_; }

  // A --dev-key argument: base64 of 32 bytes, or a file holding either that
  // or a JSON object with "public_key" (the dev-key.json shape). Keys that
  // are small-order or non-canonical points are refused.
  static Result<PublicKey> load_supplied(const std::string& arg);
  static Result<PublicKey> supplied_from_base64(std::string_view text);

 private:
  std::vector<PublicKey> keys_;
};

}  // namespace goalcup
