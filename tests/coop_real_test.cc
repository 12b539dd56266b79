// The coop audit against coop-real (../shared/corpora/coop-real): real redb
// files written by redb 2.6.3 with coop's tables and values, every planted
// secret listed with its live rows; read at test time, never copied.
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <xxhash.h>

#include <filesystem>
#include <fstream>

#include "cheatcheck/coop/audit.h"
#include "cheatcheck/coop/redb_reader.h"
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
  const testing::MeasuredRun run = testing::measured({GOALCUP_CHEATCHECK_BIN, mode, path});
  const pid_t pid = fork();
  if (pid == 0) {
    const int null = ::open("/dev/null", O_WRONLY);
    dup2(null, 1);
    std::vector<char*> args;
    for (const auto& a : run.argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execv(args[0], args.data());
    _exit(127);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  return testing::peak_rss_kb(run);
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

// Under the 2 MiB parse bound, a list of 200,000 one-letter tools is as
// many yaml-cpp nodes (~100 MB as a tree; a million at 2 MiB, half a
// gigabyte): it is counted from the parser's events and not built, and
// says so; a manifest of few nodes
// but a long text is still checked (review 16c #16).
TEST(CoopReal, AManifestOfManyNodesStaysSmall) {
  const std::string head = "spec_version: coop/v1\nname: aria\nbrain: {provider_id: p, model: m}\n";
  std::string tools = "tools: [a";
  for (int i = 0; i < 199'000; ++i) tools += ",a";
  const std::string many = testing::write_temp("many-nodes.yaml", head + tools + "]\n");
  const CheatReport r = audit_manifest(many, Limits{}, Policy{});
  ASSERT_EQ(r.findings.size(), 1u);
  EXPECT_EQ(r.findings[0].severity, Severity::warning);
  EXPECT_NE(r.findings[0].message.find("not checked"), std::string::npos) << r.findings[0].message;
  EXPECT_LT(peak_rss_kib(many, "manifest"), kLimitKib);

  const std::string prompt = "personality:\n  system_prompt: \"" + std::string(1'500'000, 'x') + "\"\n";
  const std::string refused = "spec_version: coop/v2\nname: aria\nbrain: {provider_id: p, model: m}\n" + prompt;
  const CheatReport long_text = audit_manifest(testing::write_temp("long-prompt.yaml", refused), Limits{}, Policy{});
  ASSERT_EQ(long_text.findings.size(), 1u);
  EXPECT_EQ(long_text.findings[0].check, "MAN01");
  EXPECT_EQ(long_text.findings[0].severity, Severity::high);
}

// Hand-made redb files in the shapes a hostile upload can take (file format
// 2, 4 KiB pages, one region, redb's XXH3-128 checksums), written sparse:
// only the bytes put are on disk.
class HostileRedb {
 public:
  static constexpr uint64_t kPage = 4096;

  explicit HostileRedb(const std::string& path) : fd_(::open(path.c_str(), O_RDWR | O_CREAT | O_TRUNC, 0600)) {}
  ~HostileRedb() { ::close(fd_); }
  HostileRedb(const HostileRedb&) = delete;
  HostileRedb& operator=(const HostileRedb&) = delete;

  static std::string le(uint64_t v, size_t bytes) {
    std::string s(bytes, '\0');
    for (size_t i = 0; i < bytes; ++i) s[i] = static_cast<char>((v >> (8 * i)) & 0xff);
    return s;
  }
  static std::string checksum(std::string_view data) {
    const XXH128_hash_t h = XXH3_128bits(data.data(), data.size());
    return le(h.low64, 8) + le(h.high64, 8);
  }
  // redb's PageNumber (region 0) and where that page starts in the file.
  static uint64_t number(uint64_t index, unsigned order) { return (uint64_t{order} << 59) | index; }
  static uint64_t start(uint64_t index, unsigned order) { return kPage + index * (kPage << order); }

  // A leaf page of variable-width entries; returns its checksum.
  std::string leaf(uint64_t index, unsigned order, const std::vector<std::pair<std::string, std::string>>& rows) {
    std::string ends, keys, values;
    size_t at = 4 + 8 * rows.size();
    for (const auto& [k, v] : rows) ends += le(at += k.size(), 4), keys += k;
    for (const auto& [k, v] : rows) ends += le(at += v.size(), 4), values += v;
    return put_page(index, order, std::string("\x01\x00", 2) + le(rows.size(), 2) + ends + keys + values);
  }

  // A branch page over `children` (page number, checksum) with one-byte
  // separator keys (empty ones past 1,024 children: only the last key end
  // is checked); returns its checksum.
  std::string branch(uint64_t index, unsigned order, const std::vector<std::pair<uint64_t, std::string>>& children) {
    const size_t keys = children.size() - 1;
    const bool empty_keys = children.size() > 1024;
    std::string sums, numbers, ends, separators;
    for (const auto& [n, sum] : children) sums += sum, numbers += le(n, 8);
    const size_t keys_at = 8 + 24 * children.size() + 4 * keys;
    for (size_t i = 0; i < keys; ++i) {
      if (empty_keys) {
        ends += le(i + 1 == keys ? keys_at : 0, 4);
      } else {
        ends += le(keys_at + i + 1, 4), separators += static_cast<char>('a' + i % 26);
      }
    }
    return put_page(index, order, std::string("\x02\x00", 2) + le(keys, 2) + std::string(4, '\0') + sums + numbers + ends + separators);
  }

  // The table tree's value for a table of &str keys and &[u8] values.
  static std::string table(uint64_t root, const std::string& sum, uint64_t rows) {
    return "\x03" + le(rows, 8) + "\x01" + le(root, 8) + sum + le(rows, 8) + std::string(10, '\0') + le(1, 4) + le(1, 4) +
           le(5, 4) + "\x02&str\x02&[u8]";
  }

  // The super-header: slot 0 primary, its user tree at `root`; the file
  // then ends at `size`.
  void finish(uint64_t root, const std::string& sum, uint64_t size) {
    std::string slot = "\x02\x01" + std::string(6, '\0') + le(root, 8) + sum + le(1, 8);
    slot += std::string(104 - slot.size(), '\0') + le(7, 8);
    slot += checksum(slot);
    std::string header = "redb\x1A\x0A\xA9\x0D\x0A";
    header += std::string(3, '\0') + le(kPage, 4) + le(0, 4) + le(1u << 20, 4);
    header.resize(64, '\0');
    put(0, header + slot);
    EXPECT_EQ(::ftruncate(fd_, static_cast<off_t>(size)), 0);
  }

 private:
  // Blocks of zeros are left as holes.
  std::string put_page(uint64_t index, unsigned order, const std::string& bytes) {
    for (size_t at = 0; at < bytes.size(); at += kPage) {
      const std::string_view block = std::string_view(bytes).substr(at, kPage);
      if (block.find_first_not_of('\0') != std::string_view::npos) put(start(index, order) + at, block);
    }
    return checksum(bytes);
  }
  void put(uint64_t at, std::string_view bytes) {
    ASSERT_EQ(::pwrite(fd_, bytes.data(), bytes.size(), static_cast<off_t>(at)), static_cast<ssize_t>(bytes.size()));
  }
  int fd_;
};

// A table whose one branch has 64 children, each a leaf of order 12 (16
// MiB) that uses 20 bytes: 1 GiB apparent, a few blocks on disk.
std::string wide_pages_dir(const std::string& name) {
  std::string dir = testing::temp_dir() + "/" + name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  ::chmod(dir.c_str(), 0700);
  HostileRedb file(dir + "/state.redb");
  constexpr unsigned kOrder = 12;
  std::vector<std::pair<uint64_t, std::string>> children;
  for (uint64_t i = 1; i <= 64; ++i) {
    char key[8];
    std::snprintf(key, sizeof key, "k%02u", static_cast<unsigned>(i));
    children.emplace_back(HostileRedb::number(i, kOrder), file.leaf(i, kOrder, {{key, "{}"}}));
  }
  const std::string branch_sum = file.branch(1, 0, children);
  const std::string tables_sum = file.leaf(0, 0, {{"t", HostileRedb::table(HostileRedb::number(1, 0), branch_sum, 64)}});
  file.finish(HostileRedb::number(0, 0), tables_sum, HostileRedb::start(65, kOrder));
  return dir;
}

// Each page is read as far as its checksum covers, not whole: 64 pages of
// 16 MiB that use 20 bytes each cost kilobytes, not a gigabyte, and every
// child of the branch is visited, in key order (review 16c #04).
TEST(CoopReal, AWidePageCostsOnlyTheBytesItUses) {
  const std::string dir = wide_pages_dir("coop-wide-pages");
  const int fd = ::open((dir + "/state.redb").c_str(), O_RDONLY);
  ASSERT_GE(fd, 0);
  std::vector<std::string> keys;
  RedbCallbacks cb;
  cb.on_row = [&](const RedbRow& row) { keys.emplace_back(row.key); };
  const RedbReadResult r = read_redb(fd, fs::file_size(dir + "/state.redb"), cb);
  ::close(fd);
  ASSERT_TRUE(r.understood) << r.why;
  ASSERT_EQ(keys.size(), 64u);
  EXPECT_TRUE(std::is_sorted(keys.begin(), keys.end()));
  EXPECT_EQ(keys.front(), "k01");
  EXPECT_LT(r.bytes_read, 4u << 20) << "a page is read only as far as its checksum covers";
}

// --max-seconds bounds the coop audit as it bounds any upload: past it,
// the directory is not judged (an error, exit 2), never judged in part.
TEST(CoopReal, TheTimeBudgetBoundsTheCoopAudit) {
  const std::string dir = wide_pages_dir("coop-time-budget");
  const CheatReport judged = audit_coop_dir(dir, Limits{}, Policy{});
  EXPECT_EQ(judged.verify.verdict, Verdict::verified);
  EXPECT_TRUE(judged.verify.errors.empty());
  Limits no_time;
  no_time.max_seconds = 0;  // the budget is spent before the first read
  const CheatReport cut = audit_coop_dir(dir, no_time, Policy{});
  EXPECT_EQ(cut.verify.verdict, Verdict::error);
  ASSERT_FALSE(cut.verify.errors.empty());
  EXPECT_EQ(cut.verify.errors[0].code, Code::limit_time) << cut.verify.errors[0].message;
}

// A chain of 65 branch pages, each declaring 65,536 children (only child 0
// real): the walk keeps one frame per level, not every child, and stops at
// depth 64 before reading deeper (review 16c #03: 270 MB before).
TEST(CoopReal, WideBranchesChainedDeepStayFarUnder64MiB) {
  const std::string dir = testing::temp_dir() + "/coop-deep-wide";
  fs::remove_all(dir);
  fs::create_directories(dir);
  ::chmod(dir.c_str(), 0700);
  {
    HostileRedb file(dir + "/state.redb");
    // Under sanitizers the bound is not measured: fewer children on 32 KiB
    // pages make the same 65 levels (the depth refusal and memory safety
    // are what is run); 2 MiB pages took 50 s of the sanitizer stage.
    constexpr unsigned kOrder = kMeasureBounds ? 9 : 3;  // 2 MiB pages: 65,536 children fit
    constexpr uint64_t kLevels = 65;
    uint64_t child = 0;
    std::string sum(16, '\0');
    const size_t width = kMeasureBounds ? 65536 : 1024;
    std::vector<std::pair<uint64_t, std::string>> children(width, {0, std::string(16, '\0')});
    for (uint64_t level = kLevels; level >= 1; --level) {
      children[0] = {child, sum};
      sum = file.branch(level, kOrder, children);
      child = HostileRedb::number(level, kOrder);
    }
    file.finish(child, sum, HostileRedb::start(kLevels + 2, kOrder));
  }
  const CheatReport r = audit_coop_dir(dir, Limits{}, Policy{});
  bool deep = false;
  for (const auto& f : r.findings) deep |= f.message.find("a tree deeper than 64") != std::string::npos;
  EXPECT_TRUE(deep) << "the file is not read as redb, and says why";
  EXPECT_LT(peak_rss_kib(dir), kLimitKib);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace goalcup::cheat
