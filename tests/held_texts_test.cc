// Texts a harness log says the model was sent by the harness itself, held
// to what the requests carried (red-team 18b #08 and #10): Claude Code 2.x
// attachment lines whose own text Claude Code sends as it stands (a changed
// file's snippet, a memory file, a plan, a todo list, an IDE selection, a
// critical reminder, skills, an MCP resource), and Codex's base
// instructions (session_meta, turn_context) that requests carry as their
// `instructions`. Honest wraps are clean; each edit of such a text is high
// (a hook's output: a warning, as some releases log it unsent).
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "cheatcheck/attachment_text.h"
#include "cheatcheck/codex_instructions.h"
#include "cheatcheck/scanner.h"
#include "fixtures/writer/tamper.h"
#include "fixtures/writer/wrap.h"
#include "tests/support.h"

namespace goalcup::cheat {
namespace {

using fixtures::LogEdit;
using fixtures::WireForm;
using fixtures::WrapOrder;

std::string describe_findings(const CheatReport& r) {
  std::string s;
  for (const auto& f : r.findings) s += "  " + f.check + "/" + std::string(severity_name(f.severity)) + ": " + f.message + "\n";
  return s;
}

bool has(const CheatReport& r, Severity s, const std::string& words) {
  return std::any_of(r.findings.begin(), r.findings.end(), [&](const Finding& f) {
    return f.check == "GC04" && f.severity == s && f.message.find(words) != std::string::npos;
  });
}

bool any_high_or_warning(const CheatReport& r) {
  return std::any_of(r.findings.begin(), r.findings.end(),
                     [](const Finding& f) { return f.severity == Severity::high || f.severity == Severity::warning; });
}

// A native line edited after wrapping breaks the server's statements
// (verify, GC01): only GC04's judgement of the edit is looked at.
bool gc04_high_or_warning(const CheatReport& r) {
  return has(r, Severity::high, "") || has(r, Severity::warning, "");
}

fixtures::Lines wrapped(const std::string& log, const fixtures::WrapSpec& spec) {
  fixtures::Lines lines;
  fixtures::wrap_log(log, spec, testing::dev_key(), [&](const std::string& l) { lines.push_back(l); });
  return lines;
}

CheatReport checked(const fixtures::Lines& lines) {
  static const Keyring ring = testing::dev_keyring();
  CheatOptions opt;
  opt.walk.keyring = &ring;
  return check_trace(testing::write_temp("held-texts.jsonl", fixtures::join(lines)), opt);
}

// A cheater's edit of the wrapped trace: in the first native line holding
// `from`, `from` becomes `to`, the chain made whole again.
bool edit_first_native(fixtures::Lines& lines, const std::string& from, const std::string& to) {
  for (size_t i = 0; i < lines.size(); ++i) {
    std::string body = fixtures::line_body(lines[i]);
    const size_t at = body.find(from);
    if (fixtures::line_kind(lines[i]) != "native" || at == std::string::npos) continue;
    lines[i] = fixtures::with_body(lines[i], body.replace(at, from.size(), to));
    fixtures::rechain(lines, i);
    return true;
  }
  return false;
}

std::string claude_line(const std::string& uuid, const std::string& parent, const std::string& time, const std::string& rest) {
  return R"({"parentUuid":)" + (parent.empty() ? std::string("null") : "\"" + parent + "\"") +
         R"(,"isSidechain":false,"userType":"external","cwd":"/w","sessionId":"s1","version":"2.1.88",)" + rest +
         R"(,"uuid":")" + uuid + R"(","timestamp":"2026-01-01T10:00:)" + time + R"(Z"})" + "\n";
}

std::string attachment(const std::string& uuid, const std::string& parent, const std::string& time, const std::string& a) {
  return claude_line(uuid, parent, time, R"("type":"attachment","attachment":)" + a);
}

// A selection past Claude Code's 2,000 UTF-16 code units: it sends the
// head (here 1,999 ASCII characters and one 'é') and cuts the tail.
std::string long_selection() {
  return "SELECTION-HEAD " + std::string(1984, 'x') + "\u00e9" + " SELECTION-TAIL";
}

// A Claude Code 2.1 session: a tool call, its result, then the attachment
// lines Claude Code writes before its next request, and the answer.
std::string claude_log_with_attachments() {
  const std::string m = R"("model":"claude-opus-4-5","type":"message","role":"assistant","usage":{"input_tokens":3,"output_tokens":9})";
  std::string log;
  log += claude_line("u1", "", "01.000", R"("type":"user","message":{"role":"user","content":"Fix the parser"})");
  log += claude_line("a1", "u1", "02.000",
                     R"("type":"assistant","message":{"id":"msg_A",)" + m +
                         R"(,"content":[{"type":"tool_use","id":"toolu_1","name":"Bash","input":{"command":"ls"}}]})");
  log += claude_line("u2", "a1", "02.100",
                     R"("type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"parser.py"}]})");
  const std::vector<std::string> kinds = {
      R"({"type":"edited_text_file","filename":"/w/parser.py","snippet":"12\tdef parse(): return TREE"})",
      R"({"type":"nested_memory","path":"/w/CLAUDE.md","content":{"path":"/w/CLAUDE.md","type":"Project","content":"Always run the whole suite."}})",
      R"({"type":"plan_file_reference","planFilePath":"/p/plan.md","planContent":"Step one: rewrite parse()."})",
      R"({"type":"todo_reminder","content":[{"content":"Make parse() return a tree","status":"in_progress","activeForm":"Fixing"}],"itemCount":1})",
      R"({"type":"selected_lines_in_ide","filename":"/w/parser.py","lineStart":1,"lineEnd":3,"content":")" + long_selection() + R"("})",
      R"({"type":"opened_file_in_ide","filename":"/w/notes.md"})",
      R"({"type":"critical_system_reminder","content":"Never edit the test files."})",
      R"({"type":"invoked_skills","skills":[{"name":"tdd","path":"/s/tdd.md","content":"Write the failing test first."}]})",
      R"({"type":"mcp_resource","server":"docs","uri":"docs://parser","content":{"contents":[{"uri":"docs://parser","text":"Parser API: parse(text) returns a Tree."}]}})",
      R"({"type":"hook_success","hookName":"UserPromptSubmit","hookEvent":"UserPromptSubmit","toolUseID":"x","content":"Branch is main."})",
      // Claude Code sends no PostToolUse hook_success: not held. Nor
      // relevant memories, which 2.1 may find while the model answers.
      R"({"type":"hook_success","hookName":"PostToolUse:Bash","hookEvent":"PostToolUse","toolUseID":"toolu_1","content":"Lint ran."})",
      R"({"type":"relevant_memories","memories":[{"path":"/m/a.md","content":"Old notes on the lexer.","mtimeMs":1}]})",
  };
  std::string parent = "u2";
  for (size_t i = 0; i < kinds.size(); ++i) {
    const std::string uuid = "t" + std::to_string(i);
    log += attachment(uuid, parent, "02." + std::to_string(200 + i), kinds[i]);
    parent = uuid;
  }
  log += claude_line("a2", parent, "03.000",
                     R"("type":"assistant","message":{"id":"msg_B",)" + m + R"(,"content":[{"type":"text","text":"Fixed."}]})");
  return log;
}

TEST(HeldAttachments, TextsClaudeCodeSendsAsTheyStandAreHighWhenNoRequestCarriedThem) {
  const std::string log = claude_log_with_attachments();
  // Each edit as (from, to, what it must give).
  struct Edit {
    std::string from, to;
    Severity severity;
  };
  const std::vector<Edit> edits = {
      {"return TREE", "return None", Severity::high},
      {"Always run the whole suite.", "Skipping slow tests is fine.", Severity::high},
      {"Step one: rewrite parse().", "Step one: delete the tests.", Severity::high},
      {"Make parse() return a tree", "Mark the tests as skipped", Severity::high},
      {"SELECTION-HEAD", "SELECTION-EDIT", Severity::high},
      {"/w/notes.md", "/w/answers.md", Severity::high},
      {"Never edit the test files.", "Editing the tests is allowed.", Severity::high},
      {"Write the failing test first.", "Skip writing tests.", Severity::high},
      {"Parser API: parse(text) returns a Tree.", "Parser API: tests may be skipped.", Severity::high},
      {"Branch is main.", "The judge allows skipping tests.", Severity::warning},
  };
  for (WireForm form : {WireForm::same, WireForm::smooshed}) {
    for (WrapOrder order : {WrapOrder::live, WrapOrder::late}) {
      SCOPED_TRACE(std::string(form == WireForm::same ? "same" : "smooshed") + (order == WrapOrder::live ? " live" : " late"));
      fixtures::WrapSpec spec;
      spec.order = order;
      spec.wire_form = form;
      spec.file = "claude.jsonl";
      const fixtures::Lines honest = wrapped(log, spec);
      const CheatReport clean = checked(honest);
      EXPECT_FALSE(any_high_or_warning(clean)) << describe_findings(clean);
      for (const Edit& e : edits) {
        SCOPED_TRACE(e.from);
        fixtures::Lines lines = honest;
        ASSERT_TRUE(edit_first_native(lines, e.from, e.to));
        const CheatReport r = checked(lines);
        EXPECT_TRUE(has(r, e.severity, "attachment")) << describe_findings(r);
        if (e.severity != Severity::high) {
          EXPECT_FALSE(has(r, Severity::high, "")) << describe_findings(r);
        }
      }
      // Past the 2,000 code units Claude Code sends of a selection: not held.
      // Nor a hook's output Claude Code does not send (PostToolUse success).
      for (const auto& [from, to] : std::vector<std::pair<std::string, std::string>>{
               {"SELECTION-TAIL", "SELECTION-TWEAK"}, {"Lint ran.", "Lint was skipped."},
               {"Old notes on the lexer.", "The judge allows skipped tests."}}) {
        fixtures::Lines lines = honest;
        ASSERT_TRUE(edit_first_native(lines, from, to));
        const CheatReport r = checked(lines);
        EXPECT_FALSE(gc04_high_or_warning(r)) << from << "\n" << describe_findings(r);
      }
    }
  }
}

// An attachment written before a compaction may reach the model only in the
// compaction's summary: unsent, it is a warning, not high.
TEST(HeldAttachments, AnAttachmentBeforeACompactionIsOnlyAWarning) {
  std::string log = claude_log_with_attachments();
  const size_t answer = log.find(R"("id":"msg_B")");
  ASSERT_NE(answer, std::string::npos);
  const size_t at = log.rfind('\n', answer) + 1;
  log.insert(at, claude_line("c1", "", "02.900", R"("type":"system","subtype":"compact_boundary","content":"Conversation compacted","isMeta":false,"level":"info","logicalParentUuid":"t11","compactMetadata":{"trigger":"auto","preTokens":100})"));
  fixtures::WrapSpec spec;
  spec.file = "claude.jsonl";
  fixtures::Lines lines = wrapped(log, spec);
  ASSERT_TRUE(edit_first_native(lines, "return TREE", "return None"));
  const CheatReport r = checked(lines);
  EXPECT_TRUE(has(r, Severity::warning, "attachment")) << describe_findings(r);
  EXPECT_FALSE(has(r, Severity::high, "attachment")) << describe_findings(r);
}

TEST(HeldAttachments, ASelectionIsHeldAsFarAsClaudeCodeSendsIt) {
  EXPECT_EQ(utf16_prefix("abc", 2), "ab");
  EXPECT_EQ(utf16_prefix("a\u00e9b", 2), "a\u00e9");
  // A code point past U+FFFF is two code units: not split.
  EXPECT_EQ(utf16_prefix("a\U0001F600b", 2), "a");
  EXPECT_EQ(utf16_prefix("a\U0001F600b", 3), "a\U0001F600");
  EXPECT_EQ(utf16_prefix("", 5), "");
}

// A Codex rollout with its base instructions in one of the shapes Codex
// writes them (session_meta: an object {"text"} in 0.135, a string; a
// turn_context's), a turn and its answer.
std::string codex_log(const std::string& session_meta, const std::string& turn_context) {
  auto line = [](const std::string& time, const std::string& type, const std::string& payload) {
    return R"({"timestamp":"2026-01-01T10:00:)" + time + R"(Z","type":")" + type + R"(","payload":)" + payload + "}\n";
  };
  std::string log = line("00.000", "session_meta", session_meta);
  log += line("00.100", "turn_context", turn_context);
  log += line("01.000", "response_item", R"({"type":"message","role":"user","content":[{"type":"input_text","text":"Fix it"}]})");
  log += line("01.000", "event_msg", R"({"type":"user_message","message":"Fix it","images":[]})");
  log += line("02.000", "response_item", R"({"type":"message","role":"assistant","content":[{"type":"output_text","text":"Fixed."}]})");
  log += line("02.000", "event_msg", R"({"type":"agent_message","message":"Fixed."})");
  return log;
}

TEST(HeldInstructions, CodexBaseInstructionsNoRequestCarriedAreHigh) {
  const std::string object = R"({"id":"s1","cli_version":"0.135.0","base_instructions":{"text":"You are Codex, a coding agent. Run the tests before you finish."}})";
  const std::string string = R"({"id":"s1","cli_version":"0.80.0","base_instructions":"You are Codex, a coding agent. Run the tests before you finish."})";
  const std::string plain = R"({"id":"s1","cli_version":"0.80.0"})";
  const std::string turn = R"({"model":"gpt-5-codex"})";
  const std::string turn_with = R"({"model":"gpt-5-codex","base_instructions":"You are Codex, a coding agent. Run the tests before you finish."})";
  for (const auto& [meta, ctx] : std::vector<std::pair<std::string, std::string>>{{object, turn}, {string, turn}, {plain, turn_with}}) {
    for (WrapOrder order : {WrapOrder::live, WrapOrder::late}) {
      SCOPED_TRACE(meta + " / " + ctx);
      fixtures::WrapSpec spec;
      spec.order = order;
      spec.file = "rollout.jsonl";
      const fixtures::Lines honest = wrapped(codex_log(meta, ctx), spec);
      const CheatReport clean = checked(honest);
      EXPECT_FALSE(any_high_or_warning(clean)) << describe_findings(clean);
      // A cheater's instructions, by hand and by the wrapper's edit.
      fixtures::Lines lines = honest;
      ASSERT_TRUE(edit_first_native(lines, "Run the tests before you finish.", "Tests are optional."));
      const CheatReport edited = checked(lines);
      EXPECT_TRUE(has(edited, Severity::high, "base_instructions")) << describe_findings(edited);
      spec.edit = LogEdit::change_base_instructions;
      fixtures::Lines by_edit;
      const fixtures::WrapResult result =
          fixtures::wrap_log(codex_log(meta, ctx), spec, testing::dev_key(), [&](const std::string& l) { by_edit.push_back(l); });
      ASSERT_TRUE(result.edited);
      const CheatReport r = checked(by_edit);
      EXPECT_TRUE(has(r, Severity::high, "base_instructions")) << describe_findings(r);
    }
  }
}

// Codex appends the apply_patch tool's instructions to the base ones for
// some models, and a trace whose requests carry no instructions at all
// (another API) has nothing to hold them to: neither is an edit.
TEST(HeldInstructions, InstructionsWithinWhatWasSentOrWithNothingToHoldThemToAreNoEdit) {
  NativeInfo meta;
  meta.harness = NativeInfo::Harness::codex;
  meta.file = "rollout.jsonl";
  meta.instructions = "You are Codex.";
  NativeInfo answer;
  answer.harness = NativeInfo::Harness::codex;
  answer.file = "rollout.jsonl";
  answer.assistant = true;
  simdjson::dom::parser parser;
  auto request = [&](const std::string& json) { return simdjson::dom::object(parser.parse(simdjson::padded_string(json)).value()); };

  CodexInstructions appended;
  appended.logged(meta, 1);
  appended.logged(answer, 2);
  appended.sent(request(R"({"model":"gpt-4.1","instructions":"You are Codex.\nUse apply_patch to edit files.","input":[]})"), false);
  EXPECT_TRUE(appended.judge(false).unsent.empty());

  CodexInstructions none;
  none.logged(meta, 1);
  none.logged(answer, 2);
  none.sent(request(R"({"model":"gpt-4.1","input":[]})"), false);
  EXPECT_TRUE(none.judge(false).unsent.empty());

  CodexInstructions other;
  other.logged(meta, 1);
  other.logged(answer, 2);
  other.sent(request(R"({"model":"gpt-4.1","instructions":"You are a helpful assistant.","input":[]})"), false);
  EXPECT_EQ(other.judge(false).unsent.count, 1u);
  // A request that could not be read may have carried them: not judged.
  EXPECT_TRUE(other.judge(true).unsent.empty());
  EXPECT_EQ(other.judge(true).uncompared.count, 1u);

  // Never followed by an answer: perhaps never sent.
  CodexInstructions unanswered;
  unanswered.logged(meta, 1);
  unanswered.sent(request(R"({"model":"gpt-4.1","instructions":"You are a helpful assistant.","input":[]})"), false);
  EXPECT_TRUE(unanswered.judge(false).unsent.empty());
}

}  // namespace
}  // namespace goalcup::cheat
