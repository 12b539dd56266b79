#include "tests/support.h"

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>

namespace goalcup::testing {

std::string source_path(const std::string& relative) { return std::string(GOALCUP_SOURCE_DIR) + "/" + relative; }
std::string sample_path(const std::string& name) { return source_path("fixtures/samples/" + name); }

std::string shared_dir() {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (const char* env = std::getenv("GOALCUP_SHARED_DIR"); env != nullptr && fs::is_directory(env, ec)) return env;
  // CI clones the repository into a folder of its own with shared/ beside it;
  // a developer's worktree may sit one or two levels further down.
  fs::path dir = fs::weakly_canonical(GOALCUP_SOURCE_DIR, ec);
  for (int up = 0; up < 4 && dir.has_parent_path() && dir != dir.parent_path(); ++up) {
    dir = dir.parent_path();
    if (fs::is_regular_file(dir / "shared" / "spec" / "TRACE-FORMAT.md", ec)) return (dir / "shared").string();
  }
  return "";
}

namespace {
std::string shared_subdir(const char* name) {
  const std::string root = shared_dir();
  std::error_code ec;
  return !root.empty() && std::filesystem::is_directory(root + "/" + name, ec) ? root + "/" + name : "";
}
}  // namespace

std::string shared_samples_dir() { return shared_subdir("samples"); }
std::string corpora_dir() { return shared_subdir("corpora"); }

std::string random_chars(size_t n, uint32_t seed, std::string_view alphabet) {
  std::string out;
  uint64_t x = 0x9E3779B97F4A7C15ull * (seed + 1);
  for (size_t i = 0; i < n; ++i) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;  // xorshift64
    out += alphabet[x % alphabet.size()];
  }
  return out;
}

fixtures::TraceBuilder trace_builder(fixtures::TraceBuilder::Sink sink) {
  return fixtures::TraceBuilder(dev_key(), "0123456789abcdef", "00000000-0000-4000-a000-000000000000",
                                Timestamp{1795687200LL * 1000000000LL}, std::move(sink));
}

const fixtures::SigningKey& dev_key() {
  static const auto key = fixtures::SigningKey::from_file(source_path("fixtures/keys/dev-key.json"));
  return key;
}

Keyring dev_keyring() {
  Keyring ring = Keyring::production();
  auto key = Keyring::supplied_from_base64(dev_key().public_key_base64());
  EXPECT_TRUE(key.ok());
  ring.add(*key);
  return ring;
}

VerifyReport verify_bytes(const std::string& bytes, const Keyring& ring, Limits limits) {
  WalkOptions opt;
  opt.limits = limits;
  opt.keyring = &ring;
  bool zstd = false;
  auto src = sniff_compression(memory_source(bytes), limits, &zstd);
  EXPECT_TRUE(src.ok());
  return walk_source(std::move(*src), opt);
}

VerifyReport verify_lines(const fixtures::Lines& lines, const Keyring& ring) {
  return verify_bytes(fixtures::join(lines), ring);
}

fixtures::Lines valid_trace(fixtures::HarnessStyle style, fixtures::Ending ending, uint32_t turns) {
  fixtures::TraceSpec spec;
  spec.style = style;
  spec.ending = ending;
  spec.turns = turns;
  spec.ack_every = 5;
  return fixtures::conversation_lines(spec, dev_key());
}

bool has_error(const VerifyReport& r, Code code) {
  for (const auto& t : r.errors_by_code) {
    if (t.code == code) return true;
  }
  for (const auto& e : r.errors) {
    if (e.code == code) return true;
  }
  return false;
}

std::string error_codes(const VerifyReport& r) {
  std::string s;
  for (const auto& e : r.errors) s += std::string(code_name(e.code)) + "@" + std::to_string(e.seq) + " ";
  return s.empty() ? "(none)" : s;
}

CommandResult run_command(const std::string& command) {
  CommandResult r;
  FILE* p = ::popen((command + " 2>/dev/null").c_str(), "r");
  if (!p) return r;
  char buf[4096];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
  int status = ::pclose(p);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

namespace {

// A test process's scratch folder, removed when the process that made it
// ends (not a forked child's exit): ctest starts a process per test, and
// the hostile cases write hundreds of MB each, so folders left behind fill
// a disk within a few runs. GOALCUP_KEEP_TEST_FILES=1 keeps them to look at.
class ScratchDir {
 public:
  ScratchDir() {
    char tmpl[] = "/tmp/goalcup-test-XXXXXX";
    if (::mkdtemp(tmpl) != nullptr) path_ = tmpl;
  }
  ~ScratchDir() {
    if (path_.empty() || ::getpid() != owner_ || std::getenv("GOALCUP_KEEP_TEST_FILES") != nullptr) return;
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  pid_t owner_ = ::getpid();
};

}  // namespace

std::string temp_dir() {
  static const ScratchDir dir;
  return dir.path();
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

std::string write_temp(const std::string& name, const std::string& bytes) {
  std::string path = temp_dir() + "/" + name;
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

}  // namespace goalcup::testing
