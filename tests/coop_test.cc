// The coop audit: a generated data directory and manifests breaking each rule.
#include <filesystem>

#include "cheatcheck/coop/audit.h"
#include "fixtures/writer/coop.h"
#include "tests/support.h"

namespace goalcup::cheat {
namespace {

std::vector<const Finding*> of(const CheatReport& r, std::string_view check) {
  std::vector<const Finding*> out;
  for (const auto& f : r.findings) {
    if (f.check == check) out.push_back(&f);
  }
  return out;
}

std::string dump(const CheatReport& r) {
  std::string s;
  for (const auto& f : r.findings) s += f.check + ": " + f.message + "\n";
  return s;
}

CheatReport audit(const fixtures::CoopSpec& spec, const std::string& name) {
  const std::string dir = testing::temp_dir() + "/" + name;
  std::filesystem::remove_all(dir);
  fixtures::write_coop_dir(dir, spec);
  return audit_coop_dir(dir, Limits{}, Policy{});
}

TEST(Coop, SecretsInRedbValuesAreFoundWithTheirIds) {
  auto r = audit(fixtures::CoopSpec{}, "coop-good");
  auto secrets = of(r, "COOP02");
  bool job = false, memory = false;
  for (const Finding* f : secrets) {
    job |= f->message.find("job-7 (hen lab__alice) .error") != std::string::npos && f->secret.rule == "anthropic-key";
    memory |= f->message.find("mem-3 (hen lab__bob) .summary") != std::string::npos && f->secret.rule == "github-pat";
  }
  EXPECT_TRUE(job) << dump(r);
  EXPECT_TRUE(memory) << dump(r);
  EXPECT_EQ(of(r, "COOP03").size(), 1u) << dump(r);   // the Discord token in plain text
  EXPECT_TRUE(of(r, "COOP01").empty()) << dump(r);    // modes as promised
  EXPECT_TRUE(of(r, "COOP04").empty()) << dump(r);    // vault in shape
  ASSERT_EQ(of(r, "COOP05").size(), 1u) << dump(r);
  EXPECT_NE(of(r, "COOP05")[0]->message.find("Bad_Name"), std::string::npos);
  ASSERT_EQ(of(r, "COOP06").size(), 1u) << dump(r);
  EXPECT_NE(of(r, "COOP06")[0]->message.find("lab__carol"), std::string::npos);

  fixtures::CoopSpec clean;
  clean.plant_secrets = false;
  auto c = audit(clean, "coop-clean");
  for (const Finding* f : of(c, "COOP02")) EXPECT_EQ(f->message.find("state.redb"), std::string::npos) << f->message;
}

TEST(Coop, ModesAndVaultShape) {
  fixtures::CoopSpec loose;
  loose.loose_modes = true;
  auto r = audit(loose, "coop-loose");
  EXPECT_EQ(of(r, "COOP01").size(), 2u) << dump(r);
  fixtures::CoopSpec vault;
  vault.broken_vault = true;
  auto v = audit(vault, "coop-vault");
  ASSERT_EQ(of(v, "COOP04").size(), 1u) << dump(v);
  EXPECT_NE(of(v, "COOP04")[0]->message.find("salt"), std::string::npos);
  EXPECT_EQ(audit_coop_dir("/nonexistent/coop", Limits{}, Policy{}).verify.verdict, Verdict::error);
}

TEST(Coop, EveryManifestRule) {
  const std::string dir = testing::temp_dir() + "/manifests";
  for (const auto& [file, rule] : fixtures::write_manifests(dir)) {
    SCOPED_TRACE(file);
    auto r = audit_manifest(dir + "/" + file, Limits{}, Policy{});
    if (rule.empty()) {
      EXPECT_TRUE(r.findings.empty()) << dump(r);
      continue;
    }
    auto found = of(r, rule);
    ASSERT_FALSE(found.empty()) << dump(r);
    // Each finding names the key it is about.
    if (rule != "MAN12") {
      EXPECT_NE(found[0]->message.find(':'), std::string::npos);
    }
  }
}

}  // namespace
}  // namespace goalcup::cheat
