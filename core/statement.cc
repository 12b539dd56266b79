#include "core/statement.h"

#include <sodium.h>

namespace goalcup {
namespace {

Error bad(Code code, int64_t seq, std::string message) { return Error{code, seq, std::move(message)}; }

}  // namespace

std::string pae(std::string_view payload) {
  std::string m = "GCS1 " + std::to_string(kStatementMediaType.size()) + " ";
  m += kStatementMediaType;
  m += " " + std::to_string(payload.size()) + " ";
  m += payload;
  return m;
}

Result<SignedEnvelope> decode_envelope(simdjson::dom::object body, int64_t seq) {
  std::string_view key_id, payload, sig;
  if (json::string(body, "key_id", &key_id) != json::Get::ok ||
      json::string(body, "payload", &payload) != json::Get::ok ||
      json::string(body, "sig", &sig) != json::Get::ok) {
    return bad(Code::statement_encoding, seq, "signed body needs string key_id, payload and sig");
  }
  if (!key_id.starts_with("ed25519:") || !is_lower_hex(key_id.substr(8), 16)) {
    return bad(Code::statement_encoding, seq, "key_id is not \"ed25519:\" + 16 lowercase hex");
  }
  SignedEnvelope env;
  env.key_id = key_id;
  auto p = base64_decode(payload);
  if (!p) return bad(Code::statement_encoding, seq, "payload is not canonical base64");
  env.payload = std::move(*p);
  auto s = base64_decode(sig);
  if (!s || s->size() != 64) return bad(Code::statement_encoding, seq, "sig is not the base64 of 64 bytes");
  std::copy(s->begin(), s->end(), env.sig.begin());
  return env;
}

bool signature_s_canonical(const std::array<uint8_t, 64>& sig) {
  for (size_t i = 32; i-- > 0;) {
    if (sig[32 + i] != kEd25519Order[i]) return sig[32 + i] < kEd25519Order[i];
  }
  return false;  // S == L
}

bool verify_signature(const PublicKeyBytes& key, std::string_view message, const std::array<uint8_t, 64>& sig) {
  // Once per process: sodium_init() takes a global lock on every call.
  static const bool sodium_ready = sodium_init() >= 0;
  if (!sodium_ready) return false;
  return crypto_sign_verify_detached(sig.data(), reinterpret_cast<const unsigned char*>(message.data()),
                                     message.size(), key.data()) == 0;
}

Signers find_signers(const Keyring& ring, const SignedEnvelope& env) {
  Signers found;
  const std::string message = pae(env.payload);
  // The key_id is only a hint, but a good one: keys it names are tried
  // first, and the rest only when none of those verifies (an Ed25519 check
  // is the costliest step of verification).
  for (bool hinted : {true, false}) {
    for (const auto& key : ring.keys()) {
      if ((key.key_id == env.key_id) != hinted) continue;
      const PublicKey** slot = key.source == KeySource::pinned ? &found.pinned : &found.supplied;
      if (*slot) continue;
      if (verify_signature(key.bytes, message, env.sig)) *slot = &key;
    }
    if (found.pinned || found.supplied) break;
  }
  return found;
}

Result<Statement> parse_statement(std::string_view payload, StrictJsonParser& parser, int64_t seq) {
  auto root = parser.parse_copy(payload, seq);
  if (!root) {
    auto e = root.take_error();
    return bad(Code::statement_payload, seq, "statement payload: " + e.message);
  }
  simdjson::dom::object o;
  if (root->get(o)) return bad(Code::statement_payload, seq, "statement payload is not an object");
  Statement st;
  std::string_view type, entry, run, head, at;
  if (json::string(o, "type", &type) != json::Get::ok || json::string(o, "entry_id", &entry) != json::Get::ok ||
      json::string(o, "run_id", &run) != json::Get::ok || json::string(o, "head", &head) != json::Get::ok ||
      json::string(o, "at", &at) != json::Get::ok) {
    return bad(Code::statement_payload, seq, "statement needs string type, entry_id, run_id, head and at");
  }
  if (json::uint(o, "seq", &st.seq) != json::Get::ok) {
    return bad(Code::statement_payload, seq, "statement seq is not a non-negative integer");
  }
  auto h = parse_digest_ref(head);
  if (!h) return bad(Code::statement_payload, seq, "statement head is not \"sha256:\" + 64 lowercase hex");
  auto t = parse_time(at);
  if (!t) return bad(Code::statement_payload, seq, "statement at is not an RFC 3339 UTC time");
  st.type = type;
  st.entry_id = entry;
  st.run_id = run;
  st.head = *h;
  st.at = *t;
  st.at_text = at;
  std::string_view nonce;
  auto g = json::string(o, "nonce", &nonce);
  if (g == json::Get::wrong_type) return bad(Code::statement_payload, seq, "statement nonce is not a string");
  st.nonce = nonce;
  return st;
}

Result<Statement> read_statement_unverified(simdjson::dom::object body, StrictJsonParser& parser, int64_t seq) {
  auto env = decode_envelope(body, seq);
  if (!env) return env.take_error();
  return parse_statement(env->payload, parser, seq);
}

}  // namespace goalcup
