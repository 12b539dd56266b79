// goalcup-verify as a user runs it: exit codes, formats, batches, shards.
#include <simdjson.h>

#include <filesystem>

#include "tests/support.h"

namespace goalcup {
namespace {

using testing::run_command;
using testing::sample_path;

std::string verify_cmd(const std::string& args) { return std::string(GOALCUP_VERIFY_BIN) + " --no-progress " + args; }

TEST(Cli, ExitCodesFollowTheVerdict) {
  EXPECT_EQ(run_command(verify_cmd(sample_path("codex-verified.jsonl"))).exit_code, 0);
  EXPECT_EQ(run_command(verify_cmd(sample_path("tampered-edit_mid.jsonl"))).exit_code, 1);
  EXPECT_EQ(run_command(verify_cmd("/nonexistent.jsonl")).exit_code, 2);
  EXPECT_EQ(run_command(verify_cmd(sample_path("claude-code-unsealed.jsonl.zst"))).exit_code, 3);
  EXPECT_EQ(run_command(verify_cmd("--format nonsense x")).exit_code, 2);
  EXPECT_EQ(run_command(verify_cmd("--dev-key AAAA " + sample_path("codex-verified.jsonl"))).exit_code, 2);
}

TEST(Cli, BatchExitsWithItsWorstVerdict) {
  const std::string ok = sample_path("codex-verified.jsonl"), inc = sample_path("claude-code-sealed-unacked.jsonl"),
                    bad = sample_path("tampered-edit_mid.jsonl");
  EXPECT_EQ(run_command(verify_cmd(ok + " " + inc)).exit_code, 3);
  EXPECT_EQ(run_command(verify_cmd(ok + " /nonexistent " + inc)).exit_code, 2);
  EXPECT_EQ(run_command(verify_cmd("-j 2 " + inc + " /nonexistent " + bad + " " + ok)).exit_code, 1);
}

TEST(Cli, DevKeyMakesTheDevSampleVerify) {
  auto r = run_command(verify_cmd("--format json --dev-key " + testing::source_path("fixtures/keys/dev-key.json") + " " +
                                  sample_path("claude-code-devkey.jsonl")));
  EXPECT_EQ(r.exit_code, 0);
  simdjson::dom::parser p;
  auto doc = p.parse(r.out);
  ASSERT_FALSE(doc.error()) << r.out;
  auto rep = doc["reports"].at(0);
  EXPECT_EQ(std::string_view(rep["key_source"].get_string()), "supplied");
  EXPECT_EQ(std::string_view(rep["warnings"].at(0).get_string()), "server_key_unpinned");
  EXPECT_EQ(std::string_view(rep["verdict"].get_string()), "verified");
}

TEST(Cli, JsonlHasOneReportPerTraceInOrder) {
  auto r = run_command(verify_cmd("--format jsonl -j 3 " + sample_path("codex-verified.jsonl") + " " +
                                  sample_path("tampered-edit_mid.jsonl") + " " + sample_path("claude-code-restart.jsonl")));
  simdjson::dom::parser p;
  std::vector<std::string> files;
  for (auto doc : p.parse_many(r.out)) {
    std::string_view file;
    if (!doc["file"].get(file)) files.emplace_back(file);  // the last line is the summary
  }
  ASSERT_EQ(files.size(), 3u);
  EXPECT_NE(files[0].find("codex-verified"), std::string::npos);
  EXPECT_NE(files[1].find("edit_mid"), std::string::npos);
  EXPECT_NE(files[2].find("restart"), std::string::npos);
}

TEST(Cli, ShardsPartitionTheBatch) {
  std::string all;
  for (const char* f : {"codex-verified.jsonl", "tampered-edit_mid.jsonl", "claude-code-restart.jsonl",
                        "claude-code-leaks.jsonl", "claude-code-sealed-unacked.jsonl"}) {
    all += " " + sample_path(f);
  }
  size_t total = 0;
  for (int k = 0; k < 3; ++k) {
    auto r = run_command(verify_cmd("--format jsonl --shard " + std::to_string(k) + "/3" + all));
    total += static_cast<size_t>(std::count(r.out.begin(), r.out.end(), '\n')) - 1;  // and a summary line
  }
  EXPECT_EQ(total, 5u);
  EXPECT_EQ(run_command(verify_cmd("--shard 3/3" + all)).exit_code, 2);
}

TEST(Cli, ReadsStdinAndTextNamesTheFirstError) {
  auto r = run_command("cat " + sample_path("tampered-dup_json_key.jsonl") + " | " + verify_cmd("-"));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find("duplicate_member"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("seq 14"), std::string::npos) << r.out;
  auto z = run_command("cat " + sample_path("claude-code-verified.jsonl.zst") + " | " + verify_cmd("-"));
  EXPECT_EQ(z.exit_code, 0);
}

TEST(Cli, TextTellsAMissingSealAckFromOneThatDoesNotHold) {
  auto missing = run_command(verify_cmd(sample_path("claude-code-sealed-unacked.jsonl")));
  EXPECT_NE(missing.out.find("sealed (exit), seal not acknowledged"), std::string::npos) << missing.out;
  auto broken = run_command(verify_cmd(sample_path("tampered-delete_rechain.jsonl")));
  EXPECT_NE(broken.out.find("sealed (exit), seal_ack does not hold"), std::string::npos) << broken.out;
}

TEST(Cli, FixtureWriterOutputVerifies) {
  const std::string out = testing::temp_dir() + "/gen.jsonl.zst";
  auto g = run_command(std::string(GOALCUP_FIXTURE_BIN) + " gen --style codex --turns 5 --zstd 3 --frame-bytes 777 --key " +
                       testing::source_path("fixtures/keys/dev-key.json") + " -o " + out);
  ASSERT_EQ(g.exit_code, 0);
  EXPECT_EQ(run_command(verify_cmd("--dev-key " + testing::source_path("fixtures/keys/dev-key.json") + " " + out)).exit_code, 0);
  EXPECT_EQ(run_command(verify_cmd(out)).exit_code, 1);
}

// A plant the chosen ending cannot hold, or a key that cannot be read, is
// refused before the output exists: no silent no-op, no empty file left.
TEST(Cli, FixtureWriterRefusesWhatItCannotWrite) {
  const std::string key = testing::source_path("fixtures/keys/dev-key.json");
  const std::string out = testing::temp_dir() + "/refused.jsonl";
  std::filesystem::remove(out);
  const std::string gen = std::string(GOALCUP_FIXTURE_BIN) + " gen --turns 3 -o " + out;
  auto plant = run_command("(" + gen + " --key " + key + " --plant wire-after-ingest-lost 2>&1)");
  EXPECT_EQ(plant.exit_code, 2);
  EXPECT_NE(plant.out.find("needs --ending restart"), std::string::npos) << plant.out;
  auto nokey = run_command("(" + gen + " --key /nonexistent/dev-key.json 2>&1)");
  EXPECT_EQ(nokey.exit_code, 2);
  EXPECT_NE(nokey.out.find("cannot read the key file"), std::string::npos) << nokey.out;
  EXPECT_FALSE(std::filesystem::exists(out));
  EXPECT_EQ(run_command(gen + " --key " + key + " --ending restart --plant wire-after-ingest-lost").exit_code, 0);
  EXPECT_TRUE(std::filesystem::exists(out));
}

}  // namespace
}  // namespace goalcup
