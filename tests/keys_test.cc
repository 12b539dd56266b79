// The pinned keys: loaded from the data file, and none of them is a key
// whose seed anyone could read in this repository.
#include <atomic>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <thread>

#include "core/sha256.h"

#include "tests/support.h"

namespace goalcup {
namespace {

TEST(Keys, ProductionKeysAreThePinnedDataFile) {
  const auto& ring = Keyring::production();
  ASSERT_EQ(ring.keys().size(), 2u);
  for (const auto& k : ring.keys()) {
    EXPECT_EQ(k.source, KeySource::pinned);
    EXPECT_TRUE(k.not_before && k.not_after);
    EXPECT_EQ(k.key_id, key_id_for(k.bytes));
  }
  EXPECT_EQ(ring.keys()[0].key_id, "ed25519:32b1637460f85517");
}

// Every "seed" in any text file of the repository, as base64 or hex.
TEST(Keys, NoKeyWhoseSeedIsInThisRepositoryIsPinned) {
  namespace fs = std::filesystem;
  const std::regex seed_re(R"re("seed"\s*:\s*"([A-Za-z0-9+/=]+)")re");
  size_t seeds = 0;
  for (auto it = fs::recursive_directory_iterator(GOALCUP_SOURCE_DIR); it != fs::recursive_directory_iterator(); ++it) {
    const auto& p = it->path();
    if (it->is_directory() && (p.filename() == ".git" || p.filename().string().starts_with("build"))) {
      it.disable_recursion_pending();
      continue;
    }
    if (!it->is_regular_file() || it->file_size() > (4 << 20)) continue;
    std::ifstream in(p, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string text = ss.str();
    // std::regex is slow (17 s over the repository under ASan): only files
    // that name a seed at all go through it.
    if (text.find("\"seed\"") == std::string::npos) continue;
    for (std::sregex_iterator m(text.begin(), text.end(), seed_re), end; m != end; ++m) {
      auto seed = base64_decode((*m)[1].str());
      if (!seed || seed->size() != 32) continue;
      ++seeds;
      std::array<uint8_t, 32> s{};
      std::copy(seed->begin(), seed->end(), s.begin());
      const auto key = fixtures::SigningKey::from_seed(s);
      for (const auto& pinned : Keyring::production().keys()) {
        EXPECT_NE(pinned.bytes, key.public_key) << p << " holds the seed of pinned key " << pinned.key_id;
      }
    }
  }
  EXPECT_GE(seeds, 1u);  // at least fixtures/keys/dev-key.json was seen
}

// The digest every record's chain rests on: the published test vectors, in
// one call, streamed in pieces, again after a finish, and on several threads.
TEST(Sha256, GivesThePublishedDigestsHoweverItIsCalled) {
  const std::string abc = "abc";
  const std::string two_blocks = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
  const std::string empty_hex = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
  const std::string abc_hex = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
  const std::string two_hex = "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1";
  auto hex = [](const Digest& d) { return to_hex(d); };
  EXPECT_EQ(hex(sha256("")), empty_hex);
  EXPECT_EQ(hex(sha256(abc)), abc_hex);
  EXPECT_EQ(hex(sha256(two_blocks)), two_hex);
  Sha256 h;
  for (char c : two_blocks) h.update(std::string_view(&c, 1));
  EXPECT_EQ(hex(h.finish()), two_hex);
  h.update(abc);
  EXPECT_EQ(hex(h.finish()), abc_hex);
  std::vector<std::thread> threads;
  std::atomic<int> wrong{0};
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 2000; ++i) wrong += hex(sha256(i % 2 ? abc : two_blocks)) != (i % 2 ? abc_hex : two_hex);
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(wrong.load(), 0);
}

}  // namespace
}  // namespace goalcup
