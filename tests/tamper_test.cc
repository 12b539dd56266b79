// Tampering, as an attacker with the file (but not the server's key) would.
#include "tests/support.h"

namespace goalcup {
namespace {

using namespace fixtures;
using testing::has_error;
using testing::valid_trace;
using testing::verify_lines;

Lines base() { return valid_trace(HarnessStyle::claude_code, Ending::sealed, 6); }
size_t mid() { return base().size() / 2; }

void expect_invalid(const Lines& lines, Code code) {
  auto r = verify_lines(lines);
  EXPECT_VERDICT(r, Verdict::invalid);
  EXPECT_TRUE(has_error(r, code)) << "want " << code_name(code) << ", got " << testing::error_codes(r);
}

TEST(Tamper, BodyByteChanged) {
  Lines a = base();
  edit_body_byte(a, mid(), false);
  expect_invalid(a, Code::prev_mismatch);
  Lines b = base();
  edit_body_byte(b, mid(), true);  // re-chained: only the statements can tell
  expect_invalid(b, Code::statement_head);
}

TEST(Tamper, RecordDeleted) {
  Lines a = base();
  delete_record(a, mid(), false);
  expect_invalid(a, Code::seq_mismatch);
  Lines b = base();
  delete_record(b, mid(), true);
  expect_invalid(b, Code::statement_head);
}

TEST(Tamper, RecordsSwapped) {
  Lines a = base();
  swap_records(a, mid(), mid() + 1, false);
  expect_invalid(a, Code::seq_mismatch);
  Lines b = base();
  swap_records(b, mid(), mid() + 1, true);
  expect_invalid(b, Code::statement_head);
}

TEST(Tamper, RecordDuplicated) {
  Lines a = base();
  duplicate_record(a, mid(), false);
  expect_invalid(a, Code::seq_mismatch);
  Lines b = base();
  duplicate_record(b, mid(), true);
  expect_invalid(b, Code::statement_head);
}

TEST(Tamper, TailRewrittenAndResealedIsIncompleteWithTheRightCount) {
  Lines lines = base();
  rewrite_tail_and_reseal(lines);
  auto r = verify_lines(lines);
  EXPECT_VERDICT(r, Verdict::incomplete);
  EXPECT_EQ(r.incomplete_reason, IncompleteReason::seal_unacknowledged);
  // Everything after the last kept ack's seq is unattested, and only that.
  int64_t last_ack_covers = -1;
  for (const auto& s : r.statements) {
    if (s.kind == Kind::ack) last_ack_covers = s.covers_seq;
  }
  ASSERT_GT(last_ack_covers, 2);
  EXPECT_EQ(r.attested_through_seq, last_ack_covers);
  EXPECT_EQ(r.unattested_records, lines.size() - static_cast<size_t>(last_ack_covers) - 1);
  // The rewritten record lies in the unattested tail.
  Lines original = base();
  size_t first_diff = 0;
  while (first_diff < lines.size() && lines[first_diff] == original[first_diff]) ++first_diff;
  EXPECT_GT(static_cast<int64_t>(first_diff), last_ack_covers);
}

TEST(Tamper, SealRewrittenWithOldSealAckKept) {
  Lines lines = base();
  rewrite_seal_keep_ack(lines);
  expect_invalid(lines, Code::statement_head);
}

TEST(Tamper, StatementResignedByAnUnknownKey) {
  Lines lines = base();
  resign_statement(lines, static_cast<size_t>(find_first(lines, "ack")), SigningKey::from_label("attacker"));
  expect_invalid(lines, Code::statement_signature);
}

TEST(Tamper, StatementReplayedFromAnotherRun) {
  TraceSpec other;
  other.seed = 99;
  other.ack_every = 5;
  Lines theirs = conversation_lines(other, testing::dev_key());
  Lines lines = base();
  const size_t at = static_cast<size_t>(find_first(lines, "ack"));
  lines[at] = with_body(lines[at], line_body(theirs[static_cast<size_t>(find_first(theirs, "ack"))]));
  rechain(lines, at + 1);
  expect_invalid(lines, Code::statement_run);
}

TEST(Tamper, AckNamingAHeadFromAnotherHistory) {
  // The attacker shows the server one history and keeps another: the ack's
  // head is genuine, but for a different line at that seq.
  Lines shown = base();
  Lines kept = base();
  const size_t ack = static_cast<size_t>(find_first(shown, "ack"));
  edit_body_byte(kept, ack - 2, true);
  kept[ack] = with_body(kept[ack], line_body(shown[ack]));
  rechain(kept, ack + 1);
  expect_invalid(kept, Code::statement_head);
}

TEST(Tamper, ForkIsReportedWithBothStatements) {
  Lines lines = base();
  const size_t a1 = static_cast<size_t>(find_first(lines, "ack"));
  const size_t a2 = static_cast<size_t>(find_first(lines, "ack", a1 + 1));
  const std::string p1 = statement_payload_of(lines[a1]);
  const std::string covered = p1.substr(p1.find("\"seq\":") + 6, p1.find(",\"head\"") - p1.find("\"seq\":") - 6);
  resign_statement(lines, a2, testing::dev_key(), [&](std::string p) {
    return set_member(set_member(p, "seq", covered), "head", "\"sha256:" + std::string(64, 'c') + "\"");
  });
  auto r = verify_lines(lines);
  EXPECT_TRUE(has_error(r, Code::fork)) << testing::error_codes(r);
  bool names_both = false;
  for (const auto& e : r.errors) {
    if (e.code == Code::fork) {
      names_both = e.message.find(std::to_string(a1)) != std::string::npos &&
                   e.message.find(std::to_string(a2)) != std::string::npos;
    }
  }
  EXPECT_TRUE(names_both);
}

TEST(Tamper, SignatureBitFlipped) {
  Lines lines = base();
  flip_signature_bit(lines, 1);
  expect_invalid(lines, Code::statement_signature);
}

TEST(Tamper, SignatureMalleatedWithSPlusL) {
  Lines lines = base();
  malleate_signature(lines, static_cast<size_t>(find_first(lines, "ack")));
  auto r = verify_lines(lines);
  EXPECT_TRUE(has_error(r, Code::statement_signature));
  EXPECT_NE(r.errors.front().message.find("non-canonical"), std::string::npos);
}

TEST(Tamper, MalformedLines) {
  const size_t m = mid();
  auto mutate = [&](const std::function<void(std::string&)>& f, Code code) {
    Lines lines = base();
    f(lines[m]);
    expect_invalid(lines, code);
  };
  mutate([](std::string& l) { l.insert(l.size() - 1, ",\"host\":\"x\",\"host\":\"y\""); }, Code::duplicate_member);
  mutate([](std::string& l) { l.pop_back(); }, Code::malformed_json);
  mutate([](std::string& l) { l.pop_back(); l += ",\"extra\":1}"; }, Code::envelope_members);
  mutate([](std::string& l) { l.push_back('\r'); }, Code::carriage_return);
  mutate([&](std::string& l) { l.replace(l.find(":" + std::to_string(m) + ","), std::to_string(m).size() + 2, ":" + std::to_string(m) + ".0,"); },
         Code::seq_not_integer);
  mutate([](std::string& l) {
    size_t p = l.find("\"prev\":\"sha256:") + 15;
    for (size_t i = p; i < p + 64; ++i) l[i] = static_cast<char>(std::toupper(l[i]));
  }, Code::bad_hex);
  mutate([](std::string& l) { l.insert(l.find("\"body\":{") + 8, "\"x\":\"\xff\","); }, Code::invalid_utf8);
  mutate([](std::string& l) { l.insert(l.find("\"body\":{") + 8, "\"x\":\"\\x41\","); }, Code::malformed_json);
  // A missing final LF.
  auto cut = testing::verify_bytes(join(base()).substr(0, join(base()).size() - 1));
  EXPECT_TRUE(has_error(cut, Code::missing_final_lf));
  EXPECT_VERDICT(cut, Verdict::invalid);
}

}  // namespace
}  // namespace goalcup
