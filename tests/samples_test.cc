// The samples from an independent recorder, with the verdicts their README
// gives; checked on the project's copies and, when present, on ../shared.
#include "tests/support.h"

namespace goalcup {
namespace {

struct Expected {
  const char* file;
  Verdict verdict;
  Code error = Code::internal_error;  // internal_error: none expected
  bool dev_key = false;
};

const Expected kSamples[] = {
    {"claude-code-verified.jsonl.zst", Verdict::verified},
    {"codex-verified.jsonl", Verdict::verified},
    {"claude-code-sealed-unacked.jsonl", Verdict::incomplete},
    {"claude-code-unsealed.jsonl.zst", Verdict::incomplete},
    {"claude-code-devkey.jsonl", Verdict::invalid, Code::statement_signature},
    {"claude-code-devkey.jsonl", Verdict::verified, Code::internal_error, true},
    {"claude-code-restart.jsonl", Verdict::verified},
    {"claude-code-leaks.jsonl", Verdict::verified},
    {"tampered-edit_mid.jsonl", Verdict::invalid, Code::prev_mismatch},
    {"tampered-tail_rewrite_keep_sealack.jsonl", Verdict::invalid, Code::statement_head},
    {"tampered-delete_rechain.jsonl", Verdict::invalid, Code::statement_head},
    {"tampered-sig_malleable.jsonl", Verdict::invalid, Code::statement_signature},
    {"tampered-dup_json_key.jsonl", Verdict::invalid, Code::duplicate_member},
};

void check_dir(const std::string& dir, unsigned threads = 1) {
  for (const auto& s : kSamples) {
    SCOPED_TRACE(std::string(s.file) + (s.dev_key ? " with --dev-key" : ""));
    WalkOptions opt;
    opt.threads = threads;
    Keyring ring = s.dev_key ? testing::dev_keyring() : Keyring::production();
    opt.keyring = &ring;
    auto r = walk_trace(dir + "/" + s.file, opt);
    EXPECT_VERDICT(r, s.verdict);
    if (s.error != Code::internal_error) {
      ASSERT_FALSE(r.errors.empty());
      EXPECT_EQ(code_name(r.errors.front().code), code_name(s.error)) << testing::error_codes(r);
    }
    if (s.dev_key) {
      EXPECT_EQ(r.key_source, KeySource::supplied);
      EXPECT_EQ(r.warnings, std::vector<WarningCode>{WarningCode::server_key_unpinned});
    } else if (s.verdict == Verdict::verified) {
      EXPECT_EQ(r.key_source, KeySource::pinned);
      EXPECT_EQ(r.unattested_records, 0u);
    }
  }
}

TEST(Samples, ProjectCopiesGetTheirVerdicts) { check_dir(testing::source_path("fixtures/samples")); }

TEST(Samples, PipelinedReadingGivesTheSameVerdicts) { check_dir(testing::source_path("fixtures/samples"), 2); }

TEST(Samples, SharedSamplesGetTheirVerdicts) {
  const std::string dir = testing::shared_samples_dir();
  if (dir.empty()) GTEST_SKIP() << "SKIPPED: no shared/samples beside this checkout (set GOALCUP_SHARED_DIR)";
  check_dir(dir);
}

TEST(Samples, IncompleteSamplesSayHowMuchIsUnattested) {
  auto r = walk_trace(testing::sample_path("claude-code-sealed-unacked.jsonl"), WalkOptions{});
  EXPECT_EQ(r.incomplete_reason, IncompleteReason::seal_unacknowledged);
  EXPECT_EQ(r.attested_through_seq, 37);
  EXPECT_EQ(r.unattested_records, 2u);
  auto u = walk_trace(testing::sample_path("claude-code-unsealed.jsonl.zst"), WalkOptions{});
  EXPECT_EQ(u.incomplete_reason, IncompleteReason::unsealed);
  EXPECT_EQ(u.unattested_records, u.records - static_cast<uint64_t>(u.attested_through_seq) - 1);
  EXPECT_GT(u.unattested_wire_bytes, 0u);
}

}  // namespace
}  // namespace goalcup
