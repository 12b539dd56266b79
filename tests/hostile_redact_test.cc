// Hostile uses of `goalcup-cheatcheck redact -o`: the output is the input
// (however spelled), a failed or killed run, a full disk, outputs that are
// not regular files. Whatever happens, the input and an existing output are
// unchanged unless the whole copy was written, and no temporary file is left.
// Part of the hostile suite (hostile_tests, also run under ASan and UBSan).
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <set>
#include <thread>

#include "cli/output_file.h"
#include "tests/hostile_limits.h"
#include "tests/support.h"

namespace goalcup {
namespace {

namespace fs = std::filesystem;

constexpr int kHardSeconds = testing::kHostileHardSeconds;

struct RunOptions {
  std::string stdout_path = "/dev/null";
  rlim_t max_file_bytes = RLIM_INFINITY;  // RLIMIT_FSIZE: writes past it fail with EFBIG
  int kill_after_ms = -1;                 // SIGKILL after this long
};

struct Ran {
  int exit_code = -1;
  bool killed = false, timed_out = false;
};

Ran run(const std::vector<std::string>& argv, const RunOptions& o = {}) {
  std::vector<std::string> copy = argv;
  std::vector<char*> args;
  for (auto& a : copy) args.push_back(a.data());
  args.push_back(nullptr);
  const pid_t pid = ::fork();
  if (pid == 0) {
    const int out = ::open(o.stdout_path.c_str(), O_WRONLY);
    const int null = ::open("/dev/null", O_RDWR);
    ::dup2(null, STDIN_FILENO);
    ::dup2(out, STDOUT_FILENO);
    ::dup2(null, STDERR_FILENO);
    if (o.max_file_bytes != RLIM_INFINITY) {
      ::signal(SIGXFSZ, SIG_IGN);  // stays ignored across exec: the write fails instead
      rlimit r{o.max_file_bytes, o.max_file_bytes};
      ::setrlimit(RLIMIT_FSIZE, &r);
    }
    ::execv(args[0], args.data());
    ::_exit(127);
  }
  Ran r;
  const auto start = std::chrono::steady_clock::now();
  int status = 0;
  for (;;) {
    if (::waitpid(pid, &status, WNOHANG) == pid) break;
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start).count();
    if ((o.kill_after_ms >= 0 && ms >= o.kill_after_ms) || ms > kHardSeconds * 1000) {
      r.timed_out = o.kill_after_ms < 0;
      ::kill(pid, SIGKILL);
      ::waitpid(pid, &status, 0);
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  r.killed = WIFSIGNALED(status);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

std::string read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_all(const std::string& path, const std::string& bytes) { std::ofstream(path, std::ios::binary) << bytes; }

std::set<std::string> names_in(const std::string& dir) {
  std::set<std::string> out;
  for (const auto& e : fs::directory_iterator(dir)) out.insert(e.path().filename().string());
  return out;
}

// A fresh folder holding a trace with a planted credential, so that redact
// has something to replace.
class Redact : public ::testing::Test {
 protected:
  void SetUp() override {
    static int n = 0;
    dir_ = testing::temp_dir() + "/redact-" + std::to_string(n++);
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    fixtures::TraceSpec spec;
    spec.plants = {"secret-plain"};
    trace_bytes_ = fixtures::join(fixtures::conversation_lines(spec, testing::dev_key()));
    trace_ = dir_ + "/t.jsonl";
    write_all(trace_, trace_bytes_);
  }
  std::vector<std::string> redact(const std::string& in, const std::string& out) const {
    return {GOALCUP_CHEATCHECK_BIN, "redact", "--key", testing::source_path("fixtures/keys/dev-key.json"), in, "-o", out};
  }
  // The input is as it was and nothing but `expected` names are in the folder.
  void expect_untouched(const std::set<std::string>& expected) const {
    EXPECT_EQ(read_all(trace_), trace_bytes_) << "the input changed";
    EXPECT_EQ(names_in(dir_), expected) << "a temporary file was left behind, or one went missing";
  }
  std::string dir_, trace_, trace_bytes_;
};

TEST_F(Redact, WritesAVerifiableCopyAndReplacesAnOutputOnlyWhenWhole) {
  const std::string out = dir_ + "/out.jsonl";
  write_all(out, "an older copy\n");
  ::chmod(out.c_str(), 0600);
  const Ran r = run(redact(trace_, out));
  EXPECT_EQ(r.exit_code, 0);
  const std::string copy = read_all(out);
  EXPECT_NE(copy, trace_bytes_);
  EXPECT_NE(copy.find("[REDACTED:"), std::string::npos);
  EXPECT_EQ(copy.back(), '\n');
  struct stat st {};
  ASSERT_EQ(::stat(out.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u) << "the replaced output keeps its mode";
  expect_untouched({"t.jsonl", "out.jsonl"});
  const auto verified = testing::run_command(std::string(GOALCUP_VERIFY_BIN) + " --no-progress --dev-key " +
                                             testing::source_path("fixtures/keys/dev-key.json") + " " + out);
  EXPECT_EQ(verified.exit_code, 0) << verified.out;
  // To stdout: the same bytes.
  const std::string piped = dir_ + "/piped";
  write_all(piped, "");
  EXPECT_EQ(run(redact(trace_, "-"), {.stdout_path = piped}).exit_code, 0);
  EXPECT_EQ(read_all(piped), copy);
}

TEST_F(Redact, RefusesAnOutputThatIsTheInputHoweverSpelled) {
  fs::create_directories(dir_ + "/sub");
  fs::create_symlink("t.jsonl", dir_ + "/link");
  fs::create_hard_link(trace_, dir_ + "/hard");
  const std::set<std::string> all = {"t.jsonl", "sub", "link", "hard"};
  for (const std::string& out : {trace_, dir_ + "/sub/../t.jsonl", dir_ + "/link", dir_ + "/hard", dir_ + "/./t.jsonl"}) {
    SCOPED_TRACE(out);
    const Ran r = run(redact(trace_, out));
    EXPECT_EQ(r.exit_code, 2);
    expect_untouched(all);
  }
  // The input through a link, the output the file itself.
  EXPECT_EQ(run(redact(dir_ + "/link", trace_)).exit_code, 2);
  EXPECT_EQ(run(redact(dir_ + "/hard", trace_)).exit_code, 2);
  expect_untouched(all);
  // A submission folder: its trace, or a new file inside it.
  const std::string sub = dir_ + "/sub";
  write_all(sub + "/trace.jsonl", trace_bytes_);
  EXPECT_EQ(run(redact(sub, sub + "/trace.jsonl")).exit_code, 2);
  EXPECT_EQ(run(redact(sub, sub + "/new.jsonl")).exit_code, 2);
  EXPECT_EQ(read_all(sub + "/trace.jsonl"), trace_bytes_);
  EXPECT_EQ(names_in(sub), std::set<std::string>{"trace.jsonl"});
  // The signing key is an input too.
  const std::string key_copy = dir_ + "/key.json";
  fs::copy_file(testing::source_path("fixtures/keys/dev-key.json"), key_copy);
  const std::string key_bytes = read_all(key_copy);
  EXPECT_EQ(run({GOALCUP_CHEATCHECK_BIN, "redact", "--key", key_copy, trace_, "-o", key_copy}).exit_code, 2);
  EXPECT_EQ(read_all(key_copy), key_bytes);
}

TEST_F(Redact, AFailedRunLeavesTheExistingOutputAndNoTemporaryFile) {
  const std::string out = dir_ + "/out.jsonl", bad = dir_ + "/bad.jsonl";
  write_all(out, "an older copy\n");
  // A trace cut mid-line, after many good records: the rewrite fails late.
  write_all(bad, trace_bytes_.substr(0, trace_bytes_.size() - 10));
  EXPECT_EQ(run(redact(bad, out)).exit_code, 2);
  EXPECT_EQ(read_all(out), "an older copy\n");
  // Malformed from the start; a missing key file.
  write_all(bad, "{\"seq\":0}\n");
  EXPECT_EQ(run(redact(bad, out)).exit_code, 2);
  EXPECT_EQ(run({GOALCUP_CHEATCHECK_BIN, "redact", "--key", dir_ + "/missing.json", trace_, "-o", out}).exit_code, 2);
  EXPECT_EQ(read_all(out), "an older copy\n");
  expect_untouched({"t.jsonl", "out.jsonl", "bad.jsonl"});
}

TEST_F(Redact, AWriteThatFailsIsAFailure) {
  // A full disk: stdout on /dev/full.
  EXPECT_EQ(run(redact(trace_, "-"), {.stdout_path = "/dev/full"}).exit_code, 2);
  // A file size limit: the copy cannot be written whole.
  const std::string out = dir_ + "/out.jsonl";
  write_all(out, "an older copy\n");
  const Ran r = run(redact(trace_, out), {.max_file_bytes = 4096});
  EXPECT_FALSE(r.killed);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(read_all(out), "an older copy\n");
  expect_untouched({"t.jsonl", "out.jsonl"});
}

TEST_F(Redact, RefusesOutputsThatAreNotRegularFilesWithoutBlocking) {
  const std::string fifo = dir_ + "/fifo", folder = dir_ + "/folder", dangling = dir_ + "/dangling";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  fs::create_directories(folder);
  fs::create_symlink("nowhere", dangling);
  for (const std::string& out : {fifo, folder, dangling, std::string("/dev/full"), std::string("/dev/null"),
                                 dir_ + "/no-such-folder/x.jsonl", folder + "/"}) {
    SCOPED_TRACE(out);
    const auto start = std::chrono::steady_clock::now();
    const Ran r = run(redact(trace_, out));
    EXPECT_FALSE(r.timed_out) << "blocked";
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
    EXPECT_EQ(r.exit_code, 2);
  }
  expect_untouched({"t.jsonl", "fifo", "folder", "dangling"});
  EXPECT_TRUE(fs::is_empty(folder));
}

TEST_F(Redact, AKillMidRunLeavesTheOldOutputOrTheWholeNewOne) {
  // A trace big enough that the rewrite takes a while.
  fixtures::TraceSpec spec;
  spec.plants = {"secret-plain"};
  spec.target_bytes = kHardSeconds > 20 ? 1 << 20 : 4 << 20;  // the sanitized build is slower
  trace_bytes_ = fixtures::join(fixtures::conversation_lines(spec, testing::dev_key()));
  write_all(trace_, trace_bytes_);
  const std::string out = dir_ + "/out.jsonl";
  const auto start = std::chrono::steady_clock::now();
  ASSERT_EQ(run(redact(trace_, out)).exit_code, 0);
  const auto full_ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start).count();
  const std::string whole = read_all(out);
  int killed_mid_run = 0;
  for (int percent : {10, 40, 70}) {
    SCOPED_TRACE(std::to_string(percent) + "% of " + std::to_string(full_ms) + " ms");
    write_all(out, "an older copy\n");
    const Ran r = run(redact(trace_, out), {.kill_after_ms = static_cast<int>(full_ms * percent / 100)});
    killed_mid_run += r.killed;
    const std::string now = read_all(out);
    EXPECT_TRUE(now == "an older copy\n" || (!r.killed && now == whole)) << now.size() << " bytes";
    expect_untouched({"t.jsonl", "out.jsonl"});
  }
  EXPECT_GT(killed_mid_run, 0) << "no run was killed before it finished";
}

TEST_F(Redact, InspectHtmlWritesTheSameWay) {
  const std::string page = dir_ + "/page.html";
  auto html = [&](const std::string& out) {
    return run({GOALCUP_INSPECT_BIN, "--dev-key", testing::source_path("fixtures/keys/dev-key.json"), "html", trace_, "-o", out});
  };
  EXPECT_EQ(html(trace_).exit_code, 2);
  EXPECT_EQ(html("/dev/full").exit_code, 2);
  write_all(page, "old page");
  EXPECT_EQ(run({GOALCUP_INSPECT_BIN, "html", trace_, "-o", page}, {.max_file_bytes = 1024}).exit_code, 2);
  EXPECT_EQ(read_all(page), "old page");
  expect_untouched({"t.jsonl", "page.html"});
  EXPECT_EQ(html(page).exit_code, 0);
  EXPECT_NE(read_all(page).find("<html"), std::string::npos);
  expect_untouched({"t.jsonl", "page.html"});
}

TEST(OutputFile, NothingChangesUntilCommit) {
  const std::string dir = testing::temp_dir() + "/output-file";
  fs::create_directories(dir);
  const std::string path = dir + "/o.txt";
  write_all(path, "old");
  {
    auto f = OutputFile::create(path);
    ASSERT_TRUE(f) << f.error().message;
    EXPECT_TRUE(f->write("new").ok());
    EXPECT_EQ(read_all(path), "old");
  }  // dropped without commit
  EXPECT_EQ(read_all(path), "old");
  EXPECT_EQ(names_in(dir), std::set<std::string>{"o.txt"});
  auto f = OutputFile::create(path);
  ASSERT_TRUE(f);
  EXPECT_TRUE(f->write("new").ok());
  EXPECT_TRUE(f->commit().ok());
  EXPECT_EQ(read_all(path), "new");
  EXPECT_EQ(names_in(dir), std::set<std::string>{"o.txt"});
  auto same = OutputFile::create(path, {dir + "/../output-file/o.txt"});
  ASSERT_FALSE(same);
  EXPECT_EQ(same.error().code, Code::usage);
}

// A write of a megabyte or more goes out unbuffered (a long line was
// copied into the buffer, which then kept its size): after what was
// buffered before it and before what follows, and still nothing is seen
// at the path until commit.
TEST(OutputFile, LongWritesKeepTheirPlaceAmongBufferedOnes) {
  const std::string dir = testing::temp_dir() + "/output-file-long";
  fs::create_directories(dir);
  const std::string path = dir + "/o.txt";
  const std::string small = "a short line\n";
  const std::string long_line = std::string(3 << 20, 'x') + "\n";
  auto f = OutputFile::create(path);
  ASSERT_TRUE(f) << f.error().message;
  EXPECT_TRUE(f->write(small).ok());
  EXPECT_TRUE(f->write(long_line).ok());
  EXPECT_TRUE(f->write(small).ok());
  EXPECT_TRUE(f->write(long_line).ok());
  EXPECT_FALSE(fs::exists(path));
  EXPECT_TRUE(f->commit().ok());
  EXPECT_EQ(read_all(path), small + long_line + small + long_line);
}

TEST(OutputFile, ARenameDoesNotReplaceAReadOnlyFile) {
  if (::geteuid() == 0) GTEST_SKIP() << "root may write any file: nothing to refuse";
  const std::string dir = testing::temp_dir() + "/read-only";
  fs::create_directories(dir);
  const std::string path = dir + "/o.txt";
  write_all(path, "old");
  ::chmod(path.c_str(), 0444);
  auto f = OutputFile::create(path);
  ASSERT_FALSE(f);
  EXPECT_EQ(read_all(path), "old");
}

}  // namespace
}  // namespace goalcup
