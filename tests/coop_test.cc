// The coop audit: a generated data directory and manifests breaking each rule.
#include <sys/stat.h>

#include <chrono>
#include <filesystem>
#include <fstream>

#include "cheatcheck/coop/audit.h"
#include "cheatcheck/coop/json_values.h"
#include "core/json_strict.h"
#include "tests/hostile_limits.h"
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

const Finding* naming(const CheatReport& r, std::string_view place) {
  for (const auto& f : r.findings) {
    if (f.check == "COOP02" && f.message.find(place) != std::string::npos) return &f;
  }
  return nullptr;
}

TEST(Coop, SecretsInRedbRowsAreNamedByTableKeyAndField) {
  auto r = audit(fixtures::CoopSpec{}, "coop-good");
  const Finding* job = naming(r, "jobs_v1 01900000-0000-7000-8000-000000000007 .error");
  const Finding* memory = naming(r, "memories_v1 local.coop/bob\\001900000-0000-7000-8000-000000000003 .summary");
  const Finding* hen = naming(r, "hens_v1 local.coop/alice .manifest.metadata.notes");
  const Finding* stale = naming(r, "stale copy of jobs_v1 01900000-0000-7000-8000-000000000007 .error");
  ASSERT_TRUE(job && memory && hen && stale) << dump(r);
  EXPECT_EQ(job->secret.rule, "anthropic-key");
  EXPECT_EQ(memory->secret.rule, "github-pat");
  EXPECT_EQ(hen->secret.rule, "openai-key");
  EXPECT_EQ(job->severity, Severity::high);
  EXPECT_EQ(stale->secret.rule, "slack-bot");
  EXPECT_EQ(stale->severity, Severity::warning);  // no longer live
  EXPECT_NE(stale->message.find("Stale"), std::string::npos);
  EXPECT_EQ(job->message.find("places"), std::string::npos) << "the raw bytes are not a second place: " << job->message;
  EXPECT_NE(naming(r, "read as redb"), nullptr) << dump(r);
  EXPECT_EQ(of(r, "COOP03").size(), 1u) << dump(r);   // the Discord token in plain text
  EXPECT_TRUE(of(r, "COOP01").empty()) << dump(r);    // modes as promised
  EXPECT_TRUE(of(r, "COOP04").empty()) << dump(r);    // vault in shape
  ASSERT_EQ(of(r, "COOP05").size(), 1u) << dump(r);
  EXPECT_NE(of(r, "COOP05")[0]->message.find("Bad_Name"), std::string::npos);
  ASSERT_EQ(of(r, "COOP06").size(), 1u) << dump(r);
  EXPECT_NE(of(r, "COOP06")[0]->message.find("local-coop__carol"), std::string::npos);

  fixtures::CoopSpec clean;
  clean.plant_secrets = false;
  auto c = audit(clean, "coop-clean");
  for (const Finding* f : of(c, "COOP02")) {
    if (f->severity != Severity::info) {
      EXPECT_EQ(f->message.find("state.redb"), std::string::npos) << f->message;
    }
  }
}

// A redb file whose trees fail their checksums is not read as redb: its
// bytes are scanned instead, and the report says so.
TEST(Coop, AFileTheReaderDoesNotUnderstandFallsBackToTheByteScan) {
  const std::string dir = testing::temp_dir() + "/coop-corrupt";
  std::filesystem::remove_all(dir);
  fixtures::write_coop_dir(dir, fixtures::CoopSpec{});
  {
    std::fstream f(dir + "/state.redb", std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(8192 + 4096 + 20);  // inside the first table's leaf page
    f.put('#');
  }
  auto r = audit_coop_dir(dir, Limits{}, Policy{});
  const Finding* note = naming(r, "not read as redb");
  ASSERT_NE(note, nullptr) << dump(r);
  EXPECT_NE(note->message.find("checksum"), std::string::npos) << note->message;
  EXPECT_NE(naming(r, "jobs_v1 01900000-0000-7000-8000-000000000007 .error"), nullptr) << dump(r);
  EXPECT_EQ(naming(r, "Stale"), nullptr) << "live and stale cannot be told apart: " << dump(r);
}

// With every hen deleted, every workdir is an orphan (an empty hens_v1 is
// not "no hen records could be read").
TEST(Coop, AnEmptyHenTableOrphansEveryWorkdir) {
  fixtures::CoopSpec spec;
  spec.no_hens = true;
  auto r = audit(spec, "coop-no-hens");
  EXPECT_EQ(of(r, "COOP06").size(), 2u) << dump(r);
  EXPECT_TRUE(r.skipped.empty());
}

// After a 1-phase commit, a primary slot whose checksum fails is passed over
// for the secondary, as redb's repair does (here: the empty first commit).
TEST(Coop, TheCommitSlotIsTheOneRedbWouldOpen) {
  const std::string dir = testing::temp_dir() + "/coop-slot";
  std::filesystem::remove_all(dir);
  fixtures::write_coop_dir(dir, fixtures::CoopSpec{});
  {
    std::fstream f(dir + "/state.redb", std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(9);
    f.put(2);  // primary slot 0, recovery required, 1-phase commit
    f.seekp(64 + 104);
    f.put(8);  // slot 0's transaction id: its checksum no longer holds
  }
  auto r = audit_coop_dir(dir, Limits{}, Policy{});
  const Finding* note = naming(r, "read as redb");
  ASSERT_NE(note, nullptr) << dump(r);
  EXPECT_NE(note->message.find("secondary commit slot 1"), std::string::npos) << note->message;
  EXPECT_NE(note->message.find(": 0 live rows"), std::string::npos) << note->message;
  // The rows of the newer, unverified commit are then only stale copies.
  const Finding* job = naming(r, "stale copy of jobs_v1 01900000-0000-7000-8000-000000000007 .error");
  ASSERT_NE(job, nullptr) << dump(r);
  EXPECT_EQ(job->severity, Severity::warning);
}

// Free bytes come in 1 MiB pieces: a stale value across a cut is still
// found (once).
TEST(Coop, AStaleValueAcrossAPieceOfFreeBytesIsFound) {
  const std::string dir = testing::temp_dir() + "/coop-cut";
  std::filesystem::remove_all(dir);
  fixtures::write_coop_dir(dir, fixtures::CoopSpec{});
  const std::string token = std::string("xox") + "b-6029384751620-9182736450918-" + "Rk7qStraddleZx9Wm2Lp4Vn8";
  const std::string value = "{\"id\":\"01900000-0000-7000-8000-0000000000aa\",\"hen_id\":\"local.coop/bob\","
                            "\"prompt\":\"p\",\"status\":\"FAILED\",\"error\":\"slack: " + token + "\"}";
  std::string filler((1u << 20) + 8192, 'x');  // free bytes after the last page, not a leaf
  filler.replace((1u << 20) - value.size() / 2, value.size(), value);
  std::ofstream(dir + "/state.redb", std::ios::app | std::ios::binary) << filler;
  auto r = audit_coop_dir(dir, Limits{}, Policy{});
  const Finding* stale = naming(r, "stale copy of jobs_v1 01900000-0000-7000-8000-0000000000aa .error");
  ASSERT_NE(stale, nullptr) << dump(r);
  EXPECT_EQ(stale->secret.occurrences, 1u) << stale->message;
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

bool skipped_for(const CheatReport& r, std::string_view check, std::string_view reason) {
  return std::any_of(r.skipped.begin(), r.skipped.end(), [&](const Skipped& s) {
    return s.check == check && s.reason.find(reason) != std::string::npos;
  });
}

// A data directory named on the command line through a link (/var/lib/coop
// -> /data/coop) is the judge's own choice: followed, and audited as the
// directory itself (red-team 16c #14 found it "not a directory").
TEST(Coop, ADataDirectoryNamedThroughALinkIsAudited) {
  const std::string base = testing::temp_dir() + "/coop-linked";
  std::filesystem::remove_all(base);
  std::filesystem::create_directories(base);
  fixtures::CoopSpec loose;
  loose.loose_modes = true;
  fixtures::write_coop_dir(base + "/data", loose);
  std::filesystem::create_directory_symlink("data", base + "/link");
  const CheatReport direct = audit_coop_dir(base + "/data", Limits{}, Policy{});
  const CheatReport linked = audit_coop_dir(base + "/link", Limits{}, Policy{});
  EXPECT_EQ(linked.verify.verdict, Verdict::verified) << (linked.verify.errors.empty() ? "" : linked.verify.errors[0].message);
  EXPECT_EQ(dump(linked), dump(direct));
  EXPECT_EQ(of(linked, "COOP01").size(), 2u) << dump(linked);  // the target's modes, not the link's
  EXPECT_FALSE(of(linked, "COOP06").empty()) << dump(linked);
  // What is not a directory is said as such; a path that is not there, too.
  std::ofstream(base + "/file") << "x";
  std::filesystem::create_symlink("file", base + "/file-link");
  for (const char* name : {"/file", "/file-link", "/missing"}) {
    const CheatReport r = audit_coop_dir(base + name, Limits{}, Policy{});
    ASSERT_EQ(r.verify.verdict, Verdict::error) << name;
    ASSERT_FALSE(r.verify.errors.empty()) << name;
    EXPECT_EQ(r.verify.errors[0].code, std::string_view(name) == "/missing" ? Code::not_found : Code::usage) << name;
  }
}

// Links inside the copy are the copy's own and are never followed: a linked
// state.redb is COOP01 high, and a linked workdirs/ is neither read nor
// passed over in silence (COOP05 and COOP06 say they were skipped).
TEST(Coop, LinksInsideTheDataDirectoryAreNotFollowed) {
  const std::string base = testing::temp_dir() + "/coop-inner-links";
  std::filesystem::remove_all(base);
  std::filesystem::create_directories(base);
  fixtures::write_coop_dir(base + "/data", fixtures::CoopSpec{});
  std::filesystem::rename(base + "/data/workdirs", base + "/elsewhere");
  std::filesystem::create_directory_symlink("../elsewhere", base + "/data/workdirs");
  std::filesystem::rename(base + "/data/state.redb", base + "/state.redb");
  std::filesystem::create_symlink("../state.redb", base + "/data/state.redb");
  const CheatReport r = audit_coop_dir(base + "/data", Limits{}, Policy{});
  const auto modes = of(r, "COOP01");
  EXPECT_TRUE(std::any_of(modes.begin(), modes.end(), [](const Finding* f) {
    return f->severity == Severity::high && f->message.find("state.redb is a symbolic link") != std::string::npos;
  })) << dump(r);
  EXPECT_TRUE(of(r, "COOP05").empty() && of(r, "COOP06").empty()) << dump(r);
  EXPECT_TRUE(skipped_for(r, "COOP05", "workdirs is a symbolic link")) << dump(r);
  EXPECT_TRUE(skipped_for(r, "COOP06", "workdirs is a symbolic link")) << dump(r);
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
    // A refusal is the only one; a risk coop accepts is a warning, no refusal.
    const bool accepted = rule == "MAN12" || rule == "MAN13";
    for (const auto& f : r.findings) {
      if (f.severity == Severity::high) {
        EXPECT_TRUE(!accepted && f.check == rule) << dump(r);
      }
    }
    if (accepted) {
      EXPECT_EQ(found[0]->severity, Severity::warning) << dump(r);
    }
  }
}

// coop reads a manifest with serde, which refuses a repeated field where
// yaml-cpp keeps both (red-team 14 #8): in YAML or JSON, at the top or
// nested, the same value or another, it is a refusal; an alias used twice
// repeats no key.
TEST(Coop, AManifestThatRepeatsAFieldIsRefused) {
  const std::string good = "spec_version: coop/v1\nname: aria\nbrain: &b {provider_id: p, model: m}\n";
  const std::vector<std::string> repeated = {
      "spec_version: coop/v1\nname: aria\nname: aria\nbrain: {provider_id: p, model: m}\n",
      R"({"spec_version":"coop/v1","name":"aria","name":"BAD NAME","brain":{"provider_id":"p","model":"m"}})",
      "spec_version: coop/v1\nname: aria\nbrain: {provider_id: p, model: m, model: n}\n"};
  // The MAN00 findings, copied out of their report.
  auto refusals = [](const std::string& text) {
    const CheatReport r = audit_manifest(testing::write_temp("manifest.yaml", text), Limits{}, Policy{});
    std::vector<Finding> found;
    for (const Finding* f : of(r, "MAN00")) found.push_back(*f);
    return found;
  };
  EXPECT_TRUE(refusals(good).empty());
  EXPECT_TRUE(refusals(good + "metadata: {a: *b, c: *b}\n").empty());
  for (const std::string& text : repeated) {
    SCOPED_TRACE(text);
    const std::vector<Finding> found = refusals(text);
    ASSERT_EQ(found.size(), 1u);
    EXPECT_EQ(found[0].severity, Severity::high);
    EXPECT_NE(found[0].message.find("given twice"), std::string::npos) << found[0].message;
  }
}

// coop reads a manifest with serde_yaml 0.9.34 into its AgentManifest: a
// scalar is typed by the field it lands in (review 16c #02). Each case is
// refused or accepted as coop's parser and validate() would.
TEST(Coop, ManifestVerdictsFollowCoopsParser) {
  const std::string head = "spec_version: coop/v1\nname: aria\n";
  const std::string brain = "brain:\n  provider_id: vault:main\n  model: sonnet\n";
  auto allow = [](const std::string& ports) {
    return "network:\n  policy: allowlist\n  allow:\n    - host: api.example.com\n      ports: [" + ports + "]\n";
  };
  auto nested = [](const std::string& open, const std::string& close, int n) {
    std::string s;
    for (int i = 0; i < n; ++i) s += open;
    for (int i = 0; i < n; ++i) s += close;
    return s;
  };
  const std::vector<std::pair<std::string, std::string>> accepted = {
      {"a plain null is the String \"null\"", head + "brain:\n  provider_id: vault:main\n  model: null\n"},
      {"a plain ~ is the String \"~\"", head + "brain:\n  provider_id: ~\n  model: sonnet\n"},
      {"name null is the hen name \"null\"", "spec_version: coop/v1\nname: null\n" + brain},
      {"JSON null in a String field", R"({"spec_version":"coop/v1","name":"aria","brain":{"provider_id":"p","model":null}})"},
      {"a hex port", head + brain + allow("0x1BB")},
      {"a port with a plus sign", head + brain + allow("+443")},
      {"octal and binary ports", head + brain + allow("0o773, 0b111")},
      {"a host written null", head + brain + "network:\n  policy: allowlist\n  allow:\n    - host: null\n"},
      {"an empty tools list", head + brain + "tools:\n"},
      {"a null Option", head + brain + "memory: ~\nlease: null\nnetwork:\n"},
      {"a repeated key of metadata itself (a HashMap)", head + brain + "metadata:\n  a: 1\n  a: 2\n"},
      {"an unknown field with anything in it", head + brain + "extra: {a: 1, a: 2, b: " + nested("[", "]", 200) + "}\n"},
      {"metadata nested 128 deep in all", head + brain + "metadata: {a: " + nested("[", "]", 126) + "}\n"},
      {"a quoted enum name", head + brain + "agent_kind: \"anthropic\"\nsex: 'rooster'\n"},
      {"bools in serde's spellings", head + brain + "lease:\n  allow_lease: False\n  stream_enabled: TRUE\n"},
      {"a float for cpu", head + brain + "resources:\n  cpu_request: 1.5\n  cpu_limit: 2\n  ram_limit_mb: 0x100\n"},
  };
  const std::vector<std::pair<std::string, std::string>> refused = {
      {"two documents", head + brain + "---\nspec_version: coop/v1\n"},
      {"an empty second document", head + brain + "---\n"},
      {"a port with a leading zero", head + brain + allow("0443")},
      {"a quoted port", head + brain + allow("\"443\"")},
      {"a port over 65535", head + brain + allow("0x10000")},
      {"agent_kind null: no such variant", head + brain + "agent_kind: null\n"},
      {"agent_kind empty: no such variant", head + brain + "agent_kind:\n"},
      {"provider null: no such provider", head + "brain:\n  provider_id: p\n  model: m\n  provider: null\n"},
      {"tools not a sequence", head + brain + "tools: bash\n"},
      {"tools null", head + brain + "tools: null\n"},
      {"a YAML 1.1 bool", head + brain + "  auto_route: yes\n"},
      {"a quoted bool", head + brain + "lease:\n  allow_lease: \"false\"\n"},
      {"an empty bool", head + brain + "  cache:\n"},
      {"a negative u32", head + brain + "memory:\n  episodic_retention_days: -1\n"},
      {"a quoted u32", head + brain + "scheduling:\n  max_concurrent_jobs: '4'\n"},
      {"metadata nested 129 deep", head + brain + "metadata: {a: " + nested("[", "]", 127) + "}\n"},
      {"a repeated key inside a metadata value", head + brain + "metadata:\n  a: {x: 1, x: 2}\n"},
      {"brain null", head + "brain: null\n"},
      {"a struct given as a quoted empty string", head + brain + "personality: ''\n"},
      {"an enum given as a mapping", head + brain + "network:\n  policy: {allowlist: 1}\n"},
      {"an empty file", ""},
  };
  // Deeper than yaml-cpp reads: coop ignores it in an unknown field and
  // refuses it in a read one; not judged either way, and said.
  const std::string too_deep = head + brain + "extra: " + nested("[", "]", 600) + "\n";
  const CheatReport deep = audit_manifest(testing::write_temp("deep.yaml", too_deep), Limits{}, Policy{});
  ASSERT_EQ(of(deep, "MAN00").size(), 1u) << dump(deep);
  EXPECT_EQ(of(deep, "MAN00")[0]->severity, Severity::warning);
  EXPECT_NE(of(deep, "MAN00")[0]->message.find("not checked"), std::string::npos);
  for (const auto& [why, text] : accepted) {
    const CheatReport r = audit_manifest(testing::write_temp("accepted.yaml", text), Limits{}, Policy{});
    for (const auto& f : r.findings) EXPECT_NE(f.severity, Severity::high) << why << "\n" << text << "\n" << dump(r);
  }
  for (const auto& [why, text] : refused) {
    const CheatReport r = audit_manifest(testing::write_temp("refused.yaml", text), Limits{}, Policy{});
    bool high = false;
    for (const auto& f : r.findings) high |= f.severity == Severity::high && f.check.starts_with("MAN");
    EXPECT_TRUE(high) << why << "\n" << text << "\n" << dump(r);
  }
}

// A baseline covers the input it was taken for: the same refusal in
// another hen's manifest, or the same loose mode in another farm's data
// directory, is not suppressed by it (review 16c #15).
TEST(Coop, FingerprintsNameTheManifestOrDataDirectory) {
  const std::string text = "spec_version: coop/v1\nname: aria\nbrain:\n  provider_id: p\n  model: ''\n";
  const std::string dir = testing::temp_dir() + "/fingerprints";
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/aria.yaml") << text;
  std::ofstream(dir + "/other.yaml") << text;
  auto print = [](const CheatReport& r) {
    EXPECT_EQ(r.findings.size(), 1u) << dump(r);
    return r.findings.empty() ? std::string() : r.findings[0].fingerprint;
  };
  const std::string aria = print(audit_manifest(dir + "/aria.yaml", Limits{}, Policy{}));
  EXPECT_EQ(aria, print(audit_manifest(dir + "/./aria.yaml", Limits{}, Policy{})));
  EXPECT_NE(aria, print(audit_manifest(dir + "/other.yaml", Limits{}, Policy{})));

  fixtures::CoopSpec loose;
  loose.loose_modes = true;
  const CheatReport a = audit(loose, "farm-a"), b = audit(loose, "farm-b");
  ASSERT_FALSE(of(a, "COOP01").empty());
  ASSERT_EQ(of(a, "COOP01").size(), of(b, "COOP01").size());
  for (size_t i = 0; i < of(a, "COOP01").size(); ++i) {
    EXPECT_NE(of(a, "COOP01")[i]->fingerprint, of(b, "COOP01")[i]->fingerprint);
  }
  EXPECT_EQ(of(a, "COOP01")[0]->fingerprint, of(audit(loose, "farm-a"), "COOP01")[0]->fingerprint);
}

// A manifest that is a FIFO is not read (opening it would wait for a
// writer forever): the input is not judged (review 16c #13).
TEST(Coop, AManifestFifoDoesNotHang) {
  const std::string fifo = testing::temp_dir() + "/manifest-fifo.yaml";
  std::filesystem::remove(fifo);
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const CheatReport r = audit_manifest(fifo, Limits{}, Policy{});
  EXPECT_EQ(r.verify.verdict, Verdict::error);
  const std::string file = testing::write_temp("manifest-file.yaml", "spec_version: coop/v1\nname: aria\nbrain: {provider_id: p, model: m}\n");
  EXPECT_EQ(audit_manifest(file, Limits{}, Policy{}).verify.verdict, Verdict::verified);
}

// The embedded-value scan matched braces from every '{' again (up to 4 MiB
// ahead each): 128 KiB of '{' took 12 s and a few MiB hit the upload's hour
// (review 18 #6). Braces are matched in one pass now, so 4 MiB of them take
// well under a second, and the object after them is still found.
TEST(Coop, ARunOfBracesIsMatchedInOnePass) {
  const std::string dir = testing::temp_dir() + "/coop-braces";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  ::chmod(dir.c_str(), 0700);
  constexpr std::string_view kJob = R"({"id":"j","hen_id":"local.coop/a","prompt":"p","status":"DONE"})";
  // Under ASan a smaller run (64 KiB: 17 s there at 256 KiB, 47 s at
  // 4 MiB) keeps the memory checks and leaves the time check to the
  // release build.
  const std::string braces(testing::kSanitized ? 64u << 10 : 4u << 20, '{');
  std::ofstream(dir + "/state.redb") << braces << kJob;
  ::chmod((dir + "/state.redb").c_str(), 0600);
  const auto start = std::chrono::steady_clock::now();
  const CheatReport r = audit_coop_dir(dir, Limits{}, Policy{});
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(testing::kHostileHardSeconds));
  EXPECT_EQ(r.verify.verdict, Verdict::verified) << (r.verify.errors.empty() ? "" : r.verify.errors[0].message);

  std::vector<size_t> found;
  const auto at = [&](size_t offset, simdjson::dom::object) { found.push_back(offset); };
  const std::string tail = braces + std::string(kJob);
  for_each_embedded_object(tail, at, Limits{});
  EXPECT_EQ(found, std::vector<size_t>{braces.size()});
  // A few braces are read in full, as before.
  found.clear();
  for_each_embedded_object(std::string(64, '{') + std::string(kJob), at, Limits{});
  EXPECT_EQ(found, std::vector<size_t>{64});
}

// The one-pass matcher finds what trying each '{' on its own found: the
// per-brace scan kept here as the reference, on random bytes made of what
// the lexer reads (braces, brackets, quotes, backslashes, control bytes).
size_t reference_object_end(std::string_view s, size_t p) {
  int depth = 0;
  bool in_string = false;
  for (size_t i = p; i < s.size(); ++i) {
    const char c = s[i];
    if (in_string) {
      if (c == '\\') ++i;
      else if (c == '"') in_string = false;
      else if (static_cast<unsigned char>(c) < 0x20) return std::string_view::npos;
      continue;
    }
    if (c == '"') in_string = true;
    else if (c == '{' || c == '[') ++depth;
    else if (c == '}' || c == ']') {
      if (--depth == 0) return i + 1;
    } else if (static_cast<unsigned char>(c) < 0x09) {
      return std::string_view::npos;
    }
  }
  return std::string_view::npos;
}

std::vector<size_t> reference_objects(std::string_view s) {
  std::vector<size_t> out;
  StrictJsonParser parser{Limits{}};
  for (size_t p = s.find('{'); p != std::string_view::npos; p = s.find('{', p + 1)) {
    const size_t end = reference_object_end(s, p);
    if (end == std::string_view::npos) continue;
    auto root = parser.parse_copy(s.substr(p, end - p), -1);
    simdjson::dom::object o;
    if (!root || root->get(o)) continue;
    out.push_back(p);
    p = end - 1;
  }
  return out;
}

TEST(Coop, TheOnePassBraceMatcherFindsWhatEachBraceFound) {
  constexpr std::string_view kPieces[] = {"{", "}", "[", "]", "\"", "\\", ":", ",", "1", "\"a\"", "{}", "\x01", "\n",
                                          "{\"k\":", "\"x\":1}", " "};
  uint64_t seed = 0x2545F4914F6CDD1DULL;
  const auto next = [&] {
    seed ^= seed << 13;
    seed ^= seed >> 7;
    seed ^= seed << 17;
    return seed;
  };
  size_t objects = 0;
  for (int round = 0; round < 4000; ++round) {
    std::string s;
    const size_t n = next() % 40;
    for (size_t i = 0; i < n; ++i) s += kPieces[next() % std::size(kPieces)];
    std::vector<size_t> found;
    for_each_embedded_object(s, [&](size_t offset, simdjson::dom::object) { found.push_back(offset); }, Limits{});
    EXPECT_EQ(found, reference_objects(s)) << s;
    objects += found.size();
  }
  EXPECT_GT(objects, 1000u);  // the inputs do hold objects
}

}  // namespace
}  // namespace goalcup::cheat
