// Threads inside one trace (--threads) never change what the tools say:
// the same reports, byte for byte, on one thread and on several, for valid,
// tampered, cut and odd traces read in many blocks. And the shared core
// pool never hands out more cores than it has.
#include <algorithm>
#include <filesystem>
#include <fstream>

#include "core/core_pool.h"
#include "tests/support.h"

namespace goalcup {
namespace {

namespace fs = std::filesystem;
using testing::run_command;

const std::string kKey = testing::source_path("fixtures/keys/dev-key.json");

std::string dir() {
  static const std::string d = [] {
    std::string p = testing::temp_dir() + "/threads";
    fs::create_directories(p);
    return p;
  }();
  return d;
}

std::string fixture(const std::string& args) {
  return std::string(GOALCUP_FIXTURE_BIN) + " " + args + " 2>/dev/null";
}

// A valid sealed trace of about `bytes`, read in several 2 MiB blocks.
std::string generated(const std::string& name, size_t bytes, const std::string& more = "--tool-output-bytes 50000") {
  const std::string path = dir() + "/" + name;
  if (!fs::exists(path)) {
    EXPECT_EQ(run_command(fixture("gen --size " + std::to_string(bytes) + " --ack-every 20 --key " + kKey + " " + more +
                                  " -o " + path))
                  .exit_code,
              0);
  }
  return path;
}

std::string tampered(const std::string& name, const std::string& in, const std::vector<std::string>& ops) {
  std::string from = in;
  for (size_t i = 0; i < ops.size(); ++i) {
    const std::string out = dir() + "/" + name + "-" + std::to_string(i) + ".jsonl";
    EXPECT_EQ(run_command(fixture("tamper " + ops[i] + " " + from + " -o " + out)).exit_code, 0) << ops[i];
    from = out;
  }
  return from;
}

std::string write(const std::string& name, const std::string& bytes) {
  const std::string path = dir() + "/" + name;
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

std::string cut_at(const std::string& name, const std::string& in, size_t bytes) {
  return write(name, testing::read_file(in).substr(0, bytes));
}

// The inputs: each is read in many blocks, so that blocks are hashed by
// different threads and out of order.
std::vector<std::string> inputs() {
  const std::string valid = generated("valid.jsonl", 9000000);
  const std::string text = testing::read_file(valid);
  // Blank lines in the middle: more than one block's worth of lines.
  const size_t mid = text.find('\n', text.size() / 2) + 1;
  const std::string blanks = write("blanks.jsonl", text.substr(0, mid) + std::string(150000, '\n') + text.substr(mid));
  return {
      valid,
      tampered("edited", valid, {"edit-byte --seq 7", "edit-byte --seq 40", "delete --seq 60", "swap --seq 80 --seq2 81"}),
      tampered("rechained", valid, {"edit-byte --seq 30 --rechain", "duplicate --seq 70"}),
      cut_at("cut-mid-line.jsonl", valid, text.size() * 2 / 3 + 5),
      blanks,
      generated("long-lines.jsonl", 14000000, "--tool-output-bytes 2600000 --seed 3"),
      generated("frames.jsonl.zst", 9000000, "--tool-output-bytes 50000 --zstd 3 --frame-bytes 700000 --seed 4"),
      write("garbage.jsonl", std::string(3 << 20, 'x') + "\n" + std::string(1 << 20, '{') + "\n"),
  };
}

std::string verify_json(const std::string& path, unsigned threads, const std::string& more = "") {
  auto r = run_command(std::string(GOALCUP_VERIFY_BIN) + " --no-progress --format json -j 1 --threads " +
                       std::to_string(threads) + " --dev-key " + kKey + " " + more + " " + path);
  return std::to_string(r.exit_code) + "\n" + r.out;
}

TEST(Threads, VerifyReportsAreTheSameOnOneThreadAndOnSeveral) {
  for (const std::string& in : inputs()) {
    SCOPED_TRACE(in);
    const std::string one = verify_json(in, 1);
    EXPECT_NE(one.find("\"verdict\""), std::string::npos) << one.substr(0, 400);
    for (unsigned threads : {2u, 3u, 6u}) EXPECT_EQ(verify_json(in, threads), one) << "--threads " << threads;
  }
}

TEST(Threads, StoppingAtMaxErrorsIsTheSameOnEveryThreadCount) {
  // Reading stops at the 1000th error, in the middle of the blank lines
  // that other threads are already hashing.
  const std::string in = inputs()[4];
  const std::string one = verify_json(in, 1, "--max-errors 1000");
  EXPECT_NE(one.find("limit_errors"), std::string::npos) << one.substr(0, 400);
  for (unsigned threads : {2u, 5u}) EXPECT_EQ(verify_json(in, threads, "--max-errors 1000"), one);
}

TEST(Threads, CheatcheckAndInspectFindTheSameInSeqOrder) {
  const std::vector<std::string> all = inputs();
  for (const std::string& in : {all[0], all[1], all[4], all[6]}) {
    SCOPED_TRACE(in);
    auto cheat = [&](unsigned threads) {
      return run_command(std::string(GOALCUP_CHEATCHECK_BIN) + " --no-progress --format json -j 1 --threads " +
                         std::to_string(threads) + " --dev-key " + kKey + " " + in)
          .out;
    };
    auto summary = [&](unsigned threads) {
      return run_command(std::string(GOALCUP_INSPECT_BIN) + " --threads " + std::to_string(threads) + " --dev-key " +
                         kKey + " summary --json " + in)
          .out;
    };
    const std::string cheat_one = cheat(1), summary_one = summary(1);
    EXPECT_NE(cheat_one.find("\"findings\""), std::string::npos) << cheat_one.substr(0, 400);
    EXPECT_NE(summary_one.find("\"verify\""), std::string::npos) << summary_one.substr(0, 400);
    EXPECT_EQ(cheat(4), cheat_one);
    EXPECT_EQ(summary(4), summary_one);
  }
}

TEST(Threads, ABatchAndItsTracesShareThePool) {
  // Eight traces on a pool of 3 threads with --jobs 2 and --jobs 8, beside
  // each trace alone: the same reports in the same order.
  const std::vector<std::string> all = inputs();
  std::string list;
  for (const auto& in : all) list += " " + in;
  auto batch = [&](const std::string& opts) {
    return run_command(std::string(GOALCUP_VERIFY_BIN) + " --no-progress --format jsonl --dev-key " + kKey + " " + opts +
                       list)
        .out;
  };
  const std::string serial = batch("-j 1 --threads 1");
  EXPECT_EQ(std::count(serial.begin(), serial.end(), '\n'), static_cast<long>(all.size() + 1));
  EXPECT_EQ(batch("-j 2 --threads 3"), serial);
  EXPECT_EQ(batch("-j 8 --threads 3"), serial);
}

TEST(CorePool, HandsOutOnlyFreeCores) {
  CorePool pool(4);
  auto job = pool.reserve(1);
  EXPECT_EQ(job.count(), 1u);
  auto extra = pool.reserve(5);  // a trace asks for all it could use
  EXPECT_EQ(extra.count(), 3u);
  EXPECT_EQ(pool.reserve(1).count(), 0u);  // and nothing is left
  extra.release(2);
  {
    auto two = pool.reserve(2);
    EXPECT_EQ(two.count(), 2u);
  }  // given back when it goes
  EXPECT_EQ(pool.reserve(4).count(), 2u);
  pool.resize(1);
  EXPECT_EQ(pool.reserve(1).count(), 0u);  // shrunk below what is held: nothing more
}

}  // namespace
}  // namespace goalcup
