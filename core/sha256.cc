#include "core/sha256.h"

#include <openssl/evp.h>

#include <memory>

namespace goalcup {

namespace {

// Fetched once: with EVP_sha256() OpenSSL 3 looks the implementation up
// (under a lock) on every digest, a cost the many short texts the checks
// hash paid again and again.
const EVP_MD* sha256_md() {
  static const EVP_MD* md = [] {
    const EVP_MD* fetched = EVP_MD_fetch(nullptr, "SHA256", nullptr);
    return fetched ? fetched : EVP_sha256();
  }();
  return md;
}

using DigestContext = std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)>;

}  // namespace

Digest sha256(std::string_view bytes) {
  thread_local DigestContext ctx(EVP_MD_CTX_new(), &EVP_MD_CTX_free);  // one per thread, reused
  Digest d{};
  unsigned int len = 0;
  // No context (out of memory): the one-shot call, never a zero digest.
  if (!ctx) {
    EVP_Digest(bytes.data(), bytes.size(), d.data(), &len, sha256_md(), nullptr);
    return d;
  }
  EVP_DigestInit_ex(ctx.get(), sha256_md(), nullptr);
  EVP_DigestUpdate(ctx.get(), bytes.data(), bytes.size());
  EVP_DigestFinal_ex(ctx.get(), d.data(), &len);
  return d;
}

struct Sha256::Impl {
  EVP_MD_CTX* ctx;
};

Sha256::Sha256() : impl_(new Impl{EVP_MD_CTX_new()}) {
  EVP_DigestInit_ex(impl_->ctx, sha256_md(), nullptr);
}
Sha256::~Sha256() {
  EVP_MD_CTX_free(impl_->ctx);
  delete impl_;
}
void Sha256::update(std::string_view bytes) {
  EVP_DigestUpdate(impl_->ctx, bytes.data(), bytes.size());
}
Digest Sha256::finish() {
  Digest d{};
  unsigned int len = 0;
  EVP_DigestFinal_ex(impl_->ctx, d.data(), &len);
  EVP_DigestInit_ex(impl_->ctx, sha256_md(), nullptr);
  return d;
}

std::string to_hex(std::string_view bytes) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out(bytes.size() * 2, '0');
  for (size_t i = 0; i < bytes.size(); ++i) {
    auto b = static_cast<uint8_t>(bytes[i]);
    out[2 * i] = kHex[b >> 4];
    out[2 * i + 1] = kHex[b & 15];
  }
  return out;
}

std::string digest_ref(const Digest& d) { return "sha256:" + to_hex(d); }

static int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;  // uppercase is not hex in this format
}

bool is_lower_hex(std::string_view text, size_t n) {
  if (text.size() != n) return false;
  for (char c : text) {
    if (hex_value(c) < 0) return false;
  }
  return true;
}

std::optional<Digest> parse_digest_ref(std::string_view text) {
  constexpr std::string_view kPrefix = "sha256:";
  if (!text.starts_with(kPrefix)) return std::nullopt;
  text.remove_prefix(kPrefix.size());
  if (!is_lower_hex(text, 64)) return std::nullopt;
  Digest d{};
  for (size_t i = 0; i < 32; ++i) {
    d[i] = static_cast<uint8_t>(hex_value(text[2 * i]) * 16 + hex_value(text[2 * i + 1]));
  }
  return d;
}

}  // namespace goalcup
