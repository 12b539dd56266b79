// goalcup-inspect diff: the alignment, redactions told from edits, and the
// command on generated traces (identical, redacted, one tool call edited,
// a record removed, hostile text, nothing in common).
#include <simdjson.h>

#include <chrono>

#include "cheatcheck/secrets/redact.h"
#include "cli/json_dom.h"
#include "core/lines.h"
#include "inspect/diff.h"
#include "inspect/exchange.h"
#include "tests/support.h"

namespace goalcup::inspect {
namespace {

using fixtures::Lines;

Digest d(int v) {
  Digest x{};
  x[0] = static_cast<uint8_t>(v);
  x[1] = static_cast<uint8_t>(v >> 8);
  return x;
}

std::vector<Digest> seq_of(std::initializer_list<int> v) {
  std::vector<Digest> out;
  for (int i : v) out.push_back(d(i));
  return out;
}

TEST(DiffAlign, EqualSequencesHaveNoHunks) {
  const auto a = seq_of({1, 2, 3, 4});
  const Alignment al = align(a, a);
  EXPECT_TRUE(al.hunks.empty());
  EXPECT_FALSE(al.stopped_at);
}

TEST(DiffAlign, ARemovalAnAdditionAndAReplacementAreFoundWhereTheyAre) {
  const Alignment al = align(seq_of({1, 2, 3, 4, 5, 6}), seq_of({1, 3, 4, 9, 5, 7}));
  ASSERT_EQ(al.hunks.size(), 3u);
  EXPECT_EQ(al.hunks[0].a_from, 1u);  // 2 removed
  EXPECT_EQ(al.hunks[0].a_count, 1u);
  EXPECT_EQ(al.hunks[0].b_count, 0u);
  EXPECT_EQ(al.hunks[1].b_from, 3u);  // 9 added
  EXPECT_EQ(al.hunks[1].a_count, 0u);
  EXPECT_EQ(al.hunks[1].b_count, 1u);
  EXPECT_EQ(al.hunks[2].a_count, 1u);  // 6 -> 7
  EXPECT_EQ(al.hunks[2].b_count, 1u);
}

// Many scattered changes, far more than one window's edits: the windows
// carry on from where each stopped and still find each change alone.
TEST(DiffAlign, WindowsCarryOnPastTheirEditBudget) {
  std::vector<Digest> a, b;
  for (int i = 0; i < 2000; ++i) {
    a.push_back(d(i));
    b.push_back(i % 20 == 7 ? d(30000 + i) : d(i));
  }
  const Alignment al = align(a, b, {.max_edits = 8, .max_steps = 10'000'000});
  EXPECT_FALSE(al.stopped_at);
  ASSERT_EQ(al.hunks.size(), 100u);
  for (const Hunk& h : al.hunks) {
    EXPECT_EQ(h.a_count, 1u);
    EXPECT_EQ(h.b_count, 1u);
    EXPECT_EQ(h.a_from, h.b_from);
    EXPECT_EQ(h.a_from % 20, 7u);
  }
}

TEST(DiffAlign, NothingInCommonStopsAtTheWorkCapAndSaysWhere) {
  std::vector<Digest> a, b;
  for (int i = 0; i < 20000; ++i) {
    a.push_back(d(i));
    b.push_back(d(40000 + i));
  }
  const Alignment al = align(a, b, {.max_edits = 100, .max_steps = 100'000});
  ASSERT_TRUE(al.stopped_at);
  EXPECT_LT(al.stopped_at->first + al.stopped_at->second, 40000u);
  uint64_t edited = 0;
  for (const Hunk& h : al.hunks) edited += h.a_count + h.b_count;
  EXPECT_EQ(edited, al.stopped_at->first + al.stopped_at->second);  // all aligned so far is edits
}

TEST(DiffRedaction, MarkersWhereTheOriginalHadTextAreARedaction) {
  auto r = redaction_rules("key=AKIA1234 and tok=ghp_abc end", "key=[REDACTED:aws] and tok=[REDACTED:github-pat] end");
  ASSERT_TRUE(r);
  EXPECT_EQ(*r, (std::vector<std::string>{"aws", "github-pat"}));
  EXPECT_TRUE(redaction_rules("ABCD", "[REDACTED:x]"));
}

TEST(DiffRedaction, AnEditBesideAMarkerIsNotARedaction) {
  EXPECT_FALSE(redaction_rules("key=AKIA1234 ok", "key=[REDACTED:aws] OK"));       // text after it changed
  EXPECT_FALSE(redaction_rules("key=AKIA1234", "kex=[REDACTED:aws]"));             // text before it changed
  EXPECT_FALSE(redaction_rules("a b", "a [REDACTED:x] c [REDACTED:y] b"));         // markers need text to stand for
  EXPECT_FALSE(redaction_rules("plain text", "other text"));                       // no marker at all
  EXPECT_FALSE(redaction_rules("key=", "key=[REDACTED:aws]"));                     // nothing was there
}

// Openers that never close: each one's `]` is looked for within a rule
// name's bound, not to the end of the text.
TEST(DiffRedaction, UnclosedMarkersAreReadInLinearTime) {
  std::string openers;
  while (openers.size() < (4u << 20)) openers += "[REDACTED:";
  const auto start = std::chrono::steady_clock::now();
  EXPECT_FALSE(redaction_rules(openers + "x", openers));
  const std::string apart(100, '.');  // a rule name's `]` is at most 64 bytes on
  auto r = redaction_rules(openers + apart + "key=AKIA1234", openers + apart + "key=[REDACTED:aws]");
  ASSERT_TRUE(r);
  EXPECT_EQ(*r, std::vector<std::string>{"aws"});
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 30.0);
}

// --- the command on generated traces ---

std::string dev_key_file() { return testing::source_path("fixtures/keys/dev-key.json"); }

testing::CommandResult diff_json(const std::string& a, const std::string& b, const std::string& extra = "") {
  return testing::run_command(std::string(GOALCUP_INSPECT_BIN) + " --dev-key " + dev_key_file() + " diff --format json " +
                              extra + " " + a + " " + b);
}

struct Counts {
  uint64_t unchanged = 0, redacted = 0, changed = 0, removed = 0, added = 0;
  bool same = false, aligned = true;
  std::vector<std::string> ops, wheres;  // of every change and field shown
};

Counts counts_of(const std::string& json) {
  simdjson::dom::parser p;
  Counts c;
  simdjson::dom::element root;
  if (p.parse(json).get(root)) {
    ADD_FAILURE() << "not JSON: " << json.substr(0, 400);
    return c;
  }
  c.same = root["same"].get_bool().value();
  for (auto s : root["streams"].get_array()) {
    c.unchanged += s["unchanged"].get_uint64().value();
    c.redacted += s["redacted"].get_uint64().value();
    c.changed += s["changed"].get_uint64().value();
    c.removed += s["removed"].get_uint64().value();
    c.added += s["added"].get_uint64().value();
    c.aligned &= s["aligned"].get_bool().value();
    for (auto ch : s["changes"].get_array()) {
      c.ops.push_back(std::string(s["stream"].get_string().value()) + ":" + std::string(ch["op"].get_string().value()));
      for (auto f : ch["fields"].get_array()) c.wheres.emplace_back(f["where"].get_string().value());
    }
  }
  return c;
}

std::string trace_file(const std::string& name, const Lines& lines) { return testing::write_temp(name, fixtures::join(lines)); }

TEST(DiffCommand, IdenticalTracesHaveNoChangesAndExitZero) {
  const std::string a = trace_file("diff-same.jsonl", testing::valid_trace());
  auto r = diff_json(a, a);
  EXPECT_EQ(r.exit_code, 0);
  const Counts c = counts_of(r.out);
  EXPECT_TRUE(c.same);
  EXPECT_EQ(c.redacted + c.changed + c.removed + c.added, 0u);
  EXPECT_GT(c.unchanged, 20u);
}

// A trace and what `goalcup-cheatcheck redact` makes of it: re-chained and
// re-signed, every secret a marker, and nothing else reported.
TEST(DiffCommand, ARedactedCopyShowsOnlyRedactions) {
  for (auto style : {fixtures::HarnessStyle::claude_code, fixtures::HarnessStyle::codex}) {
    fixtures::TraceSpec spec;
    spec.style = style;
    spec.turns = 6;
    spec.plants = {"secret-plain", "secret-header", "secret-sse-split", "secret-json-twice", "secret-base64",
                   "secret-env-base64", "secret-base64-lines", "secret-uescape", "secret-url"};
    Lines lines;
    fixtures::write_conversation(spec, testing::dev_key(), [&](const std::string& l) { lines.push_back(l); });
    const std::string a = trace_file("diff-leaks.jsonl", lines), b = testing::temp_dir() + "/diff-redacted.jsonl";
    ASSERT_EQ(testing::run_command(std::string(GOALCUP_CHEATCHECK_BIN) + " redact " + a + " -o " + b + " --key " +
                                   dev_key_file() + " 2>/dev/null").exit_code, 0);
    auto r = diff_json(a, b);
    EXPECT_EQ(r.exit_code, 1);
    const Counts c = counts_of(r.out);
    EXPECT_GT(c.redacted, 0u);
    EXPECT_EQ(c.changed + c.removed + c.added, 0u) << r.out.substr(0, 3000);
    for (const auto& op : c.ops) EXPECT_TRUE(op.ends_with(":redacted")) << op;
    EXPECT_TRUE(c.aligned);
  }
}

// The leaks sample holds credentials of many kinds, some base64-encoded
// (re-encoded by the redactor with the marker inside): all are redactions.
TEST(DiffCommand, TheLeaksSampleAgainstItsRedactedCopyIsOnlyRedactions) {
  const std::string b = testing::temp_dir() + "/diff-leaks-sample-redacted.jsonl";
  const std::string a = testing::sample_path("claude-code-leaks.jsonl");
  ASSERT_EQ(testing::run_command(std::string(GOALCUP_CHEATCHECK_BIN) + " redact " + a + " -o " + b + " --key " +
                                 dev_key_file() + " 2>/dev/null").exit_code, 0);
  auto r = diff_json(a, b);
  const Counts c = counts_of(r.out);
  EXPECT_GT(c.redacted, 5u);
  EXPECT_EQ(c.changed + c.removed + c.added, 0u) << r.out.substr(0, 4000);
  EXPECT_NE(r.out.find("base64 decoded: "), std::string::npos);
}

// The record at `seq` with `from` replaced by `to` wherever it shows in its
// decoded body (the redactor's machinery: across SSE deltas, inside JSON
// strings), then the chain recomputed.
void edit_and_rechain(Lines& lines, size_t seq, const std::string& from, const std::string& to) {
  const cheat::Redactor edit({{from, "edit", to}}, Limits{});
  std::string line = lines[seq];
  const std::string padded = line + std::string(kLinePadding, '\0');
  RecordParser parser{Limits{}};
  auto rec = parser.parse(std::string_view(padded).substr(0, line.size()), seq);
  ASSERT_TRUE(rec);
  std::string decoded;
  auto body = edit.redact(wire_body(*rec, &decoded));
  ASSERT_TRUE(body) << "no " << from << " in seq " << seq;
  std::string rewritten;  // the record's body with the new wire body
  JsonWriter w(&rewritten);
  w.begin_object();
  for (auto f : rec->body) {
    w.key(f.key);
    if (f.key == "body") w.value(*body);
    else write_dom(w, f.value);
  }
  w.end_object();
  lines[seq] = fixtures::with_body(line, rewritten);
  fixtures::rechain(lines, 0);
}

// The first response that calls a tool with a "command": its seq, the
// call's input as streamed, and the command.
struct Call {
  size_t seq = 0;
  std::string input, command;
};
Call first_command(const Lines& lines) {
  RecordParser parser{Limits{}};
  BodyParsers answer_parsers{Limits{}};
  simdjson::dom::parser json;
  for (size_t i = 0; i < lines.size(); ++i) {
    const std::string padded = lines[i] + std::string(kLinePadding, '\0');
    auto rec = parser.parse(std::string_view(padded).substr(0, lines[i].size()), i);
    if (!rec || rec->kind != Kind::wire) continue;
    std::string decoded;
    const RebuiltAnswer a = read_answer(wire_body(*rec, &decoded), answer_parsers);
    for (const auto& call : a.tool_calls) {
      std::string_view command;
      simdjson::dom::element root;
      if (!json.parse(call.input).get(root) && !root["command"].get_string().get(command) && command.size() > 4) {
        return {i, call.input, std::string(command)};
      }
    }
  }
  return {};
}

// The call's input with its command replaced (the answer's text may quote
// the command too: only the input is edited).
void edit_command(Lines& lines, const Call& call, const std::string& command) {
  std::string input = call.input;
  input.replace(input.find(call.command), call.command.size(), command);
  edit_and_rechain(lines, call.seq, call.input, input);
}

// A generated trace and its copy with the first tool command replaced: paths.
std::pair<std::string, std::string> original_and_edited(const std::string& name, const std::string& command) {
  Lines lines = testing::valid_trace(fixtures::HarnessStyle::claude_code, fixtures::Ending::sealed, 6);
  const std::string a = trace_file(name + "-orig.jsonl", lines);
  const Call call = first_command(lines);
  EXPECT_FALSE(call.command.empty());
  if (!call.command.empty()) edit_command(lines, call, command);
  return {a, trace_file(name + "-edited.jsonl", lines)};
}

TEST(DiffCommand, OneToolCallEditedAndRechainedIsExactlyOneChange) {
  const auto [a, b] = original_and_edited("diff-edit", "rm -rf --edited /");
  auto r = diff_json(a, b);
  EXPECT_EQ(r.exit_code, 1);
  const Counts c = counts_of(r.out);
  EXPECT_EQ(c.changed, 1u) << r.out.substr(0, 3000);
  EXPECT_EQ(c.redacted + c.removed + c.added, 0u);
  ASSERT_EQ(c.ops, std::vector<std::string>{"exchanges:changed"});
  ASSERT_EQ(c.wheres.size(), 1u);
  EXPECT_TRUE(c.wheres[0].ends_with("/tool_call/input/command")) << c.wheres[0];
  EXPECT_NE(r.out.find("--edited"), std::string::npos);
}

TEST(DiffCommand, ARecordRemovedOrAddedIsReportedSo) {
  Lines lines = testing::valid_trace(fixtures::HarnessStyle::codex, fixtures::Ending::sealed, 5);
  const int64_t native = fixtures::find_first(lines, "native", 5);
  ASSERT_GT(native, 0);
  const std::string a = trace_file("diff-full.jsonl", lines);
  fixtures::delete_record(lines, static_cast<size_t>(native), true);
  const std::string b = trace_file("diff-less.jsonl", lines);
  Counts removed = counts_of(diff_json(a, b).out);
  EXPECT_EQ(removed.removed, 1u);
  EXPECT_EQ(removed.changed + removed.redacted + removed.added, 0u);
  EXPECT_EQ(removed.ops, std::vector<std::string>{"native:removed"});
  Counts added = counts_of(diff_json(b, a).out);
  EXPECT_EQ(added.added, 1u);
  EXPECT_EQ(added.changed + added.redacted + added.removed, 0u);
  EXPECT_EQ(added.ops, std::vector<std::string>{"native:added"});
}

// Trace text that would drive a terminal is shown escaped in text and
// Markdown, and escaped as JSON in JSON.
TEST(DiffCommand, ControlsInChangedTextAreEscaped) {
  const auto [a, b] = original_and_edited("diff-hostile", "\x1b]0;owned\x07\x1b[2J\u202e");
  for (const char* format : {"text", "markdown"}) {
    auto r = testing::run_command(std::string(GOALCUP_INSPECT_BIN) + " diff --format " + format + " " + a + " " + b);
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_EQ(r.out.find('\x1b'), std::string::npos) << format;
    EXPECT_EQ(r.out.find('\x07'), std::string::npos) << format;
    EXPECT_EQ(r.out.find("\u202e"), std::string::npos) << format;
    EXPECT_NE(r.out.find("\\x1b]0;owned"), std::string::npos) << format << r.out.substr(0, 2000);
  }
  auto r = diff_json(a, b);
  EXPECT_EQ(r.out.find('\x1b'), std::string::npos);
  EXPECT_NE(r.out.find("\\u001b]0;owned"), std::string::npos);
}

// Two runs with nothing in common: the output stays bounded and, past the
// work cap, says where alignment stopped instead of running on.
TEST(DiffCommand, TracesWithNothingInCommonGiveBoundedOutput) {
  const std::string a = trace_file("diff-codex.jsonl", testing::valid_trace(fixtures::HarnessStyle::codex, fixtures::Ending::sealed, 60));
  const std::string b = trace_file("diff-claude.jsonl", testing::valid_trace(fixtures::HarnessStyle::claude_code, fixtures::Ending::unsealed, 60));
  auto whole = diff_json(a, b, "--max-changes 5");
  EXPECT_EQ(whole.exit_code, 1);
  EXPECT_LT(whole.out.size(), 64u << 10);
  const Counts c = counts_of(whole.out);
  EXPECT_TRUE(c.aligned);
  EXPECT_LE(c.ops.size(), 15u);  // 5 per stream
  auto cut = testing::run_command(std::string(GOALCUP_INSPECT_BIN) + " diff --max-steps 1000 --max-changes 5 " + a + " " + b);
  EXPECT_EQ(cut.exit_code, 1);
  EXPECT_NE(cut.out.find("too different to align beyond a seq"), std::string::npos) << cut.out.substr(0, 3000);
  EXPECT_LT(cut.out.size(), 64u << 10);
  EXPECT_FALSE(counts_of(diff_json(a, b, "--max-steps 1000").out).aligned);
}

TEST(DiffCommand, AnUnreadableTraceIsOneLineAndExitTwo) {
  const std::string a = trace_file("diff-one.jsonl", testing::valid_trace());
  auto r = testing::run_command(std::string(GOALCUP_INSPECT_BIN) + " diff " + a + " /nonexistent.jsonl");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(r.out.empty()) << r.out;
}

// A credential that differs is shown as its masked preview on both sides,
// unless --show-secrets.
TEST(DiffCommand, CredentialsInChangedTextAreMasked) {
  fixtures::TraceSpec spec;
  spec.turns = 4;
  spec.plants = {"secret-plain"};
  fixtures::WrittenTrace written;
  Lines lines = fixtures::conversation_lines(spec, testing::dev_key(), &written);
  ASSERT_FALSE(written.secrets.empty());
  const std::string secret = written.secrets.front().second;
  const std::string a = trace_file("diff-secret-a.jsonl", lines);
  std::string other = secret;
  other[other.size() - 5] = other[other.size() - 5] == 'x' ? 'y' : 'x';
  for (auto& l : lines) {
    for (size_t p = l.find(secret); p != std::string::npos; p = l.find(secret, p)) l.replace(p, secret.size(), other);
  }
  const std::string b = trace_file("diff-secret-b.jsonl", lines);
  auto masked = diff_json(a, b);
  EXPECT_EQ(masked.exit_code, 1);
  EXPECT_GT(counts_of(masked.out).changed, 0u);
  EXPECT_EQ(masked.out.find(secret), std::string::npos);
  EXPECT_EQ(masked.out.find(other), std::string::npos);
  auto shown = diff_json(a, b, "--show-secrets");
  EXPECT_NE(shown.out.find(secret.substr(secret.size() - 12)), std::string::npos) << shown.out.substr(0, 3000);
}

// A limit stops the reading: the records read are shown, but the two are
// never called the same.
TEST(DiffCommand, ATraceNotReadToTheEndIsNotCalledTheSame) {
  const std::string a = trace_file("diff-limited.jsonl", testing::valid_trace());
  EXPECT_EQ(diff_json(a, a).exit_code, 0);
  auto r = diff_json(a, a, "--max-records 5");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.out.find("\"verdict\": \"error\""), std::string::npos) << r.out.substr(0, 600);
}

}  // namespace
}  // namespace goalcup::inspect
