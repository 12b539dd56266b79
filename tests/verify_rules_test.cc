// Each rule of the format, with a trace that keeps it and one that breaks it.
#include "tests/support.h"

namespace goalcup {
namespace {

using namespace fixtures;
using testing::has_error;
using testing::valid_trace;
using testing::verify_lines;

// A statement re-signed by the dev key after `edit`, so that only the edit
// is wrong.
Lines with_statement(Lines lines, size_t seq, const std::function<std::string(std::string)>& edit) {
  resign_statement(lines, seq, testing::dev_key(), edit);
  return lines;
}

size_t first(const Lines& lines, std::string_view kind) { return static_cast<size_t>(find_first(lines, kind)); }

TEST(Rules, ValidTracesOfBothStylesVerify) {
  for (auto style : {HarnessStyle::claude_code, HarnessStyle::codex}) {
    auto r = verify_lines(valid_trace(style));
    EXPECT_VERDICT(r, Verdict::verified);
    EXPECT_EQ(r.key_source, KeySource::supplied);
    EXPECT_EQ(r.warnings, std::vector<WarningCode>{WarningCode::server_key_unpinned});
    EXPECT_EQ(r.unattested_records, 0u);
    EXPECT_EQ(r.attested_through_seq, static_cast<int64_t>(r.records) - 2);
  }
}

TEST(Rules, WithoutTheSuppliedKeyTheTraceIsInvalid) {
  auto r = verify_lines(valid_trace(), Keyring::production());
  EXPECT_VERDICT(r, Verdict::invalid);
  EXPECT_TRUE(has_error(r, Code::statement_signature));
  EXPECT_EQ(r.key_source, KeySource::none);
}

// With --dev-key the report says where the pinned keys' attestation ends:
// a trace kept through its last pinned ack, then re-acked with a supplied
// key, is not "attested by the server" to its end.
TEST(Rules, PinnedAttestationEndsWhereSuppliedKeysTakeOver) {
  const SigningKey other = SigningKey::from_label("supplied");
  Keyring ring;
  auto pinned = Keyring::supplied_from_base64(testing::dev_key().public_key_base64());
  auto supplied = Keyring::supplied_from_base64(other.public_key_base64());
  ASSERT_TRUE(pinned.ok() && supplied.ok());
  pinned->source = KeySource::pinned;
  ring.add(*pinned);
  ring.add(*supplied);
  Lines lines = valid_trace();
  const auto all = verify_lines(lines, ring);
  EXPECT_EQ(all.key_source, KeySource::pinned);
  EXPECT_EQ(all.pinned_attested_through_seq, all.attested_through_seq);
  resign_statement(lines, static_cast<size_t>(find_last(lines, "seal_ack")), other, [](std::string p) { return p; });
  const auto r = verify_lines(lines, ring);
  EXPECT_VERDICT(r, Verdict::verified);
  EXPECT_EQ(r.key_source, KeySource::supplied);
  EXPECT_EQ(r.attested_through_seq, find_last(lines, "seal"));
  int64_t last_ack_covers = -1;
  for (const auto& st : r.statements) {
    if (st.kind == Kind::ack) last_ack_covers = st.covers_seq;
  }
  EXPECT_GT(last_ack_covers, 0);
  EXPECT_EQ(r.pinned_attested_through_seq, last_ack_covers);
}

TEST(Rules, SealedWithoutSealAckIsIncomplete) {
  auto r = verify_lines(valid_trace(HarnessStyle::claude_code, Ending::unacked));
  EXPECT_VERDICT(r, Verdict::incomplete);
  EXPECT_EQ(r.incomplete_reason, IncompleteReason::seal_unacknowledged);
  EXPECT_EQ(r.unattested_records, 2u);  // the last ack (it covers the exit) and the seal
  auto u = verify_lines(valid_trace(HarnessStyle::codex, Ending::unsealed));
  EXPECT_VERDICT(u, Verdict::incomplete);
  EXPECT_EQ(u.incomplete_reason, IncompleteReason::unsealed);
  EXPECT_GT(u.unattested_records, 0u);
}

// A restart trace with one member of its last `kind` record set to `raw`,
// chained again, and without the seal_ack that no longer matches.
Lines restart_with(std::string_view kind, const std::string& member, const std::string& raw) {
  Lines lines = valid_trace(HarnessStyle::claude_code, Ending::restart);
  const size_t at = static_cast<size_t>(find_last(lines, kind));
  lines[at] = with_body(lines[at], set_member(line_body(lines[at]), member, raw));
  rechain(lines, at + 1);
  lines.pop_back();
  return lines;
}

TEST(Rules, RecoveredSealNeedsNoExit) {
  EXPECT_VERDICT(verify_lines(valid_trace(HarnessStyle::claude_code, Ending::restart)), Verdict::verified);
  // Any other reason does.
  auto r = verify_lines(restart_with("seal", "reason", "\"exit\""));
  EXPECT_TRUE(has_error(r, Code::missing_exit)) << testing::error_codes(r);
}

// A seal that says "recovered" excuses the missing exit only when an
// IngestLost gap records the restart (spec 4.7): otherwise deleting the exit
// and relabelling the seal would hide how the harness ended.
TEST(Rules, ARecoveredSealWithoutItsIngestLostGapNeedsTheExit) {
  auto r = verify_lines(restart_with("gap", "gap", "\"ProxyRestart\""));
  EXPECT_TRUE(has_error(r, Code::missing_exit)) << testing::error_codes(r);
}

TEST(Rules, KindOrder) {
  // launch must be record 2.
  Lines a = valid_trace();
  swap_records(a, 2, 3, true);
  EXPECT_TRUE(has_error(verify_lines(a), Code::kind_order));
  // A second exit.
  Lines b = valid_trace();
  duplicate_record(b, first(b, "exit"), true);
  EXPECT_TRUE(has_error(verify_lines(b), Code::duplicate_exit));
  // wire after exit.
  Lines c = valid_trace();
  const size_t exit = first(c, "exit");
  c.insert(c.begin() + static_cast<ptrdiff_t>(exit) + 1, c[first(c, "wire")]);
  rechain(c, exit + 1);
  EXPECT_TRUE(has_error(verify_lines(c), Code::kind_order));
  // A second seal.
  Lines d = valid_trace(HarnessStyle::claude_code, Ending::unacked);
  duplicate_record(d, d.size() - 1, true);
  EXPECT_TRUE(has_error(verify_lines(d), Code::kind_order));
}

TEST(Rules, NothingAfterSealAck) {
  Lines lines = valid_trace();
  lines.push_back(lines[first(lines, "native")]);
  rechain(lines, lines.size() - 1);
  auto r = verify_lines(lines);
  EXPECT_TRUE(has_error(r, Code::after_seal_ack)) << testing::error_codes(r);
  EXPECT_VERDICT(r, Verdict::invalid);
}

TEST(Rules, SealRecordsIsItsOwnSeq) {
  Lines lines = valid_trace(HarnessStyle::claude_code, Ending::unacked);
  const size_t seal = lines.size() - 1;
  lines[seal] = with_body(lines[seal], set_member(line_body(lines[seal]), "records", "12"));
  auto r = verify_lines(lines);
  EXPECT_TRUE(has_error(r, Code::seal_records)) << testing::error_codes(r);
}

TEST(Rules, UnknownKindIsAWarning) {
  Lines lines = valid_trace();
  const size_t at = first(lines, "native");
  std::string extra = lines[at];
  extra.replace(extra.find("\"kind\":\"native\""), 15, "\"kind\":\"telemetry\"");
  lines.insert(lines.begin() + static_cast<ptrdiff_t>(at), extra);
  rechain(lines, at);
  // Statements after the insertion no longer match; judge the order rule only.
  auto r = verify_lines(lines);
  EXPECT_NE(std::find(r.warnings.begin(), r.warnings.end(), WarningCode::unknown_kind), r.warnings.end());
  EXPECT_FALSE(has_error(r, Code::kind_order));
}

TEST(Rules, HeaderFieldsAreChecked) {
  Lines lines = valid_trace();
  lines[0] = with_body(lines[0], set_member(line_body(lines[0]), "entry_id", "\"ABCDEF0123456789\""));
  EXPECT_TRUE(has_error(verify_lines(lines), Code::body_field));
}

TEST(Rules, NullOptionalBodyMemberIsLeftOut) {
  Lines lines = valid_trace();
  const size_t launch = first(lines, "launch");
  std::string body = line_body(lines[launch]);
  const size_t digest = body.find("\"image_digest\":\"");
  ASSERT_NE(digest, std::string::npos);
  body.replace(digest, body.find('"', digest + 16) + 1 - digest, "\"image_digest\":null");
  lines[launch] = with_body(lines[launch], body);
  rechain(lines, launch);
  auto r = verify_lines(lines);
  EXPECT_FALSE(has_error(r, Code::body_field)) << testing::error_codes(r);
  // Null is not a value of another type, and required members stay required.
  Lines typed = valid_trace(HarnessStyle::claude_code, Ending::unacked);
  const size_t seal = typed.size() - 1;
  typed[seal] = with_body(typed[seal], set_member(line_body(typed[seal]), "records", "null"));
  EXPECT_TRUE(has_error(verify_lines(typed), Code::body_field));
}

TEST(Rules, AnotherFormatOrVersionCannotBeJudged) {
  auto judged = [](const std::string& member, const std::string& value) {
    Lines lines = valid_trace();
    lines[0] = with_body(lines[0], set_member(line_body(lines[0]), member, value));
    return verify_lines(lines);
  };
  // A trace of another format whose own statements agree with it: the
  // chain and the signed heads are consistent, and no rule here applies.
  auto consistent = [](const std::string& member, const std::string& value) {
    Lines lines = valid_trace();
    lines[0] = with_body(lines[0], set_member(line_body(lines[0]), member, value));
    rechain(lines, 1);
    for (size_t i = 1; i < lines.size(); ++i) {
      const std::string kind = line_kind(lines[i]);
      if (kind != "start_receipt" && kind != "ack" && kind != "seal_ack") continue;
      resign_statement(lines, i, testing::dev_key(), [&](std::string p) {
        const size_t seq = std::stoul(p.substr(p.find("\"seq\":") + 6));
        return set_member(p, "head", "\"" + digest_ref(sha256(lines[seq])) + "\"");
      });
    }
    return verify_lines(lines);
  };
  for (auto [member, value] : {std::pair{"version", "1"}, std::pair{"format", "\"goalcup-trace-v2\""}}) {
    auto r = consistent(member, value);
    EXPECT_TRUE(has_error(r, Code::unsupported_format)) << member << testing::error_codes(r);
    EXPECT_EQ(r.verdict, Verdict::error) << member << testing::error_codes(r);
    // The same header edit in a trace whose start receipt, signed as a
    // version 0 statement, names the old header's hash: the statement
    // proves the edit, so the verdict is invalid, not "could not judge"
    // (else one edited byte would turn proof of tampering into no verdict).
    auto edited = judged(member, value);
    EXPECT_TRUE(has_error(edited, Code::unsupported_format)) << member;
    EXPECT_TRUE(has_error(edited, Code::statement_head)) << member;
    EXPECT_EQ(edited.verdict, Verdict::invalid) << member;
  }
  // A second header of another version, further down, is tampering, not a
  // reason to give no verdict.
  Lines later = valid_trace();
  const size_t at = first(later, "native");
  later.insert(later.begin() + static_cast<ptrdiff_t>(at),
               with_body(later[0], set_member(line_body(later[0]), "version", "1")));
  rechain(later, at);
  auto r = verify_lines(later);
  EXPECT_FALSE(has_error(r, Code::unsupported_format));
  EXPECT_EQ(r.verdict, Verdict::invalid);
  auto same = judged("version", "0");
  EXPECT_FALSE(has_error(same, Code::unsupported_format));
  EXPECT_EQ(same.verdict, Verdict::verified);
}

// Wire sizes add up without wrapping: a crafted size near 2^64 must not
// bring the total (and the unattested bytes) back to a few bytes.
TEST(Rules, WireByteTotalsSaturate) {
  Lines lines = valid_trace();
  const size_t wire = first(lines, "wire");
  lines[wire] = with_body(lines[wire], set_member(line_body(lines[wire]), "size", "18446744073709551610"));
  rechain(lines, wire);
  const auto r = verify_lines(lines);
  EXPECT_EQ(r.wire_bytes, UINT64_MAX);
  EXPECT_EQ(r.verdict, Verdict::invalid);  // the edit itself is still seen
}

TEST(Rules, StartReceiptBindsSeqZero) {
  Lines lines = with_statement(valid_trace(), 1, [](std::string p) { return set_member(p, "seq", "1"); });
  EXPECT_TRUE(has_error(verify_lines(lines), Code::statement_seq));
  Lines t = with_statement(valid_trace(), 1, [](std::string p) { return set_member(p, "type", "\"ack\""); });
  EXPECT_TRUE(has_error(verify_lines(t), Code::statement_type));
  Lines n = with_statement(valid_trace(), 1, [](std::string p) { return set_member(p, "nonce", "\"xyz\""); });
  EXPECT_TRUE(has_error(verify_lines(n), Code::statement_payload));
}

TEST(Rules, AckMustPointBackAtThisChain) {
  Lines lines = valid_trace();
  const size_t ack = first(lines, "ack");
  auto future = with_statement(lines, ack, [&](std::string p) { return set_member(p, "seq", std::to_string(ack)); });
  EXPECT_TRUE(has_error(verify_lines(future), Code::statement_seq));
  auto other_head = with_statement(lines, ack, [](std::string p) {
    return set_member(p, "head", "\"sha256:" + std::string(64, 'b') + "\"");
  });
  auto r = verify_lines(other_head);
  EXPECT_TRUE(has_error(r, Code::statement_head)) << testing::error_codes(r);
}

TEST(Rules, AcksStrictlyIncreaseAndTimeNeverGoesBack) {
  Lines lines = valid_trace(HarnessStyle::claude_code, Ending::sealed, 6);
  const size_t a1 = first(lines, "ack");
  const size_t a2 = static_cast<size_t>(find_first(lines, "ack", a1 + 1));
  const std::string p1 = statement_payload_of(lines[a1]);
  const std::string covered = p1.substr(p1.find("\"seq\":") + 6, p1.find(",\"head\"") - p1.find("\"seq\":") - 6);
  const std::string head = p1.substr(p1.find("\"head\":") + 7, 73);
  auto same = with_statement(lines, a2, [&](std::string p) {
    return set_member(set_member(p, "seq", covered), "head", head);
  });
  EXPECT_TRUE(has_error(verify_lines(same), Code::ack_order));
  auto earlier = with_statement(lines, a2, [](std::string p) { return set_member(p, "at", "\"2020-01-01T00:00:00Z\""); });
  EXPECT_TRUE(has_error(verify_lines(earlier), Code::statement_time_order));
  // The format orders only the acks' times: a seal_ack signed at a time
  // before the last ack's and the start's is said, and the trace verifies.
  const size_t seal_ack = first(lines, "seal_ack");
  auto stepped = verify_lines(with_statement(lines, seal_ack, [](std::string p) {
    return set_member(p, "at", "\"2020-01-01T00:00:00Z\"");
  }));
  EXPECT_VERDICT(stepped, Verdict::verified);
  EXPECT_NE(std::find(stepped.warnings.begin(), stepped.warnings.end(), WarningCode::statement_time_order),
            stepped.warnings.end());
}

TEST(Rules, StatementsFromAnotherRunAreRefused) {
  Lines lines = with_statement(valid_trace(), first(valid_trace(), "ack"), [](std::string p) {
    return set_member(p, "run_id", "\"00000000-0000-4000-a000-000000000000\"");
  });
  EXPECT_TRUE(has_error(verify_lines(lines), Code::statement_run));
}

TEST(Rules, SealAckMustCoverTheSeal) {
  Lines lines = valid_trace();
  const size_t last = lines.size() - 1;
  auto r = verify_lines(with_statement(lines, last, [&](std::string p) { return set_member(p, "seq", std::to_string(last - 2)); }));
  EXPECT_TRUE(has_error(r, Code::statement_seq)) << testing::error_codes(r);
  auto t = verify_lines(with_statement(lines, last, [](std::string p) { return set_member(p, "type", "\"ack\""); }));
  EXPECT_TRUE(has_error(t, Code::statement_type));
}

TEST(Rules, ExpiredPinnedKeyIsNotTrusted) {
  // A ring where the dev key is "pinned" but only for 2025: its 2026
  // statements fall outside the window.
  Keyring ring;
  PublicKey k;
  k.bytes = testing::dev_key().public_key;
  k.key_id = key_id_for(k.bytes);
  k.source = KeySource::pinned;
  k.not_before = parse_time("2025-01-01T00:00:00Z");
  k.not_after = parse_time("2025-12-31T23:59:59Z");
  ring.add(k);
  auto r = verify_lines(valid_trace(), ring);
  EXPECT_TRUE(has_error(r, Code::statement_key_expired)) << testing::error_codes(r);
  EXPECT_VERDICT(r, Verdict::invalid);
  // Inside its window the same key is pinned.
  ring = Keyring();
  k.not_after = parse_time("2027-01-01T00:00:00Z");
  ring.add(k);
  auto ok = verify_lines(valid_trace(), ring);
  EXPECT_VERDICT(ok, Verdict::verified);
  EXPECT_EQ(ok.key_source, KeySource::pinned);
  EXPECT_TRUE(ok.warnings.empty());
}

// The verdict and the check lines rest on every error found, not on the
// sample of errors kept with their message.
const CheckReport& check_named(const VerifyReport& r, std::string_view name) {
  auto it = std::find_if(r.checks.begin(), r.checks.end(), [&](const CheckReport& c) { return c.name == name; });
  EXPECT_NE(it, r.checks.end()) << name;
  return *it;
}

uint64_t count_of(const VerifyReport& r, Code code) {
  for (const auto& t : r.errors_by_code) {
    if (t.code == code) return t.count;
  }
  return 0;
}

TEST(Counts, AChainBreakAfterTheStoredSampleStillFailsTheChain) {
  TraceSpec spec;
  spec.turns = 80;
  Lines lines = conversation_lines(spec, testing::dev_key());
  // 150 wire records with an empty body (body_field), re-chained so that
  // only the bodies are wrong...
  size_t emptied = 0;
  for (size_t i = 3; i < lines.size() && emptied < 150; ++i) {
    if (line_kind(lines[i]) != "wire") continue;
    lines[i] = with_body(lines[i], "{}");
    ++emptied;
  }
  ASSERT_EQ(emptied, 150u);
  rechain(lines, 0);
  // ...then one broken link near the end.
  const size_t seal = static_cast<size_t>(find_last(lines, "seal"));
  edit_body_byte(lines, seal - 2);
  auto r = verify_lines(lines);
  ASSERT_GT(r.error_count, kMaxStoredErrors + 1);
  EXPECT_VERDICT(r, Verdict::invalid);
  EXPECT_FALSE(check_named(r, "chain").passed);
  EXPECT_EQ(check_named(r, "chain").failures, count_of(r, Code::prev_mismatch));
  EXPECT_GE(count_of(r, Code::prev_mismatch), 1u);
  EXPECT_GE(count_of(r, Code::body_field), 150u);
  EXPECT_LE(r.errors.size(), kMaxStoredErrors);
  uint64_t total = 0;
  for (const auto& t : r.errors_by_code) total += t.count;
  EXPECT_EQ(total, r.error_count);
  // Without the break the chain holds: the check line follows the counts.
  Lines unbroken = lines;
  rechain(unbroken, 0);
  EXPECT_TRUE(check_named(verify_lines(unbroken), "chain").passed);
}

TEST(Counts, LimitErrorsBeforeATamperedLineGiveInvalid) {
  TraceSpec spec;
  spec.turns = 60;
  spec.ack_every = 1;
  spec.ack_lag = 4;
  Lines lines = conversation_lines(spec, testing::dev_key());
  Limits limits;
  limits.ack_window = 2;  // every ack points further back: limit_ack_window
  const std::string clean = join(lines);
  auto untampered = testing::verify_bytes(clean, testing::dev_keyring(), limits);
  ASSERT_GE(count_of(untampered, Code::limit_ack_window), 150u) << testing::error_codes(untampered);
  EXPECT_VERDICT(untampered, Verdict::error);
  const size_t seal = static_cast<size_t>(find_last(lines, "seal"));
  edit_body_byte(lines, seal - 2);
  auto r = testing::verify_bytes(join(lines), testing::dev_keyring(), limits);
  EXPECT_VERDICT(r, Verdict::invalid);
  EXPECT_FALSE(check_named(r, "chain").passed);
}

TEST(Counts, ReadingStopsAtMaxErrorsAndSaysSo) {
  Limits limits;
  limits.max_errors = 1000;
  auto r = testing::verify_bytes(std::string(5000, '\n'), testing::dev_keyring(), limits);
  EXPECT_VERDICT(r, Verdict::invalid);
  EXPECT_EQ(count_of(r, Code::blank_line), 1000u);
  EXPECT_EQ(count_of(r, Code::limit_errors), 1u);
  EXPECT_EQ(r.error_count, 1001u);
  ASSERT_FALSE(r.errors_by_code.empty());
  EXPECT_EQ(r.errors_by_code.front().first_seq, 0);
  EXPECT_EQ(r.errors.size(), kMaxStoredErrors);
  EXPECT_EQ(r.errors.back().code, Code::limit_errors);
  EXPECT_FALSE(r.complete_read);
}

}  // namespace
}  // namespace goalcup

namespace goalcup {
namespace {

// The ack window starts small and grows with the trace (a batch of small
// traces must not pay for a full window each): acks and the seal_ack after
// the window grew still find the records they cover, and a change to a
// record written before it grew is still caught.
TEST(AckWindow, GrowingKeepsWhatAcksCover) {
  fixtures::TraceSpec spec;
  spec.turns = 80;
  spec.ack_every = 300;  // the first ack comes after the window first grew
  const auto lines = fixtures::conversation_lines(spec, testing::dev_key());
  ASSERT_GT(lines.size(), 300u);
  const VerifyReport r = testing::verify_lines(lines);
  EXPECT_VERDICT(r, Verdict::verified);
  EXPECT_EQ(r.unattested_records, 0u);
  auto edited = lines;
  edited[100].replace(edited[100].find("\"t\":\"") + 6, 4, "1999");  // a record time, before the growth
  EXPECT_VERDICT(testing::verify_lines(edited), Verdict::invalid);
}

}  // namespace
}  // namespace goalcup
