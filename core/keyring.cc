#include "core/keyring.h"

#include <sodium.h>

#include <fstream>
#include <sstream>

#include "core/json_strict.h"
#include "core/sha256.h"

namespace goalcup {
namespace {

struct PinnedKeyText {
  const char* key_id;
  const char* public_key;
  const char* not_before;
  const char* not_after;
  const char* use;
};

constexpr PinnedKeyText kPinned[] = {
#include "pinned_keys.inc"
};

Keyring build_production() {
  Keyring ring;
  for (const auto& k : kPinned) {
    auto bytes = base64_decode(k.public_key);
    auto nb = parse_time(k.not_before);
    auto na = parse_time(k.not_after);
    // A bad data file is a build defect; refuse the key rather than trust it.
    if (!bytes || bytes->size() != 32 || !nb || !na || std::string_view(k.use) != "production") continue;
    PublicKey key;
    std::copy(bytes->begin(), bytes->end(), key.bytes.begin());
    key.key_id = key_id_for(key.bytes);
    if (key.key_id != k.key_id) continue;
    key.source = KeySource::pinned;
    key.not_before = nb;
    key.not_after = na;
    ring.add(std::move(key));
  }
  return ring;
}

std::string trim(std::string s) {
  const char* ws = " \t\r\n";
  s.erase(0, s.find_first_not_of(ws));
  s.erase(s.find_last_not_of(ws) + 1);
  return s;
}

}  // namespace

std::string_view key_source_name(KeySource s) {
  constexpr std::string_view kNames[] = {"none", "pinned", "supplied"};  // in the enum's order
  return kNames[static_cast<size_t>(s)];
}

std::string key_id_for(const PublicKeyBytes& key) {
  auto d = sha256(std::string_view(reinterpret_cast<const char*>(key.data()), key.size()));
  return "ed25519:" + to_hex(d).substr(0, 16);
}

std::optional<std::string> base64_decode(std::string_view text) {
  if (sodium_init() < 0) return std::nullopt;
  std::string out(text.size() / 4 * 3 + 3, '\0');
  size_t len = 0;
  const char* end = nullptr;
  if (sodium_base642bin(reinterpret_cast<unsigned char*>(out.data()), out.size(), text.data(), text.size(),
                        nullptr, &len, &end, sodium_base64_VARIANT_ORIGINAL) != 0 ||
      end != text.data() + text.size()) {
    return std::nullopt;
  }
  out.resize(len);
  return out;
}

std::string base64_encode(std::string_view bytes) {
  std::string out(sodium_base64_ENCODED_LEN(bytes.size(), sodium_base64_VARIANT_ORIGINAL), '\0');
  sodium_bin2base64(out.data(), out.size(), reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size(),
                    sodium_base64_VARIANT_ORIGINAL);
  out.resize(out.size() - 1);  // the terminating NUL
  return out;
}

const Keyring& Keyring::production() {
  static const Keyring ring = build_production();
  return ring;
}

Result<PublicKey> Keyring::supplied_from_base64(std::string_view text) {
  auto bytes = base64_decode(text);
  if (!bytes || bytes->size() != 32) {
    return Error{Code::usage, -1, "a key must be the base64 of 32 bytes"};
  }
  PublicKey key;
  std::copy(bytes->begin(), bytes->end(), key.bytes.begin());
  if (sodium_init() < 0 || crypto_core_ed25519_is_valid_point(key.bytes.data()) != 1) {
    return Error{Code::usage, -1, "not a usable Ed25519 public key (small-order or non-canonical point)"};
  }
  key.key_id = key_id_for(key.bytes);
  key.source = KeySource::supplied;
  return key;
}

Result<PublicKey> Keyring::load_supplied(const std::string& arg) {
  if (auto direct = supplied_from_base64(arg)) return direct;
  std::ifstream in(arg, std::ios::binary);
  if (!in) return Error{Code::usage, -1, "--dev-key " + arg + ": neither a base64 key nor a readable file"};
  std::ostringstream ss;
  ss << in.rdbuf();
  std::string text = trim(ss.str());
  if (text.size() > (1 << 16)) return Error{Code::usage, -1, "--dev-key " + arg + ": file too large"};
  if (text.starts_with("{")) {
    StrictJsonParser parser(kConfigFileLimits);
    auto root = parser.parse_copy(text, -1);
    simdjson::dom::object obj;
    std::string_view pk;
    if (!root || root->get(obj) || json::string(obj, "public_key", &pk) != json::Get::ok) {
      return Error{Code::usage, -1, "--dev-key " + arg + ": JSON without a \"public_key\" string"};
    }
    text = std::string(pk);
  }
  auto key = supplied_from_base64(text);
  if (!key) return Error{Code::usage, -1, "--dev-key " + arg + ": " + key.error().message};
  return key;
}

}  // namespace goalcup
