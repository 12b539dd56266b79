// SHA-256 through OpenSSL's libcrypto, which uses the SHA-NI instructions
// where the CPU has them (about 6x libsodium's portable code; see
// docs/DEPENDENCIES.md). Hashes are of raw bytes: nothing is re-serialized.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace goalcup {

using Digest = std::array<uint8_t, 32>;

Digest sha256(std::string_view bytes);

// Incremental hashing for data that arrives in pieces.
class Sha256 {
 public:
  Sha256();
  ~Sha256();
  Sha256(const Sha256&) = delete;
  Sha256& operator=(const Sha256&) = delete;
  void update(std::string_view bytes);
  Digest finish();

 private:
  struct Impl;
  Impl* impl_;
};

// Lowercase hex of any bytes.
std::string to_hex(std::string_view bytes);
inline std::string to_hex(const Digest& d) {
  return to_hex(std::string_view(reinterpret_cast<const char*>(d.data()), d.size()));
}
// "sha256:" + 64 lowercase hex.
std::string digest_ref(const Digest& d);
// Parses "sha256:" + 64 lowercase hex; nullopt for anything else.
std::optional<Digest> parse_digest_ref(std::string_view text);
// True when text is exactly n lowercase hex digits.
bool is_lower_hex(std::string_view text, size_t n);

}  // namespace goalcup
