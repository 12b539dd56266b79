// The coop audit against coop-real (../shared/corpora/coop-real): real redb
// files written by redb 2.6.3 with coop's tables and values, every planted
// secret listed with its live rows; read at test time, never copied.
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "cheatcheck/coop/audit.h"
#include "core/json_strict.h"
#include "core/sha256.h"
#include "tests/support.h"

namespace goalcup::cheat {
namespace {

namespace fs = std::filesystem;

// data.tar.gz unpacked once into a temporary folder.
std::string unpacked() {
  static const std::string dir = [] {
    const std::string corpora = testing::corpora_dir();
    const std::string src = corpora + "/coop-real";
    if (corpora.empty() || !fs::is_regular_file(src + "/data.tar.gz")) return std::string();
    const std::string out = testing::temp_dir() + "/coop-real";
    fs::remove_all(out);
    fs::create_directories(out);
    if (std::system(("tar -xzf '" + src + "/data.tar.gz' -C '" + out + "'").c_str()) != 0) return std::string();
    return out;
  }();
  return dir;
}

#define REQUIRE_CORPUS()                                                                     \
  if (unpacked().empty()) GTEST_SKIP() << "../shared/corpora/coop-real is absent: not tried"

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

std::string text(simdjson::dom::element e) {
  std::string_view v;
  return e.get(v) ? std::string() : std::string(v);
}

int64_t number(simdjson::dom::element e) {
  int64_t v = 0;
  return e.get(v) ? -1 : v;
}

std::string variant_mode(const std::string& variant) { return variant.substr(0, variant.find('-')); }

// Every planted secret: found with its live rows named, stale said right.
TEST(CoopReal, EveryPlantedSecretIsNamedLiveOrStale) {
  REQUIRE_CORPUS();
  const std::string root = unpacked();
  for (const char* variant : {"coop-closed-0700", "coop-closed-loose", "coop-running-0700", "onetxn-closed-0700",
                              "onetxn-running-0700", "compacted-closed-0700"}) {
    SCOPED_TRACE(variant);
    const std::string v = variant;
    const bool running = v.find("running") != std::string::npos;
    auto report = audit_coop_dir(root + "/dirs/" + v, Limits{}, Policy{});
    StrictJsonParser parser{Limits{}};
    auto planted = parser.parse_copy(slurp(root + "/state/planted-" + variant_mode(v) + ".json"), -1);
    ASSERT_TRUE(planted);
    simdjson::dom::array secrets;
    ASSERT_FALSE((*planted)["secrets"].get(secrets));
    for (auto s : secrets) {
      const std::string value = text(s["value"]);
      const std::string sha = to_hex(sha256(value));
      const Finding* found = nullptr;
      for (const auto& f : report.findings) {
        if (f.has_secret && f.secret.secret_sha256 == sha) found = &f;
      }
      simdjson::dom::array live;
      ASSERT_FALSE(s["live_rows"].get(live));
      const int64_t stale = number(s[running ? "stale_copies_in_running_copy" : "stale_copies_in_file"]);
      const int64_t raw = number(s[running ? "raw_copies_in_running_copy" : "raw_copies_in_file"]);
      SCOPED_TRACE(text(s["label"]));
      if (live.size() > 0) {
        ASSERT_NE(found, nullptr);
        EXPECT_EQ(found->severity, Severity::high) << found->message;
        for (auto row : live) {
          const std::string key = text(row["key"]);
          simdjson::dom::array fields;
          ASSERT_FALSE(row["fields"].get(fields));
          for (auto field : fields) {
            const std::string place = text(row["table"]) + " " + key + " " + text(field);
            EXPECT_NE(found->message.find(place), std::string::npos) << place << " not named in: " << found->message;
          }
        }
      } else if (stale > 0) {
        ASSERT_NE(found, nullptr);
        EXPECT_EQ(found->severity, Severity::warning) << found->message;
        EXPECT_NE(found->message.find("stale copy of"), std::string::npos) << found->message;
      } else {
        EXPECT_EQ(raw, 0);
        EXPECT_EQ(found, nullptr) << "no copy is left, yet: " << found->message;
      }
    }
    bool orphan = false;
    for (const auto& f : report.findings) orphan |= f.check == "COOP06" && f.message.find("local-coop__dove") != std::string::npos;
    EXPECT_TRUE(orphan) << "hen dove was deleted; its workdir is left";
    for (const auto& f : report.findings) {
      EXPECT_FALSE(f.check == "COOP06" && f.message.find("local-coop__aria") != std::string::npos) << f.message;
    }
  }
}

// Under AddressSanitizer the runs still happen (for memory safety) but the
// memory is the sanitizer's: the bound is checked in the release build only.
#ifdef GOALCUP_SANITIZED
constexpr bool kMeasureBounds = false;
constexpr long kLimitKib = 1L << 40;
#else
constexpr bool kMeasureBounds = true;
constexpr long kLimitKib = 64 * 1024;
#endif

// Peak RSS of one `goalcup-cheatcheck MODE PATH` run, in KiB.
long peak_rss_kib(const std::string& path, const char* mode = "coop") {
  const pid_t pid = fork();
  if (pid == 0) {
    const int null = ::open("/dev/null", O_WRONLY);
    dup2(null, 1);
    execl(GOALCUP_CHEATCHECK_BIN, GOALCUP_CHEATCHECK_BIN, mode, path.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  int status = 0;
  struct rusage usage {};
  wait4(pid, &status, 0, &usage);
  return usage.ru_maxrss;
}

TEST(CoopReal, PeakMemoryDoesNotFollowTheSizeOfStateRedb) {
  REQUIRE_CORPUS();
  for (const auto& e : fs::directory_iterator(unpacked() + "/dirs")) {
    if (e.is_directory()) {
      EXPECT_LT(peak_rss_kib(e.path().string()), kLimitKib) << e.path();
    }
  }
  // A real state.redb grown to 2 GiB (sparse), and a 2 GiB hole.
  const std::string big = testing::temp_dir() + "/coop-2g";
  for (const bool real : {true, false}) {
    fs::remove_all(big);
    fs::create_directories(big);
    if (real) fs::copy_file(unpacked() + "/dirs/coop-running-0700/state.redb", big + "/state.redb");
    { std::ofstream(big + "/state.redb", std::ios::app); }
    fs::resize_file(big + "/state.redb", 2ull << 30);
    EXPECT_LT(peak_rss_kib(big), kLimitKib) << (real ? "real file grown" : "hole");
  }
  fs::remove_all(big);
}


// coop refuses a manifest when any rule MAN00-MAN10 is high.
bool refuses(const CheatReport& r) {
  for (const auto& f : r.findings) {
    if (f.severity == Severity::high && f.check.starts_with("MAN") && f.check < "MAN11") return true;
  }
  return false;
}

// Every manifest's refuse/accept verdict equals coop's own (parse_yaml,
// then HenId::new at create, then the hatch gate).
TEST(CoopReal, EveryManifestVerdictIsCoops) {
  REQUIRE_CORPUS();
  const std::string root = unpacked() + "/manifests";
  size_t compared = 0;
  for (const char* set : {"real", "derived", "fixture"}) {
    std::ifstream in(root + "/coop-" + set + ".jsonl");
    StrictJsonParser parser{Limits{}};
    for (std::string line; std::getline(in, line);) {
      auto v = parser.parse_copy(line, -1);
      ASSERT_TRUE(v);
      const std::string file = text((*v)["file"]);
      const bool accepted = text((*v)["parse_yaml"]) == "ok" && text((*v)["create"]).starts_with("ok") &&
                            text((*v)["hatch"]) == "ok";
      auto report = audit_manifest(root + "/" + file, Limits{}, Policy{});
      std::string why;
      for (const auto& f : report.findings) why += f.check + " " + f.message + "\n";
      EXPECT_EQ(refuses(report), !accepted) << file << ": coop says " << line << "\nwe say:\n" << why;
      ++compared;
    }
  }
  EXPECT_EQ(compared, 83u);
}

TEST(CoopReal, AFiftyMegabyteManifestStaysSmall) {
  const std::string path = testing::temp_dir() + "/big-manifest.yaml";
  {
    std::ofstream out(path);
    out << "spec_version: coop/v1\nname: big\nbrain:\n  provider_id: main\n  model: m\nmetadata:\n";
    const std::string line = "  k" + std::string(90, 'x');
    // Under sanitizers the bound is not measured; a tenth still runs every path.
    const int keys = kMeasureBounds ? 500000 : 50000;
    for (int i = 0; i < keys; ++i) out << line << i << ": v\n";
  }
  EXPECT_GE(fs::file_size(path), kMeasureBounds ? 45u << 20 : 4u << 20);
  EXPECT_LT(peak_rss_kib(path, "manifest"), kLimitKib);
  fs::remove(path);
}

}  // namespace
}  // namespace goalcup::cheat
