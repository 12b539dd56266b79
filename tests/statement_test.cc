// Signed statements: the signed bytes, strict Ed25519, keys.
#include "core/statement.h"

#include <sodium.h>

#include "tests/support.h"

namespace goalcup {
namespace {

using fixtures::SigningKey;

TEST(Statement, PaeIsTheSpecifiedEncoding) {
  EXPECT_EQ(pae("{}"), "GCS1 41 application/vnd.goalcup.statement.v0+json 2 {}");
  EXPECT_EQ(pae(""), "GCS1 41 application/vnd.goalcup.statement.v0+json 0 ");
}

TEST(Statement, KeyIdIsAPrefixOfTheKeyHash) {
  const auto& key = testing::dev_key();
  EXPECT_EQ(key.key_id(), "ed25519:b249560877e5f217");  // as fixtures/keys/dev-key.json says
}

TEST(Statement, StrictVerification) {
  const auto key = SigningKey::from_label("statement-test");
  const std::string msg = pae("{\"type\":\"ack\"}");
  std::array<uint8_t, 64> sig{};
  crypto_sign_detached(sig.data(), nullptr, reinterpret_cast<const unsigned char*>(msg.data()), msg.size(),
                       key.secret_key.data());
  EXPECT_TRUE(verify_signature(key.public_key, msg, sig));
  // A flipped bit.
  auto flipped = sig;
  flipped[10] ^= 1;
  EXPECT_FALSE(verify_signature(key.public_key, msg, flipped));
  // S + L verifies under a lax verifier but not a strict one.
  auto mall = sig;
  unsigned carry = 0;
  for (size_t i = 0; i < 32; ++i) {
    unsigned s = mall[32 + i] + kEd25519Order[i] + carry;
    mall[32 + i] = static_cast<uint8_t>(s);
    carry = s >> 8;
  }
  EXPECT_FALSE(verify_signature(key.public_key, msg, mall));
  EXPECT_TRUE(signature_s_canonical(sig));
  EXPECT_FALSE(signature_s_canonical(mall));
}

TEST(Statement, SmallOrderAndNonCanonicalKeysAreRefused) {
  // The identity point (small order) and a non-canonical encoding of it.
  std::string identity(32, '\0');
  identity[0] = 1;
  EXPECT_FALSE(Keyring::supplied_from_base64(base64_encode(identity)).ok());
  std::string noncanonical(32, '\xff');
  noncanonical[31] = '\x7f';
  EXPECT_FALSE(Keyring::supplied_from_base64(base64_encode(noncanonical)).ok());
  // A signature (R = identity, S = 0) that a small-order key "verifies" under lax rules.
  PublicKeyBytes pk{};
  pk[0] = 1;
  std::array<uint8_t, 64> sig{};
  sig[0] = 1;
  EXPECT_FALSE(verify_signature(pk, pae("{}"), sig));
  EXPECT_TRUE(Keyring::supplied_from_base64(testing::dev_key().public_key_base64()).ok());
}

TEST(Statement, SuppliedKeysLoadFromTextOrFiles) {
  EXPECT_TRUE(Keyring::load_supplied(testing::dev_key().public_key_base64()).ok());
  auto from_json = Keyring::load_supplied(testing::source_path("fixtures/keys/dev-key.json"));
  ASSERT_TRUE(from_json.ok()) << from_json.error().message;
  EXPECT_EQ(from_json->key_id, "ed25519:b249560877e5f217");
  auto file = testing::write_temp("key.txt", testing::dev_key().public_key_base64() + "\n");
  EXPECT_TRUE(Keyring::load_supplied(file).ok());
  EXPECT_FALSE(Keyring::load_supplied("not a key").ok());
  EXPECT_FALSE(Keyring::load_supplied("AAAA").ok());
}

TEST(Statement, Base64IsStrict) {
  EXPECT_EQ(base64_decode("aGk="), std::optional<std::string>("hi"));
  EXPECT_FALSE(base64_decode("aGk").has_value());    // no padding
  EXPECT_FALSE(base64_decode("aGl=").has_value());   // non-zero trailing bits
  EXPECT_FALSE(base64_decode("aG k=").has_value());  // whitespace
  EXPECT_FALSE(base64_decode("aGk_").has_value());   // url alphabet
}

TEST(Statement, PayloadsAreParsedStrictly) {
  StrictJsonParser parser{Limits{}};
  const std::string head = "\"head\":\"sha256:" + std::string(64, 'a') + "\",\"at\":\"2026-11-29T17:05:16Z\"";
  auto ok = parse_statement("{\"type\":\"ack\",\"entry_id\":\"e\",\"run_id\":\"r\",\"seq\":3," + head + "}", parser, 7);
  ASSERT_TRUE(ok.ok()) << ok.error().message;
  EXPECT_EQ(ok->seq, 3u);
  EXPECT_FALSE(parse_statement("{\"type\":\"ack\",\"type\":\"ack\",\"entry_id\":\"e\",\"run_id\":\"r\",\"seq\":3," + head + "}",
                               parser, 7).ok());
  EXPECT_FALSE(parse_statement("{\"type\":\"ack\",\"entry_id\":\"e\",\"run_id\":\"r\",\"seq\":3.0," + head + "}", parser, 7).ok());
  EXPECT_FALSE(parse_statement("{\"type\":\"ack\",\"entry_id\":\"e\",\"run_id\":\"r\"," + head + "}", parser, 7).ok());
}

}  // namespace
}  // namespace goalcup
