// Signed statements (start_receipt, ack, seal_ack bodies): the envelope
// {key_id, payload, sig}, the pre-authentication encoding that is signed,
// strict Ed25519 verification, and the statement the payload carries.
// The signature is checked over the decoded payload bytes before they are
// parsed, and the parsed payload is then held to the same strict JSON rules.
#pragma once

#include <simdjson.h>

#include <array>
#include <optional>
#include <string>
#include <string_view>

#include "core/error.h"
#include "core/json_strict.h"
#include "core/keyring.h"
#include "core/sha256.h"
#include "core/timefmt.h"

namespace goalcup {

inline constexpr std::string_view kStatementMediaType = "application/vnd.goalcup.statement.v0+json";

// "GCS1" SP len(type) SP type SP len(payload) SP payload
std::string pae(std::string_view payload);

struct SignedEnvelope {
  std::string key_id;
  std::string payload;  // decoded bytes
  std::array<uint8_t, 64> sig{};
};

Result<SignedEnvelope> decode_envelope(simdjson::dom::object body, int64_t seq);

// The order L of the Ed25519 group, little-endian.
inline constexpr std::array<uint8_t, 32> kEd25519Order = {
    0xed, 0xd3, 0xf5, 0x5c, 0x1a, 0x63, 0x12, 0x58, 0xd6, 0x9c, 0xf7, 0xa2, 0xde, 0xf9, 0xde, 0x14,
    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0x10};

// True when the signature's S (its last 32 bytes) is below L, as strict
// verification requires; S + L is the classic malleation.
bool signature_s_canonical(const std::array<uint8_t, 64>& sig);

// Strict RFC 8032 verification (libsodium): S < L, canonical and not
// small-order R and A.
bool verify_signature(const PublicKeyBytes& key, std::string_view message, const std::array<uint8_t, 64>& sig);

// Which trusted keys made this signature (the key_id is only a hint).
struct Signers {
  const PublicKey* pinned = nullptr;
  const PublicKey* supplied = nullptr;
};
Signers find_signers(const Keyring& ring, const SignedEnvelope& env);

struct Statement {
  std::string type;  // start | ack | seal
  std::string entry_id;
  std::string run_id;
  uint64_t seq = 0;
  Digest head{};
  Timestamp at;
  std::string at_text;
  std::string nonce;  // start only
};

Result<Statement> parse_statement(std::string_view payload, StrictJsonParser& parser, int64_t seq);

// The statement a start_receipt, ack or seal_ack record carries, read
// without checking its signature (for views that need its times; the
// verifier does the checking).
Result<Statement> read_statement_unverified(simdjson::dom::object body, StrictJsonParser& parser, int64_t seq);

}  // namespace goalcup
