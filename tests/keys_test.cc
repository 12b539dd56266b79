// The pinned keys: loaded from the data file, and none of them is a key
// whose seed anyone could read in this repository.
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

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

}  // namespace
}  // namespace goalcup
