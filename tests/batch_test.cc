// The CI gate and the batch, as a CI job or a contest operator runs them:
// the summary, --quiet, the batch exit rule, --files-from, --batch folders,
// the progress line, and shards run as separate processes then merged.
#include <simdjson.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "cli/json_name.h"
#include "cli/summary.h"
#include "core/keyring.h"
#include "tests/support.h"

namespace goalcup {
namespace {

using testing::run_command;
using testing::sample_path;

std::string verify_cmd(const std::string& args) { return std::string(GOALCUP_VERIFY_BIN) + " --no-progress " + args; }
std::string cheat_cmd(const std::string& args) { return std::string(GOALCUP_CHEATCHECK_BIN) + " --no-progress " + args; }
// stdout and stderr together.
std::string both(const std::string& cmd) { return "(" + cmd + " 2>&1)"; }

std::string last_line(const std::string& out) {
  std::string s = out;
  while (!s.empty() && s.back() == '\n') s.pop_back();
  return s.substr(s.rfind('\n') + 1);
}

// The first line of `out` that holds `what`, "" if none.
std::string line_of(const std::string& out, const std::string& what) {
  const size_t at = out.find(what);
  if (at == std::string::npos) return "";
  const size_t begin = out.rfind('\n', at) == std::string::npos ? 0 : out.rfind('\n', at) + 1;
  return out.substr(begin, out.find('\n', at) - begin);
}

std::string samples(std::initializer_list<const char*> names) {
  std::string s;
  for (const char* n : names) s += " " + sample_path(n);
  return s;
}

TEST(BatchExitRule, FailureOutranksCouldNotJudgeOutranksIncomplete) {
  EXPECT_TRUE(exit_code_worse(1, 2));
  EXPECT_TRUE(exit_code_worse(2, 3));
  EXPECT_TRUE(exit_code_worse(3, 0));
  EXPECT_FALSE(exit_code_worse(0, 3));
  BatchSummary s;
  s.add("a", "verified", 0);
  s.add("b", "error", 2);
  s.add("c", "incomplete", 3);
  EXPECT_EQ(s.exit_code(), 2);
  s.add("d", "invalid", 1);
  EXPECT_EQ(s.exit_code(), 1);
  EXPECT_NE(last_line(s.text(Style::plain())).find("exit 1 (invalid): 1 trace: d"), std::string::npos);
}

TEST(BatchExitRule, InvalidPlusMissingExitsOneFromEveryTool) {
  const std::string args = sample_path("tampered-edit_mid.jsonl") + " /nonexistent.jsonl";
  EXPECT_EQ(run_command(verify_cmd(args)).exit_code, 1);
  EXPECT_EQ(run_command(cheat_cmd(args)).exit_code, 1);
  EXPECT_EQ(run_command(cheat_cmd("--format sarif " + args)).exit_code, 1);
  EXPECT_EQ(run_command(cheat_cmd("/nonexistent.jsonl " + sample_path("codex-verified.jsonl"))).exit_code, 2);
}

TEST(Summary, IsLastOnStdoutAndNamesWhoCausedTheExitCode) {
  auto r = run_command(verify_cmd(samples({"codex-verified.jsonl", "tampered-edit_mid.jsonl", "claude-code-restart.jsonl"}) +
                                  " /nonexistent.jsonl"));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find("summary: 4 traces: "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("1 error, 1 invalid"), std::string::npos) << r.out;
  EXPECT_NE(last_line(r.out).find("exit 1 (invalid): 1 trace: " + sample_path("tampered-edit_mid.jsonl")), std::string::npos)
      << r.out;
  auto c = run_command(cheat_cmd(samples({"codex-verified.jsonl", "claude-code-leaks.jsonl"})));
  EXPECT_NE(c.out.find("summary: 2 traces: 1 passed, 1 failed; findings: "), std::string::npos) << c.out;
  EXPECT_NE(last_line(c.out).find("exit 1 (failed): 1 trace: " + sample_path("claude-code-leaks.jsonl")), std::string::npos)
      << c.out;
}

TEST(Summary, SameTotalsInJsonAndJsonl) {
  simdjson::dom::parser p;
  auto r = run_command(verify_cmd("--format json" + samples({"codex-verified.jsonl", "tampered-edit_mid.jsonl"})));
  auto doc = p.parse(r.out);
  ASSERT_FALSE(doc.error()) << r.out;
  EXPECT_EQ(uint64_t(doc["summary"]["verdicts"]["verified"]), 1u);
  EXPECT_EQ(uint64_t(doc["summary"]["verdicts"]["invalid"]), 1u);
  EXPECT_EQ(int64_t(doc["summary"]["exit_code"]), 1);
  EXPECT_EQ(uint64_t(doc["summary"]["exit_caused_by"]["count"]), 1u);
  auto c = run_command(cheat_cmd("--format jsonl" + samples({"codex-verified.jsonl", "claude-code-leaks.jsonl"})));
  auto line = p.parse(last_line(c.out));
  ASSERT_FALSE(line.error()) << c.out;
  EXPECT_EQ(uint64_t(line["summary"]["inputs"]), 2u);
  EXPECT_GT(uint64_t(line["summary"]["severities"]["high"]), 0u);
  EXPECT_EQ(int64_t(line["summary"]["exit_code"]), 1);
  EXPECT_EQ(std::count(c.out.begin(), c.out.end(), '\n'), 3);  // two reports, the summary
}

TEST(Summary, QuietPrintsOnlyWhatDidNotPass) {
  const std::string args = samples({"codex-verified.jsonl", "tampered-edit_mid.jsonl"});
  auto v = run_command(verify_cmd("-q" + args));
  EXPECT_EQ(v.out.find("codex-verified"), std::string::npos) << v.out;
  EXPECT_NE(v.out.find("edit_mid"), std::string::npos) << v.out;
  EXPECT_NE(v.out.find("summary: 2 traces"), std::string::npos) << v.out;
  auto c = run_command(cheat_cmd("--quiet --format jsonl" + args));
  EXPECT_EQ(c.out.find("codex-verified"), std::string::npos) << c.out;
  EXPECT_EQ(std::count(c.out.begin(), c.out.end(), '\n'), 2);
}

TEST(Summary, SkippedChecksAreSaidOncePerBatch) {
  auto c = run_command(cheat_cmd(samples({"codex-verified.jsonl", "claude-code-restart.jsonl", "claude-code-leaks.jsonl"})));
  size_t n = 0;
  for (size_t at = 0; (at = c.out.find("skipped GC07", at)) != std::string::npos; ++at) ++n;
  EXPECT_EQ(n, 1u) << c.out;
  EXPECT_NE(c.out.find("skipped GC07 for 3 of 3 traces"), std::string::npos) << c.out;
}

TEST(Summary, CouldNotJudgeIsSaidOnStderrInEveryFormat) {
  for (const char* format : {"json", "jsonl", "sarif"}) {
    auto c = run_command("(" + cheat_cmd(std::string("--format ") + format + " /nonexistent.jsonl") + " 2>&1 >/dev/null)");
    EXPECT_NE(c.out.find("could not judge /nonexistent.jsonl: not_found"), std::string::npos) << format << c.out;
  }
  auto v = run_command("(" + verify_cmd("--format json /nonexistent.jsonl") + " 2>&1 >/dev/null)");
  EXPECT_NE(v.out.find("could not judge /nonexistent.jsonl: not_found"), std::string::npos) << v.out;
}

std::string dev_key() { return " --dev-key " + testing::source_path("fixtures/keys/dev-key.json"); }

// A trace that only a key given with --dev-key vouches for (anyone can sign
// with the public development key) is said so in every gate output: -q, the
// summary (text and JSON) of both tools, a one-line note beside its verdict
// (red-team 16c #9). Exit codes stay the verdicts' own.
TEST(Summary, ATraceOnlyASuppliedKeyVouchesForIsSaidInEveryGateOutput) {
  const std::string devkey = sample_path("claude-code-devkey.jsonl");
  auto v = run_command(verify_cmd("-q" + dev_key() + " " + devkey + samples({"codex-verified.jsonl"})));
  EXPECT_EQ(v.exit_code, 0) << v.out;
  EXPECT_NE(v.out.find("summary: 2 traces: 2 verified (1 by a supplied key, not a production key)"), std::string::npos)
      << v.out;
  EXPECT_NE(v.out.find("1 trace vouched for by a key given with --dev-key, not a production key: " + devkey),
            std::string::npos)
      << v.out;
  auto one = run_command(verify_cmd(dev_key() + " " + devkey));
  EXPECT_NE(one.out.find("every statement holds; supplied key, not a production key)"), std::string::npos) << one.out;
  auto c = run_command(cheat_cmd("-q" + dev_key() + " " + devkey));
  EXPECT_EQ(c.exit_code, 0) << c.out;
  EXPECT_NE(c.out.find("1 passed (1 by a supplied key, not a production key)"), std::string::npos) << c.out;
  auto ct = run_command(cheat_cmd(dev_key() + " " + devkey));
  EXPECT_NE(ct.out.find("(verify: verified, supplied key, not a production key; "), std::string::npos) << ct.out;
  simdjson::dom::parser p;
  auto j = run_command(verify_cmd("--format json" + dev_key() + " " + devkey + samples({"codex-verified.jsonl"})));
  auto doc = p.parse(j.out);
  ASSERT_FALSE(doc.error()) << j.out;
  EXPECT_EQ(uint64_t(doc["summary"]["supplied_key"]["count"]), 1u) << j.out;
  EXPECT_EQ(uint64_t(doc["summary"]["supplied_key"]["verdicts"]["verified"]), 1u) << j.out;
  EXPECT_EQ(std::string_view(doc["summary"]["supplied_key"]["files"].at(0).get_string()), devkey) << j.out;
  auto cl = run_command(cheat_cmd("--format jsonl" + dev_key() + " " + devkey));
  auto line = p.parse(last_line(cl.out));
  ASSERT_FALSE(line.error()) << cl.out;
  EXPECT_EQ(uint64_t(line["summary"]["supplied_key"]["verdicts"]["passed"]), 1u) << cl.out;
}

// Traces the pinned keys vouch for print exactly what they printed before,
// --dev-key given or not: no note, no "supplied_key" member.
TEST(Summary, PinnedTracesSayNothingOfASuppliedKey) {
  const std::string args = samples({"codex-verified.jsonl", "claude-code-restart.jsonl", "tampered-edit_mid.jsonl"});
  for (const std::string& how : {std::string("-q"), std::string(""), std::string("--format json"),
                                 std::string("--format jsonl")}) {
    std::string with_key = how;
    with_key += dev_key();
    with_key += args;
    auto plain = run_command(verify_cmd(how + args));
    auto keyed = run_command(verify_cmd(with_key));
    EXPECT_EQ(keyed.out, plain.out) << how;
    EXPECT_EQ(keyed.exit_code, plain.exit_code) << how;
    EXPECT_EQ(keyed.out.find("supplied"), std::string::npos) << how << keyed.out;
    auto cheat_plain = run_command(cheat_cmd(how + args));
    auto cheat_keyed = run_command(cheat_cmd(with_key));
    EXPECT_EQ(cheat_keyed.out, cheat_plain.out) << how;
    EXPECT_EQ(cheat_keyed.out.find("supplied"), std::string::npos) << how << cheat_keyed.out;
  }
}

TEST(Progress, CountsTheVerdictOfEachTraceDone) {
  if (::access("/usr/bin/script", X_OK) != 0) GTEST_SKIP() << "needs script(1) for a terminal on stderr";
  std::string five;
  for (int i = 0; i < 5; ++i) five += " " + sample_path("codex-verified.jsonl");
  auto r = run_command("/usr/bin/script -qec '" + std::string(GOALCUP_VERIFY_BIN) + " -j 2" + five + " >/dev/null' /dev/null");
  EXPECT_NE(r.out.find("[5/5] verified 5"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("error"), std::string::npos) << r.out;
}

class BatchDir : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = testing::temp_dir() + "/batch-" + ::testing::UnitTest::GetInstance()->current_test_info()->name();
    std::filesystem::remove_all(dir_);
    for (const char* sub : {"entry-1", "entry-2/output", "more/entry-3"}) std::filesystem::create_directories(dir_ + "/" + sub);
    copy("codex-verified.jsonl", "entry-1/trace.jsonl");
    copy("claude-code-verified.jsonl.zst", "entry-2/output/trace.jsonl.zst");
    copy("tampered-edit_mid.jsonl", "more/entry-3/trace.jsonl");
    copy("claude-code-sealed-unacked.jsonl", "loose.jsonl");
    std::ofstream(dir_ + "/README.txt") << "not a trace\n";
  }
  void copy(const char* sample, const std::string& to) {
    std::filesystem::copy_file(sample_path(sample), dir_ + "/" + to);
  }
  std::string dir_;
};

TEST_F(BatchDir, BatchWalksEachSubmissionOnItsOwn) {
  simdjson::dom::parser p;
  auto r = run_command(verify_cmd("--batch --format jsonl " + dir_));
  std::vector<std::string> files;
  for (auto doc : p.parse_many(r.out)) {
    std::string_view f;
    if (!doc["file"].get(f)) files.emplace_back(f);
  }
  ASSERT_EQ(files.size(), 4u) << r.out;
  // The highest folder holding one trace is the upload, as reading it alone.
  EXPECT_EQ(files[0], dir_ + "/entry-1");
  EXPECT_EQ(files[1], dir_ + "/entry-2");
  EXPECT_EQ(files[2], dir_ + "/loose.jsonl");
  EXPECT_EQ(files[3], dir_ + "/more");
  EXPECT_EQ(r.exit_code, 1);
  auto c = run_command(cheat_cmd("-r --format jsonl " + dir_));
  EXPECT_EQ(std::count(c.out.begin(), c.out.end(), '\n'), 5) << c.out;
}

// Nothing in the folder that looks like an upload is passed over in silence:
// one compressed with gzip is judged could-not-judge, and so is a link.
TEST_F(BatchDir, UploadsItCannotReadAreCountedOrSaid) {
  std::ofstream(dir_ + "/packed.jsonl.gz") << std::string("\x1f\x8b\x08\x00", 4) << std::string(100, 'x');
  std::filesystem::create_symlink(dir_ + "/loose.jsonl", dir_ + "/linked.jsonl");
  auto r = run_command(both(verify_cmd("--batch " + dir_)));
  EXPECT_NE(r.out.find("packed.jsonl.gz"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("unsupported_format"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("linked.jsonl"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("unsafe_path"), std::string::npos) << r.out;
  EXPECT_EQ(r.exit_code, 1) << r.out;  // entry-3 is invalid: that outranks could-not-judge
}

// An honest batch of uploads, and the same batch with one upload whose trace
// (or whose whole folder) is a symbolic link, as an extracted upload tar can
// hold: the link is an input judged could-not-judge (unsafe_path), in text,
// JSON and SARIF, and the batch exits 2, never 0 with the upload unjudged.
class BatchLinks : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = testing::temp_dir() + "/links-" + ::testing::UnitTest::GetInstance()->current_test_info()->name();
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_ + "/uploads/entry-1");
    std::filesystem::create_directories(dir_ + "/elsewhere/entry");
    std::filesystem::copy_file(sample_path("codex-verified.jsonl"), dir_ + "/uploads/entry-1/trace.jsonl");
    std::filesystem::copy_file(sample_path("tampered-edit_mid.jsonl"), dir_ + "/elsewhere/entry/trace.jsonl");
  }
  std::string uploads() const { return dir_ + "/uploads"; }
  std::string dir_;
};

TEST_F(BatchLinks, AnHonestBatchPasses) {
  auto r = run_command(both(verify_cmd("--batch " + uploads())));
  EXPECT_EQ(r.exit_code, 0) << r.out;
  auto c = run_command(both(cheat_cmd("--batch --format sarif " + uploads())));
  EXPECT_EQ(c.exit_code, 0) << c.out;
}

TEST_F(BatchLinks, ALinkedTraceIsCouldNotJudge) {
  std::filesystem::create_directories(uploads() + "/entry-2");
  std::filesystem::create_symlink(dir_ + "/elsewhere/entry/trace.jsonl", uploads() + "/entry-2/trace.jsonl");
  auto r = run_command(both(verify_cmd("--batch " + uploads())));
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_NE(r.out.find("entry-2"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("unsafe_path"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("summary: 2 traces"), std::string::npos) << r.out;
  auto c = run_command(cheat_cmd("--batch --format sarif " + uploads()));
  EXPECT_EQ(c.exit_code, 2) << c.out;
  EXPECT_NE(c.out.find("entry-2"), std::string::npos) << c.out;
  auto j = run_command(cheat_cmd("--batch --format json " + uploads()));
  EXPECT_EQ(j.exit_code, 2) << j.out;
  EXPECT_NE(j.out.find("unsafe_path"), std::string::npos) << j.out;
}

TEST_F(BatchLinks, ALinkedUploadFolderIsCouldNotJudge) {
  std::filesystem::create_directory_symlink(dir_ + "/elsewhere/entry", uploads() + "/entry-3");
  auto r = run_command(both(verify_cmd("--batch " + uploads())));
  EXPECT_EQ(r.exit_code, 2) << r.out;  // not 1: the tampered target is never read through the link
  EXPECT_NE(r.out.find("entry-3"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("unsafe_path"), std::string::npos) << r.out;
  // Named by the user, a link is followed as before.
  auto alone = run_command(both(verify_cmd(uploads() + "/entry-3")));
  EXPECT_EQ(alone.exit_code, 1) << alone.out;
}

// An upload holding its trace one level down and the entrant's own harness
// log (any *.jsonl) is one submission, judged as the same folder alone: the
// log is not a trace input that fails the gate.
TEST(BatchSubmissions, AnUploadIsJudgedAsItIsAlone) {
  const std::string dir = testing::temp_dir() + "/batch-harness-logs";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir + "/entry-1/output");
  std::filesystem::create_directories(dir + "/entry-1/logs");
  std::filesystem::copy_file(sample_path("codex-verified.jsonl"), dir + "/entry-1/output/trace.jsonl");
  std::ofstream(dir + "/entry-1/logs/rollout.jsonl") << "{\"type\":\"session_meta\"}\n";
  std::ofstream(dir + "/entry-1/src.tar") << "not a tar";
  auto alone = run_command(both(verify_cmd(dir + "/entry-1")));
  EXPECT_EQ(alone.exit_code, 0) << alone.out;
  auto r = run_command(both(verify_cmd("--batch " + dir)));
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("summary: 1 trace: 1 verified"), std::string::npos) << r.out;
  auto c = run_command(both(cheat_cmd("--batch " + dir)));
  EXPECT_EQ(c.exit_code, 0) << c.out;
  // A tampered loose upload next to it is still its own input.
  std::filesystem::copy_file(sample_path("tampered-edit_mid.jsonl"), dir + "/entry-2.jsonl");
  auto bad = run_command(both(verify_cmd("--batch " + dir)));
  EXPECT_EQ(bad.exit_code, 1) << bad.out;
  EXPECT_NE(bad.out.find("summary: 2 traces"), std::string::npos) << bad.out;
}

TEST(Shard, NumbersOutOfRangeAreRefused) {
  for (const char* bad : {"4294967297/2", "0/4294967297", "99999999999999999999/1"}) {
    auto r = run_command(both(verify_cmd(std::string("--shard ") + bad + samples({"codex-verified.jsonl"}))));
    EXPECT_EQ(r.exit_code, 2) << bad << "\n" << r.out;
    EXPECT_NE(r.out.find("--shard wants K/N"), std::string::npos) << r.out;
    auto c = run_command(both(cheat_cmd(std::string("--shard ") + bad + samples({"codex-verified.jsonl"}))));
    EXPECT_EQ(c.exit_code, 2) << bad << "\n" << c.out;
  }
  auto ok = run_command(both(verify_cmd("--shard 4294967294/4294967295" + samples({"codex-verified.jsonl"}))));
  EXPECT_EQ(ok.exit_code, 0) << ok.out;
}

// Shards taken over different input lists (the uploads folder changed
// between matrix jobs) never merge into a batch that looks whole, nor do
// shards of a list naming one file twice.
TEST(Merge, ShardsOfDifferentListsAreRefused) {
  const std::string dir = testing::temp_dir() + "/merge-lists";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::string a = samples({"codex-verified.jsonl"}), b = samples({"tampered-edit_mid.jsonl"}),
                    c = samples({"claude-code-verified.jsonl.zst"});
  for (const std::string& tool : {verify_cmd(""), cheat_cmd("")}) {
    run_command(tool + " --format jsonl --shard 0/2" + a + b + c + " > " + dir + "/s0.jsonl");
    run_command(tool + " --format jsonl --shard 1/2" + a + b + c + " > " + dir + "/s1.jsonl");
    run_command(tool + " --format jsonl --shard 1/2" + b + c + " > " + dir + "/s1-other.jsonl");
    auto same = run_command(both(tool + " merge " + dir + "/s0.jsonl " + dir + "/s1.jsonl"));
    EXPECT_EQ(same.exit_code, 1) << same.out;  // b is invalid, judged once
    auto other = run_command(both(tool + " merge " + dir + "/s0.jsonl " + dir + "/s1-other.jsonl"));
    EXPECT_EQ(other.exit_code, 2) << other.out;
    EXPECT_NE(other.out.find("another input list"), std::string::npos) << other.out;
    run_command(tool + " --format jsonl --shard 0/2" + a + a + " > " + dir + "/d0.jsonl");
    run_command(tool + " --format jsonl --shard 1/2" + a + a + " > " + dir + "/d1.jsonl");
    auto twice = run_command(both(tool + " merge " + dir + "/d0.jsonl " + dir + "/d1.jsonl"));
    EXPECT_EQ(twice.exit_code, 2) << twice.out;
    EXPECT_NE(twice.out.find("is reported twice"), std::string::npos) << twice.out;
  }
}

// A report that could not be written (stdout on /dev/full) is no pass: the
// run says so on stderr and exits 2 (an invalid trace keeps its 1).
TEST(ReportWrite, AFullStdoutIsNoPass) {
  const std::string ok = samples({"codex-verified.jsonl"});
  const std::string file = testing::temp_dir() + "/report-write.out";
  for (const std::string& cmd :
       {verify_cmd("--format json" + ok), cheat_cmd("--format sarif" + ok),
        std::string(GOALCUP_INSPECT_BIN) + " summary --json" + ok}) {
    auto written = run_command(cmd + " > " + file);
    EXPECT_EQ(written.exit_code, 0) << cmd;
    auto full = run_command("((" + cmd + " > /dev/full) 2>&1)");
    EXPECT_EQ(full.exit_code, 2) << cmd << "\n" << full.out;
    EXPECT_NE(full.out.find("could not write the report"), std::string::npos) << full.out;
  }
  auto invalid = run_command("((" + verify_cmd("--format json" + samples({"tampered-edit_mid.jsonl"})) + " > /dev/full) 2>&1)");
  EXPECT_EQ(invalid.exit_code, 1) << invalid.out;
  run_command(verify_cmd("--format jsonl --shard 0/1" + ok) + " > " + file);
  auto merged = run_command("((" + verify_cmd("--format jsonl merge " + file) + " > /dev/full) 2>&1)");
  EXPECT_EQ(merged.exit_code, 2) << merged.out;
}

// A manifest that is a FIFO is refused at once, as trace inputs are, not
// waited on (timeout: without the fix the tool blocks in open()).
TEST(ManifestInput, AFifoIsRefusedNotWaitedOn) {
  const std::string fifo = testing::temp_dir() + "/manifest-fifo.yaml";
  std::filesystem::remove(fifo);
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  auto r = run_command(both("timeout 20 " + cheat_cmd("manifest " + fifo)));
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_NE(r.out.find("not a regular file"), std::string::npos) << r.out;
  const std::string yaml = testing::write_temp("manifest-regular.yaml", "name: aria\n");
  auto regular = run_command(both("timeout 20 " + cheat_cmd("manifest " + yaml)));
  EXPECT_NE(regular.exit_code, 2) << regular.out;
}

TEST_F(BatchDir, WithoutBatchAFolderOfManyGetsAHint) {
  auto r = run_command(both(verify_cmd(dir_)));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.out.find("hint: " + dir_ + " holds 4 traces or submissions"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("--batch"), std::string::npos) << r.out;
  // One submission is no batch: no hint.
  auto one = run_command(both(verify_cmd(dir_ + "/entry-1")));
  EXPECT_EQ(one.out.find("hint:"), std::string::npos) << one.out;
}

TEST(FilesFrom, StdinWithCommentsAndBlankLines) {
  const std::string list = "# traces of round 1\n\n" + sample_path("codex-verified.jsonl") + "\n   \n  # " +
                           sample_path("tampered-edit_mid.jsonl") + "\n" + sample_path("claude-code-restart.jsonl") + "\r\n";
  const std::string path = testing::write_temp("list.txt", list);
  for (const std::string& how : {"--files-from " + path, "--files-from - < " + path}) {
    auto r = run_command(verify_cmd("--format jsonl " + how));
    EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 3) << how << "\n" << r.out;  // two reports, the summary
    EXPECT_EQ(r.out.find("edit_mid"), std::string::npos) << r.out;
    EXPECT_EQ(r.exit_code, 0) << r.out;
  }
}

// N shards as N processes, merged, equal the single process trace for trace.
void expect_merge_equals_single(const std::string& cmd, const std::string& inputs, unsigned n) {
  const std::string dir = testing::temp_dir();
  auto single = run_command(cmd + " --format jsonl" + inputs);
  std::string shard_files;
  for (unsigned k = 0; k < n; ++k) {
    const std::string out = dir + "/shard-" + std::to_string(k) + "-of-" + std::to_string(n) + ".jsonl";
    run_command(cmd + " --format jsonl --shard " + std::to_string(k) + "/" + std::to_string(n) + inputs + " > " + out);
    shard_files = " " + out + shard_files;  // in reverse: the order given must not matter
  }
  auto merged = run_command(cmd + " --format jsonl merge" + shard_files);
  EXPECT_EQ(merged.out, single.out) << "merged:\n" << merged.out << "\nsingle:\n" << single.out;
  EXPECT_EQ(merged.exit_code, single.exit_code);
  auto text = run_command(cmd + " merge" + shard_files);
  EXPECT_EQ(last_line(text.out), last_line(run_command(cmd + inputs).out));
  // A missing shard is never a smaller batch that looks whole.
  if (n > 1) {
    auto partial = run_command(both(cmd + " merge " + dir + "/shard-0-of-" + std::to_string(n) + ".jsonl"));
    EXPECT_EQ(partial.exit_code, 2);
    EXPECT_NE(partial.out.find("shards missing"), std::string::npos) << partial.out;
  }
}

TEST(Merge, ShardsRunApartEqualTheSingleProcess) {
  std::string inputs = samples({"codex-verified.jsonl", "tampered-edit_mid.jsonl", "claude-code-restart.jsonl",
                                "claude-code-leaks.jsonl", "claude-code-sealed-unacked.jsonl",
                                "claude-code-unsealed.jsonl.zst", "tampered-sig_malleable.jsonl"}) +
                       " /nonexistent.jsonl";
  expect_merge_equals_single(verify_cmd(""), inputs, 3);
  expect_merge_equals_single(verify_cmd(""), inputs, 1);
  expect_merge_equals_single(cheat_cmd(""), inputs, 3);
  // More shards than inputs: empty shards still say who they are.
  expect_merge_equals_single(verify_cmd(""), samples({"codex-verified.jsonl", "tampered-edit_mid.jsonl"}), 4);
}

// Merged shards say which traces only a supplied key vouches for, as one
// process does: the summary, and a note on each such trace's line.
TEST(Merge, SaysWhichTracesOnlyASuppliedKeyVouchesFor) {
  const std::string inputs = samples({"claude-code-devkey.jsonl", "codex-verified.jsonl", "tampered-edit_mid.jsonl"});
  expect_merge_equals_single(verify_cmd(dev_key()), inputs, 2);
  expect_merge_equals_single(cheat_cmd(dev_key()), inputs, 2);
  const std::string dir = testing::temp_dir();
  for (const auto& [cmd, name] : {std::pair{verify_cmd(dev_key()), "verify"}, {cheat_cmd(dev_key()), "cheat"}}) {
    const std::string shard = dir + "/" + name + "-devkey-shard.jsonl";
    run_command(cmd + " --format jsonl --shard 0/1" + inputs + " > " + shard);
    const std::string base = cmd.substr(0, cmd.find(" --dev-key"));
    auto text = run_command(base + " merge " + shard);
    EXPECT_NE(line_of(text.out, "claude-code-devkey.jsonl").find("supplied key, not a production key)"), std::string::npos)
        << text.out;
    EXPECT_EQ(line_of(text.out, "codex-verified.jsonl").find("supplied"), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("(1 by a supplied key, not a production key)"), std::string::npos) << text.out;
    auto quiet = run_command(base + " -q merge " + shard);
    EXPECT_NE(quiet.out.find("vouched for by a key given with --dev-key"), std::string::npos) << quiet.out;
  }
}

// Names that are not valid UTF-8 stay apart in JSON (red-team 16c #14: two
// uploads bad\xff and bad\xfe both read "bad\ufffd"): a bad byte is the text
// \xNN, the exact bytes are in file_base64, and merge keeps them apart too.
// A valid UTF-8 name is written as it is, with no file_base64.
TEST(Names, NamesThatAreNotUtf8StayDistinctAndReversibleInJson) {
  EXPECT_EQ(json_name_text("caf\xc3\xa9/a\\b.jsonl"), "caf\xc3\xa9/a\\b.jsonl");
  EXPECT_EQ(json_name_text("bad\xff\xc3.jsonl"), "bad\\xff\\xc3.jsonl");
  const std::string dir = testing::temp_dir() + "/names-not-utf8";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::string honest = testing::read_file(sample_path("codex-verified.jsonl"));
  const std::string a = dir + "/bad\xff.jsonl", b = dir + "/bad\xfe.jsonl", ok = dir + "/caf\xc3\xa9.jsonl";
  for (const std::string& name : {a, b, ok}) std::ofstream(name, std::ios::binary) << honest;
  const std::string inputs = " '" + a + "' '" + b + "' '" + ok + "'";
  for (const std::string& cmd : {verify_cmd(""), cheat_cmd("")}) {
    auto r = run_command(cmd + "--format jsonl" + inputs);
    simdjson::dom::parser p;
    std::vector<std::string> files, exact;
    for (auto doc : p.parse_many(r.out)) {
      std::string_view file, bytes;
      if (doc["file"].get(file)) continue;  // the summary line
      files.emplace_back(file);
      exact.emplace_back(doc["file_base64"].get(bytes) ? "" : base64_decode(bytes).value_or("?"));
    }
    ASSERT_EQ(files.size(), 3u) << r.out;
    EXPECT_EQ(files[0], dir + "/bad\\xff.jsonl") << r.out;
    EXPECT_EQ(files[1], dir + "/bad\\xfe.jsonl") << r.out;
    EXPECT_EQ(exact[0], a);
    EXPECT_EQ(exact[1], b);
    EXPECT_EQ(files[2], ok);
    EXPECT_EQ(exact[2], "") << "a UTF-8 name has no file_base64";
    expect_merge_equals_single(cmd, inputs, 2);
  }
}

// -q leaves the passing reports out of a shard; merge refuses it and says why.
TEST(Merge, AQuietShardIsRefusedWithTheReason) {
  const std::string out = testing::temp_dir() + "/quiet-shard.jsonl";
  run_command(verify_cmd("-q --format jsonl --shard 0/1") + samples({"codex-verified.jsonl", "tampered-edit_mid.jsonl"}) +
              " > " + out);
  auto merged = run_command(both(verify_cmd("merge " + out)));
  EXPECT_EQ(merged.exit_code, 2);
  EXPECT_NE(merged.out.find("written with -q"), std::string::npos) << merged.out;
}

}  // namespace
}  // namespace goalcup

namespace goalcup {
namespace {

TEST(ExamplePolicy, PassesTheVerifiedSamplesAndNotTheOthers) {
  const std::string policy = "--policy " + testing::source_path("fixtures/policy/example-policy.json");
  EXPECT_EQ(run_command(cheat_cmd(policy + " --fail-on info" + samples({"codex-verified.jsonl", "claude-code-verified.jsonl.zst"})))
                .exit_code,
            0);
  EXPECT_EQ(run_command(cheat_cmd(policy + samples({"claude-code-leaks.jsonl"}))).exit_code, 1);
  EXPECT_EQ(run_command(cheat_cmd(policy + samples({"tampered-edit_mid.jsonl"}))).exit_code, 1);
}

}  // namespace
}  // namespace goalcup
