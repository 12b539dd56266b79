// GC04: processes of the run could call the control API and make the
// harness log model output that never crossed the wire. Whole turns are
// compared both ways: each answer the harness logged (Claude Code by
// message id, Codex by message text and call id) against the answer rebuilt
// from its wire stream: its text, and its tool calls (id, name, and input
// compared as JSON values). Tool results are held to the calls: a result
// for a call that was never made, or a result the harness sent the model
// (in a later request) that its log does not show, is an edit of the log.
// What was said is held to what was sent, too: each tool result the log
// shows against the forms of it the requests carried, each prompt of the
// user that was answered against the prompts the requests carried, and
// each Codex agent_message event against the answers, each provider-run
// tool's result (Anthropic web search, fetch, code execution) against the
// block streamed, and each Codex event repeating a command's output
// (exec_command_end) against the output logged. Harnesses re-encode
// (a string or text blocks, Codex's cut-down long outputs, Claude Code's
// content replacements): what differs only so is listed at info.
// The other way, what the wire carried must be in the log, where no flag
// the log's lines carry can excuse it: each Claude Code user text a request
// sent with a logged answer, each answer's text (Codex: each message item),
// and the model's reasoning (thinking, reasoning summaries) as streamed.
// Only hashed ids, seqs and digests are kept, for at most kMaxTracked
// items, plus the ends of logged tool results (for cut-down forms) within
// kMaxKeptBytes.
#include <absl/container/flat_hash_map.h>
#include <absl/container/flat_hash_set.h>
#include <xxhash.h>

#include <string.h>

#include <algorithm>
#include <cctype>
#include <deque>
#include <optional>

#include "cheatcheck/checks/check.h"
#include "cheatcheck/codex_events.h"
#include "cheatcheck/codex_context.h"
#include "cheatcheck/codex_reviews.h"
#include "cheatcheck/codex_titles.h"
#include "cheatcheck/codex_instructions.h"
#include "cheatcheck/codex_summary_prefix.h"
#include "cheatcheck/held_copies.h"
#include "cheatcheck/literal_set.h"
#include "cheatcheck/progress_copies.h"
#include "cheatcheck/progress_outputs.h"
#include "cheatcheck/said_text.h"
#include "cheatcheck/texts_within.h"
#include "cheatcheck/turn_order.h"
#include "core/json_digest.h"
#include "core/sse.h"
#include "core/json_strict.h"
#include "core/sha256.h"

namespace goalcup::cheat {
namespace {


// Text with each run of white space as one space, trimmed: Claude Code
// writes a compaction's summary with blank lines collapsed.
std::string spaced(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char c : trimmed_text(s)) {
    const bool space = c == ' ' || c == '\t' || c == '\r' || c == '\n';
    if (!space) {
      out += c;
    } else if (out.back() != ' ') {
      out += ' ';
    }
  }
  return out;
}

// What of a compaction's summarising answer Claude Code's isCompactSummary
// line repeats (formatCompactSummary): the first <analysis> block dropped
// (or, in 1.0, kept as "Analysis:"), the <summary> block's content after
// "Summary:"; without one, the text after the analysis.
std::string_view compact_summary_part(std::string_view text) {
  auto summary_in = [](std::string_view part) -> std::optional<std::string_view> {
    const size_t open = part.find("<summary>");
    const size_t close = open == std::string_view::npos ? open : part.find("</summary>", open);
    if (close == std::string_view::npos) return std::nullopt;
    return part.substr(open + 9, close - open - 9);
  };
  const size_t analysis = text.find("<analysis>");
  const size_t analysis_end = analysis == std::string_view::npos ? analysis : text.find("</analysis>", analysis);
  if (analysis_end == std::string_view::npos) return summary_in(text).value_or(text);
  const std::string_view after = text.substr(analysis_end + 11);
  return summary_in(after).value_or(summary_in(text.substr(0, analysis)).value_or(after));
}

// The summarising answer a Codex `compacted` summary holds after Codex's
// prefix (trimmed; empty when it holds none); nullopt without the prefix.
std::optional<std::string_view> codex_summary_answer(std::string_view summary) {
  const std::optional<std::string_view> rest = codex_summary_past_prefix(summary);
  if (!rest) return std::nullopt;
  return trimmed_text(*rest);
}

// What a tool result as sent holds, read in one pass (a result is read
// once for all of them, not once per marker).
struct SentMarks {
  bool reminder = false;           // "<system-reminder>"
  bool cut = false;                // "truncated" or "omitted"
  bool redaction_opening = false;  // "[REDACTED:", which has_redaction() then judges
};

SentMarks sent_marks(std::string_view text) {
  static const LiteralSet kMarks({"<system-reminder>", "truncated", "omitted", "[REDACTED:"}, LiteralSet::Case::exact);
  const uint64_t found = kMarks.present(text);
  return {(found & 1) != 0, (found & 6) != 0, (found & 8) != 0};
}

// The loose digests of the <system-reminder> blocks in a text, at most
// `max` of them (`over` set when there are more).
std::vector<Digest> reminder_blocks_in(std::string_view text, size_t max, bool* over) {
  constexpr std::string_view kOpen = "<system-reminder>", kClose = "</system-reminder>";
  std::vector<Digest> blocks;
  for (size_t open, at = 0; (open = text.find(kOpen, at)) != std::string_view::npos;) {
    const size_t close = text.find(kClose, open);
    if (close == std::string_view::npos) break;
    at = close + kClose.size();
    const Digest d = sha256(loose_text(text.substr(open, at - open)));
    if (std::find(blocks.begin(), blocks.end(), d) != blocks.end()) continue;
    if (blocks.size() >= max) {
      if (over) *over = true;
      break;
    }
    blocks.push_back(d);
  }
  return blocks;
}

struct WireAnswer {
  uint64_t seq = 0;
  Digest text{};
  Digest trimmed_text{};
  uint32_t model = 0;  // index into Gc04::models_
  bool logged = false;
  bool finished = true;  // the stream reached its end (not cut short)
  int64_t redacted = -1;  // index of its text in redacted_answers_, when the recorder redacted part of it
  bool has_text = false;  // holds text other than white space: the log must show it
  Digest thinking{};       // its thinking blocks' text, joined
  bool has_thinking = false;
  int64_t redacted_thinking = -1;  // index in redacted_answers_ of its thinking, stored redacted
  std::optional<Identity> model_id = std::nullopt;  // identity() of the model the answer names, if it names one
};

struct WireCall {
  uint64_t seq = 0;
  Identity name{};  // identity() of the name
  Digest input{};
  bool required = true;  // a finished answer's call: the harness must log it
  std::string id;        // clipped, for the finding
  std::optional<std::string> redacted;  // the input, when the recorder redacted part of it (canonical_input)
  // An Anthropic answer's call: the input without its false members
  // (json::text_value_digest_without_false_members).
  std::optional<Digest> unflagged = std::nullopt;
};

struct LoggedCall {
  uint64_t seq = 0;
  Identity name{};
  Digest input{};
  std::string id;
  std::optional<std::string> input_text;  // canonical_input, kept within kMaxKeptBytes
  std::optional<Digest> unflagged = std::nullopt;  // NativeCall::input_unflagged
};

// A text compared exactly and loosely (white space and Unicode
// normalization apart: loose_text).
struct SaidDigests {
  Digest exact{};
  Digest loose{};
  static SaidDigests of(std::string_view text) { return {sha256(text), sha256(loose_text(text))}; }
};

// The forms of one tool result that requests sent the model (the first
// few distinct ones; a harness re-sends the same result with each request,
// and may later send it cleared), and those of them that look cut down.
struct SentResult {
  static constexpr size_t kMaxForms = 4;
  uint64_t seq = 0;
  std::vector<SaidDigests> forms;
  // Each form's size and XXH3, to pass over a re-sent form without hashing
  // it again: a harness re-sends every result with every later request. A
  // collision could only drop a form, which makes the check stricter.
  std::vector<std::pair<size_t, XXH64_hash_t>> quick;
  std::vector<Digest> unreminded;  // loose digests of forms with Claude Code's reminders taken out
  std::vector<Digest> reminders;   // the reminder blocks those forms hold (reminder_blocks_in)
  std::vector<std::string> kept_forms;  // the forms that look cut down or hold redaction markers
  bool cut_dropped = false;  // such a form was not kept (kMaxKeptBytes)
  uint8_t errors = 0;        // bit 1 << flag for each is_error flag (kErrorFalse...) sent with it
  bool only_placeholders = true;  // every form was the harness's stand-in for a missing result
};

// What a harness sends in place of a result it never recorded (a tool that
// crashed, a hook that deferred, a session resumed after a crash): Claude
// Code's placeholder tool_result (SYNTHETIC_TOOL_RESULT_PLACEHOLDER, with
// is_error), made at send time and never logged, and Codex's "aborted"
// output (ensure_call_outputs_present) for a call its rollout left without
// one. Nothing the tool returned reached the model with it.
bool is_missing_result_placeholder(std::string_view text, std::string_view member, int8_t error) {
  if (member == "output") return text == "aborted";
  return text == "[Tool result missing due to internal error]" && error != kErrorFalse;
}

struct LoggedResult {
  uint64_t seq = 0;
  SaidDigests said;
  Digest unreminded{};  // loose, without <system-reminder> blocks (Claude Code logs some of its own, too)
  // The reminder blocks it holds: each must be in a form sent, else the
  // block is the log's own words (kMaxReminders at most; more is never held).
  static constexpr size_t kMaxReminders = 256;
  std::vector<Digest> reminders;
  bool reminders_over = false;
  std::optional<Excerpt> ends;  // absent past kMaxKeptBytes
  bool made = false;            // said and unreminded are made (not waiting in Gc04::pending_)
  bool sent_as_logged = false;  // a form sent is its text byte for byte: nothing else is compared
  int8_t error = kErrorUnknown;  // its is_error (NativeInfo::result_errors)
};

// A further result logged for a call that has one (a harness logs one per
// call): judged as the first is, its digests made when it is read.
struct ExtraResult {
  Identity key{};
  LoggedResult logged;
};

struct LoggedPrompt {
  uint64_t seq = 0;
  SaidDigests said;
  bool answered = false;  // a model answer follows it in its file
  std::optional<std::string> text;  // kept within kMaxKeptBytes, for redacted forms
};

// A content-replacement line's record of a result sent in a shorter form.
// Claude Code's replaces a large result by a preview of it wrapped in
// <persisted-output>; only such a record excuses a result the model was
// sent otherwise than logged (a record holding the very text that was sent
// would otherwise excuse any edit of the result).
constexpr std::string_view kPersisted = "<persisted-output>";
struct Replacement {
  Digest digest{};
  Digest unreminded{};  // loose, as matched against a sent form with reminders taken out
  bool persisted = false;
  std::optional<std::string> preview;  // the head of the result the <persisted-output> quotes
};

// The head of the result a <persisted-output> quotes: after "Preview (first
// 2KB):", up to the "..." (more followed) or the closing tag. Nothing when
// the form is another.
std::optional<std::string> persisted_preview(std::string_view replacement) {
  constexpr std::string_view kPreview = "\nPreview (first ", kClose = "</persisted-output>";
  const size_t at = replacement.find(kPreview);
  const size_t start = at == std::string_view::npos ? at : replacement.find("):\n", at);
  if (start == std::string_view::npos) return std::nullopt;
  std::string_view rest = replacement.substr(start + 3);
  const size_t close = rest.rfind(kClose);
  if (close == std::string_view::npos) return std::nullopt;
  rest = rest.substr(0, close);
  if (rest.ends_with("\n...\n")) {
    rest.remove_suffix(5);
  } else if (rest.ends_with("\n")) {
    rest.remove_suffix(1);
  }
  return std::string(rest);
}

// Whether the logged result begins with the preview a <persisted-output>
// quotes (byte for byte, or but for white space).
bool begins_with_preview(std::string_view head, std::string_view preview) {
  if (head.starts_with(preview)) return true;
  const std::string loose_preview = loose_text(preview);
  return loose_text(head.substr(0, std::min(head.size(), 2 * preview.size() + 64))).starts_with(loose_preview);
}

struct NativeMessage {
  std::string id;  // clipped, for the finding
  std::vector<uint64_t> seqs;
  std::unique_ptr<Sha256> text = std::make_unique<Sha256>();
  bool has_text = false;
  std::optional<std::string> kept = std::string();  // the text, while within kMaxKeptBytes
  std::unique_ptr<Sha256> thinking = std::make_unique<Sha256>();
  bool has_thinking = false;
  std::optional<std::string> kept_thinking = std::string();
  std::optional<Identity> model;  // identity() of the model its first line names
  bool mixed_models = false;      // a later line of the answer names another
  std::string model_name;         // clipped, for the finding: the other one when mixed
};

// A user text a request sent the model (Anthropic and Chat Completions
// messages), with the first requests that carried it (side calls such as a
// topic check may carry it before the answered one): it must be in the
// log when one of their answers is.
struct WirePrompt {
  static constexpr size_t kMaxCarriers = 8;
  uint64_t seq = 0;  // the first request
  Digest loose{};    // loose_text, without Claude Code's <system-reminder> blocks
  bool harness_record = false;  // a local command or bash-mode record, which Claude Code may send reworded
  bool codex = false;           // sent by Codex (a Responses input)
  size_t compactions_before = 0;  // Codex: `compacted` lines logged before the first request that carried it
  bool after_bridge = false;      // Codex: first sent after a compaction's summary in its request (a new prompt)
  std::vector<std::pair<uint64_t, uint64_t>> carriers;  // (conn, exchange)
  std::optional<std::string> redacted;  // the text, when the recorder redacted part of it
};

// The result Claude Code logs and sends for a call the user rejected
// without a word for the model (with one, it goes on "To tell you how...").
constexpr std::string_view kClaudeRejection =
    "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the "
    "new_string was NOT written to the file). STOP what you are doing and wait for the user to tell you how to proceed.";

// A Codex reasoning item as logged: its summary parts joined as the wire
// stream joins them, and the digests of the parts (for agent_reasoning).
struct LoggedReasoning {
  uint64_t seq = 0;
  // Raw reasoning (a reasoning item's content): streamed as one text
  // whose parts a change of content part sets apart, each held alone.
  bool raw = false;
  Digest joined{};
  std::vector<Digest> parts;
  std::optional<std::string> text;  // kept within kMaxKeptBytes, for redacted wire forms
};

// A Codex answer text (a message item or an agent_message event) as logged.
struct LoggedAnswer {
  uint64_t seq = 0;
  Digest digest{};
  std::optional<std::string> text;  // kept within kMaxKeptBytes
  Digest file{};                    // the rollout that logs it
};

// A provider-run tool's result as streamed (Anthropic: whole in its block's
// start), and as an answer's line logs it.
struct WireServerResult {
  uint64_t seq = 0;
  Digest content{};
  Identity answer{};  // the streamed answer's message id
  std::optional<std::string> redacted;  // the content minified, when the recorder redacted part of it
};
struct LoggedServerResult {
  uint64_t seq = 0;
  Identity key{};
  Digest content{};
  std::string id;  // clipped, for the finding
  std::optional<std::string> text;  // the content minified, within kMaxKeptBytes
};

// A copy the log holds of what the provider streamed (ProviderCopy).
struct LoggedCopy {
  uint64_t seq = 0;
  ProviderCopy::Kind kind = ProviderCopy::Kind::citation;
  Digest value{};
  std::optional<std::string> text;  // within kMaxKeptBytes, for redacted wire forms
};

// A Codex event repeating a tool's output, as logged.
struct LoggedEventOutput {
  uint64_t seq = 0;
  Identity call{};
  EventOutput out;
};

// How an event's account of a tool's output stands to the output logged
// (and sent) for its call, best first: `omits` is an event that only leaves
// out lines of the output (every line it holds is there), `differs` one
// that says other text or another exit code.
// What a streamed answer holds when it is a Codex review's verdict (its JSON).
constexpr std::string_view kReviewKey = "\"overall_explanation\"";

enum class OutputMatch { same, loose, cut, cut_differs, omits, differs };

// Codex cuts long outputs (for the model and, at 10 KB, for its events) by
// taking out their middle with a marker of its own forms; the bare word a
// command printed cuts nothing (red-team 19b #13).
bool looks_cut(std::string_view text) { return holds_codex_cut_marker(text); }

// Codex's cut of an exec_command_end event it persists (its rollout
// recorder's sanitize_rollout_item_for_persistence, extended history): the
// aggregated output's middle taken out past PERSISTED_EXEC_AGGREGATED_
// OUTPUT_MAX_BYTES (10,000), half the budget kept at each end, and in its
// place one marker of the forms its releases write: "…N chars truncated…",
// "…N tokens truncated…", "[…N bytes truncated…]" or "[…N tokens
// truncated…]" (some followed by a line feed).
constexpr size_t kPersistedOutputBytes = 10'000;

struct PersistedCut {
  std::string_view head, tail;  // the event's text before and after the marker
  uint64_t count = 0;
  enum class Unit { chars, bytes, tokens } unit = Unit::chars;
};

// The event text's cut when it holds exactly one marker of Codex's forms,
// its ends within the budget's halves; a marker in another form, or
// another place, is no cut of Codex's.
std::optional<PersistedCut> persisted_cut(std::string_view text) {
  constexpr std::string_view kEllipsis = "\xE2\x80\xA6";
  std::optional<PersistedCut> found;
  for (size_t at = text.find(kEllipsis); at != std::string_view::npos; at = text.find(kEllipsis, at + 1)) {
    size_t end = at + kEllipsis.size();
    uint64_t n = 0;
    size_t digits = 0;
    for (; end < text.size() && digits < 20 && text[end] >= '0' && text[end] <= '9'; ++end, ++digits) n = n * 10 + (text[end] - '0');
    if (digits == 0 || digits == 20) continue;
    PersistedCut cut{{}, {}, n};
    const bool bracket = at > 0 && text[at - 1] == '[';
    const std::string_view rest = text.substr(end);
    std::string_view word;
    for (auto [w, unit] : {std::pair{std::string_view(" chars truncated\xE2\x80\xA6"), PersistedCut::Unit::chars},
                           std::pair{std::string_view(" tokens truncated\xE2\x80\xA6"), PersistedCut::Unit::tokens},
                           std::pair{std::string_view(" bytes truncated\xE2\x80\xA6"), PersistedCut::Unit::bytes}}) {
      if (rest.starts_with(w)) {
        word = w;
        cut.unit = unit;
      }
    }
    if (word.empty() || (cut.unit == PersistedCut::Unit::chars && bracket) ||
        (cut.unit == PersistedCut::Unit::bytes && !bracket)) {
      continue;
    }
    size_t after = end + word.size();
    if (bracket) {
      if (after >= text.size() || text[after] != ']') continue;
      ++after;
    }
    if (after < text.size() && text[after] == '\n') ++after;
    if (found) return std::nullopt;  // a second marker: not Codex's one cut
    cut.head = text.substr(0, at - (bracket ? 1 : 0));
    cut.tail = text.substr(after);
    found = cut;
    at = after - 1;
  }
  if (found && (found->head.size() > kPersistedOutputBytes / 2 || found->tail.size() > kPersistedOutputBytes / 2)) {
    return std::nullopt;
  }
  return found;
}

// Code points in UTF-8 `text` (Rust's chars().count()).
size_t code_points(std::string_view text) {
  return static_cast<size_t>(std::count_if(text.begin(), text.end(), [](char c) {
    return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  }));
}

// Whether the count a marker states is one Codex writes for taking
// `middle` out of an output of `total` bytes: the characters taken out, or
// the bytes past the budget or taken out (as bytes, or tokens of four).
bool states_removed(const PersistedCut& cut, std::string_view middle, size_t total) {
  const uint64_t over = total - kPersistedOutputBytes, taken = middle.size();
  switch (cut.unit) {
    case PersistedCut::Unit::chars: return cut.count == code_points(middle);
    case PersistedCut::Unit::bytes: return cut.count == over || cut.count == taken;
    case PersistedCut::Unit::tokens: return cut.count == (over + 3) / 4 || cut.count == (taken + 3) / 4;
  }
  return false;
}

// Whether an event's persisted cut is Codex's cut of output `s` as sent:
// its head is the sent text at some place, its tail follows it, and either
// what lies between (the output past the budget: more than 10,000 bytes
// in all) is what the marker says was taken out, or the sent output was
// itself cut there for the model (its own marker between them). The text
// beside the marker is the wire's, never the event's word alone.
bool cut_of_sent(const PersistedCut& cut, std::string_view s) {
  constexpr int kMaxHeads = 16;  // places the head is tried at
  int tried = 0;
  for (size_t at = s.find(cut.head); at != std::string_view::npos && tried < kMaxHeads;
       at = s.find(cut.head, at + 1), ++tried) {
    const size_t from = at + cut.head.size();
    for (size_t tail : {s.find(cut.tail, from), s.rfind(cut.tail)}) {
      if (tail == std::string_view::npos || tail < from) continue;
      const std::string_view middle = s.substr(from, tail - from);
      const size_t total = cut.head.size() + middle.size() + cut.tail.size();
      if (total > kPersistedOutputBytes && states_removed(cut, middle, total)) return true;
      if (looks_cut(middle)) return true;
    }
  }
  return false;
}

// The strings a logged output holds: the text itself, and when it is JSON
// (Codex's {"output": ..., "metadata": ...} of a shell call, an MCP call's
// content blocks) every string inside it, at most kMaxStrings.
std::vector<std::string_view> output_strings(std::string_view text, std::optional<simdjson::dom::element> json) {
  constexpr size_t kMaxStrings = 256;
  std::vector<std::string_view> out{text};
  if (!json) return out;
  std::vector<simdjson::dom::element> stack{*json};
  while (!stack.empty() && out.size() < kMaxStrings) {
    const simdjson::dom::element e = stack.back();
    stack.pop_back();
    std::string_view s;
    simdjson::dom::object o;
    simdjson::dom::array a;
    if (!e.get(s)) out.push_back(s);
    else if (!e.get(o)) for (auto field : o) stack.push_back(field.value);
    else if (!e.get(a)) for (auto v : a) stack.push_back(v);
  }
  return out;
}

// The exit code a logged shell output states: {"metadata":{"exit_code":N}},
// "Exit code: N" (freeform), "Process exited with code N" (unified exec).
std::optional<int64_t> stated_exit_code(std::string_view text, std::optional<simdjson::dom::element> json) {
  simdjson::dom::object o, metadata;
  int64_t code = 0;
  if (json && !json->get(o) && json::object(o, "metadata", &metadata) == json::Get::ok &&
      json::integer(metadata, "exit_code", &code) == json::Get::ok) {
    return code;
  }
  // Only in the header above "Output:", not in what the command printed.
  const std::string_view header = text.substr(0, text.find("Output:\n"));
  if (header.size() == text.size()) return std::nullopt;
  for (std::string_view lead : {std::string_view("Exit code: "), std::string_view("Process exited with code ")}) {
    const size_t at = header.find(lead);
    if (at == std::string_view::npos || (lead.front() == 'E' && at != 0)) continue;
    size_t end = at + lead.size();
    const bool negative = end < text.size() && text[end] == '-';
    end += negative ? 1 : 0;
    int64_t n = 0;
    size_t digits = 0;
    for (; end < text.size() && digits < 12 && text[end] >= '0' && text[end] <= '9'; ++end, ++digits) n = n * 10 + (text[end] - '0');
    if (digits > 0) return negative ? -n : n;
  }
  return std::nullopt;
}

// What a command's output as sent says the command printed: the JSON
// form's output, or the text under the header ("Output:"), without the
// line Codex puts first when the command timed out. Empty when the output
// states no exit code: a message of Codex's own (the command was rejected
// or never ran), which no end event repeats.
std::string_view printed_text(std::string_view text, std::optional<simdjson::dom::element> json) {
  if (!stated_exit_code(text, json)) return {};
  simdjson::dom::object o;
  std::string_view body;
  if (!json || json->get(o) || json::string(o, "output", &body) != json::Get::ok) {
    const size_t at = text.find("Output:\n");
    body = at == std::string_view::npos ? std::string_view() : text.substr(at + 8);
  }
  if (body.starts_with("command timed out after ")) {
    const size_t end = body.find('\n');
    body = end == std::string_view::npos ? std::string_view() : body.substr(end + 1);
  }
  return body;
}

struct LoggedAction {
  uint64_t seq = 0;
  Identity call{};
  EventAction action;
};

// A Codex event naming a call, as logged.
struct LoggedEventCall {
  uint64_t seq = 0;
  Identity call{};
  std::string id;  // clipped, for the finding
};

// The words of a text: its runs of ASCII letters, digits and '_'. Quoting,
// escapes, white space and punctuation, which Codex rewrites (the argv
// joined and quoted anew in parsed_cmd, a patch applied loosely), apart.
template <class F>
void for_each_word(std::string_view text, F&& f) {
  auto is_word = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'; };
  for (size_t at = 0; at < text.size();) {
    while (at < text.size() && !is_word(text[at])) ++at;
    size_t end = at;
    while (end < text.size() && is_word(text[end])) ++end;
    if (end > at && !f(text.substr(at, end - at))) return;
    at = end;
  }
}

// The first word of `said` that `words` lack (empty when it has them all).
std::string_view missing_word(std::string_view said, const absl::flat_hash_set<std::string>& words) {
  std::string_view missing;
  for_each_word(said, [&](std::string_view w) {
    if (!words.contains(absl::string_view(w.data(), w.size()))) missing = w;
    return missing.empty();
  });
  return missing;
}

// The files an apply_patch text names (Add, Delete, Update, Move to).
std::vector<std::string_view> patch_paths(std::string_view patch) {
  std::vector<std::string_view> paths;
  for (size_t at = 0; at < patch.size();) {
    const size_t end = std::min(patch.find('\n', at), patch.size());
    const std::string_view line = trimmed_text(patch.substr(at, end - at));
    at = end + 1;
    for (std::string_view lead : {"*** Add File: ", "*** Delete File: ", "*** Update File: ", "*** Move to: "}) {
      if (line.starts_with(lead)) paths.push_back(trimmed_text(line.substr(lead.size())));
    }
  }
  return paths;
}

// Whether an event's path is one the patch names: the same, or one of them
// resolved against the working directory (or the other way round).
bool path_named(std::string_view path, const std::vector<std::string_view>& named) {
  auto ends_as = [](std::string_view longer, std::string_view tail) {
    if (tail.starts_with("./")) tail.remove_prefix(2);
    return !tail.empty() && longer.ends_with(tail) &&
           (longer.size() == tail.size() || longer[longer.size() - tail.size() - 1] == '/');
  };
  return std::any_of(named.begin(), named.end(), [&](std::string_view q) { return ends_as(path, q) || ends_as(q, path); });
}

// The words a call's arguments (JSON or free text, held to the wire) hold
// in any of their strings, and the files a patch among them names.
struct CallWords {
  absl::flat_hash_set<std::string> words;
  std::vector<std::string> named;
  static CallWords of(std::string_view call, StrictJsonParser& parser) {
    auto root = parser.parse_copy(call, 0);
    std::optional<simdjson::dom::element> json;
    if (root && (root->is_object() || root->is_array())) json = *root;
    CallWords held;
    for (std::string_view text : output_strings(call, json)) {
      for_each_word(text, [&](std::string_view w) { return held.words.emplace(w), true; });
      for (std::string_view p : patch_paths(text)) held.named.emplace_back(p);
    }
    return held;
  }
};

// What in a Codex event the call it names does not hold (empty when it
// holds all): the command's words, parsed_cmd's, a patch's files and the
// words of its changed lines.
std::string action_unheld(const EventAction& a, const CallWords& call) {
  const auto& words = call.words;
  const std::vector<std::string_view> named(call.named.begin(), call.named.end());
  if (!a.command.empty() && !missing_word(a.command, words).empty()) return "the command \"" + a.command + "\"";
  if (!a.arguments.empty() && !missing_word(a.arguments, words).empty()) return "the arguments " + a.arguments;
  for (const std::string& cmd : a.parsed) {
    if (!missing_word(cmd, words).empty()) return "the parsed command \"" + cmd + "\"";
  }
  if (a.paths.empty()) return {};
  // Every call Codex writes patch events for carries the patch's text (the
  // apply_patch tool, a shell's heredoc, exec_command): one hung on a call
  // that holds none says a file was changed that no call changed (red-team
  // 19b #23).
  if (named.empty()) return "the file " + a.paths.front() + " (a patch, for a call that holds none)";
  for (const std::string& path : a.paths) {
    if (!path_named(path, named)) return "the file " + path;
  }
  for (const std::string& line : a.lines) {
    const std::string_view w = missing_word(line, words);
    if (!w.empty()) return "the changed line \"" + line + "\"";
  }
  return {};
}

// The first and last lines of a cut text that no cut touched (not a marker
// line, and ended by a line feed on both sides for the last one).
std::vector<std::string_view> whole_end_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  for (size_t at = 0; at < text.size();) {
    const size_t end = std::min(text.find('\n', at), text.size());
    const std::string_view line = text.substr(at, end - at);
    if (!trimmed_text(line).empty() && !looks_cut(line) && end < text.size()) lines.push_back(line);
    at = end + 1;
  }
  if (lines.size() > 2) lines.erase(lines.begin() + 1, lines.end() - 1);
  return lines;
}

// How one text of an event stands to the strings of the output logged.
OutputMatch text_match(std::string_view text, const std::vector<std::string_view>& strings) {
  auto any = [&](auto within) { return std::any_of(strings.begin(), strings.end(), within); };
  if (any([&](std::string_view s) { return holds(s, text); })) return OutputMatch::same;
  const std::string loose = loose_text(text);
  if (any([&](std::string_view s) { return holds(loose_text(s), loose); })) return OutputMatch::loose;
  // The event cut as Codex cuts what it persists, of the output sent.
  const std::optional<PersistedCut> cut = persisted_cut(text);
  if (cut && any([&](std::string_view s) { return cut_of_sent(*cut, s); })) return OutputMatch::cut;
  // Otherwise only a cut of the output sent (the wire's text, not the
  // event's, which the log's writer wrote) leaves the ends to compare.
  if (!any([](std::string_view s) { return looks_cut(s); })) {
    // Every line it holds is in the output: parts of it are left out.
    bool only_omits = true;
    for (size_t at = 0; at < text.size() && only_omits; ) {
      const size_t end = std::min(text.find('\n', at), text.size());
      const std::string_view line = trimmed_text(text.substr(at, end - at));
      only_omits = line.empty() || any([&](std::string_view s) { return holds(s, line); });
      at = end + 1;
    }
    return only_omits ? OutputMatch::omits : OutputMatch::differs;
  }
  // Cut on either side by amounts of their own: only the lines both must
  // keep, the first and the last, are looked for.
  const std::vector<std::string_view> ends = whole_end_lines(text);
  const bool kept = std::all_of(ends.begin(), ends.end(), [&](std::string_view line) {
    return any([&](std::string_view s) { return holds(s, line); });
  });
  return kept ? OutputMatch::cut : OutputMatch::cut_differs;
}

// Early releases kept a stream's first 256 lines (and 10 KiB) apart from
// what they aggregated.
constexpr size_t kStreamLinesKept = 256;

// Whether an event's aggregated output gathers its two streams whole
// (red-team 20b #09): stdout then stderr (current releases' aggregate_output,
// under its cap), or their chunks as they came (older ones), each
// converted from UTF-8 apart. Undecided (nullopt) where a side may be cut
// (10,000 bytes or more, a stream at the lines early releases kept), where
// the aggregated output has U+FFFD a chunk cut inside a character leaves,
// or past the budget.
std::optional<bool> streams_gathered(const EventOutput& e, uint64_t& budget) {
  if (!e.both_streams || e.streams.size() != 2) return std::nullopt;
  const std::string_view out = e.streams[0], err = e.streams[1];
  const auto whole = [](std::string_view s) {
    return s.size() < kPersistedOutputBytes && static_cast<size_t>(std::count(s.begin(), s.end(), '\n')) < kStreamLinesKept;
  };
  if (e.text.size() >= kPersistedOutputBytes || !whole(out) || !whole(err)) return std::nullopt;
  const std::optional<bool> gathered = interleaves(e.text, out, err, budget);
  if (gathered == false && holds(e.text, "\xEF\xBF\xBD")) return std::nullopt;
  return gathered;
}

// An exec_command_end's stdout and stderr against its aggregated output and
// the output sent (red-team 19b #05): each of their lines is a line of one
// of them. Where both streams printed, the aggregated output must gather
// them (streams_gathered); where either may be cut, or that is undecided,
// a line found in neither is only unsure.
OutputMatch streams_match(const EventOutput& e, const std::vector<std::string_view>& strings, uint64_t& gather_budget) {
  if (e.streams.empty()) return OutputMatch::same;
  absl::flat_hash_set<std::string_view> lines;
  bool cut = looks_cut(e.text) || e.text.size() >= kPersistedOutputBytes;
  // The event's own texts, whatever was sent: all three are the one run's.
  const bool event_cut = cut || std::any_of(e.streams.begin(), e.streams.end(), [](const std::string& s) { return looks_cut(s); });
  if (!event_cut) {
    if (const std::optional<bool> gathered = streams_gathered(e, gather_budget)) {
      return *gathered ? OutputMatch::same : OutputMatch::differs;
    }
  }
  const auto each_line = [](std::string_view text, const auto& visit) {
    for (size_t at = 0; at < text.size();) {
      const size_t end = std::min(text.find('\n', at), text.size());
      visit(trimmed_text(text.substr(at, end - at)));
      at = end + 1;
    }
  };
  const auto add = [&](std::string_view line) { lines.insert(line); };
  each_line(e.text, add);
  for (std::string_view s : strings) {
    each_line(s, add);
    cut = cut || looks_cut(s);
  }
  bool held = true;
  for (const std::string& stream : e.streams) {
    cut = cut || looks_cut(stream);
    each_line(stream, [&](std::string_view line) { held = held && (line.empty() || lines.contains(line)); });
  }
  if (held) return OutputMatch::same;
  return e.streams_exact && !cut ? OutputMatch::differs : OutputMatch::cut_differs;
}

// The worst of the event's texts (its output and each member repeating it),
// and its exit code against the one the output logged states.
OutputMatch event_output_match(const EventOutput& e, std::string_view logged, StrictJsonParser& parser,
                               uint64_t& gather_budget) {
  auto root = parser.parse_copy(logged, 0);
  std::optional<simdjson::dom::element> json;
  if (root && (root->is_object() || root->is_array())) json = *root;
  if (e.status_contradicts) return OutputMatch::differs;
  if (e.exit_code) {
    const auto stated = stated_exit_code(logged, json);
    if (stated && *stated != *e.exit_code) return OutputMatch::differs;
  }
  const std::vector<std::string_view> strings = output_strings(logged, json);
  OutputMatch worst = text_match(e.text, strings);
  // Codex writes the aggregated output it sent (or cuts it with its
  // marker): a command's end that reports nothing leaves out all it printed.
  if (e.blank && !trimmed_text(printed_text(logged, json)).empty()) worst = OutputMatch::omits;
  for (const std::string& text : e.also) worst = std::max(worst, text_match(text, strings));
  return std::max(worst, streams_match(e, strings, gather_budget));
}

// Whether JSON sent for an MCP call is its content blocks: an array of
// typed blocks, or a result holding them ({"content": [...]}).
bool is_content_blocks(simdjson::dom::element json) {
  simdjson::dom::array blocks;
  simdjson::dom::object result;
  if (!json.get(result)) return json::array(result, "content", &blocks) == json::Get::ok;
  if (json.get(blocks) || blocks.size() == 0) return false;
  return std::all_of(blocks.begin(), blocks.end(), [](simdjson::dom::element b) {
    simdjson::dom::object o;
    std::string_view type;
    return !b.get(o) && json::string(o, "type", &type) == json::Get::ok;
  });
}

// What an event states that the output logged for its call cannot be read
// as (red-team 19b #03, #04, #09, #10), whatever Codex's wording: a
// patch's success against the exit code the output states; an MCP result
// Ok where the output is Codex's error wording, Err where it is the
// result's content blocks, or an Ok text block that no string of those
// blocks holds.
bool event_contradicts(const EventOutput& e, std::string_view logged, StrictJsonParser& parser) {
  if (!e.succeeded && !e.mcp_ok) return false;
  auto root = parser.parse_copy(logged, 0);
  std::optional<simdjson::dom::element> json;
  if (root && (root->is_object() || root->is_array())) json = *root;
  if (e.succeeded) {
    const auto stated = stated_exit_code(logged, json);
    if (stated && (*stated == 0) != *e.succeeded) return true;
  }
  if (!e.mcp_ok) return false;
  const bool blocks_sent = json && is_content_blocks(*json);
  // Codex's error wording, unless the result's own text says so.
  const bool error_worded = (logged.starts_with("tool call error:") || logged.starts_with("err: ")) && !holds(logged, e.text);
  if (*e.mcp_ok ? error_worded : blocks_sent) return true;
  if (!*e.mcp_ok || !blocks_sent) return false;
  // The block strings (not the JSON text itself), each made loose once;
  // the first blocks only, so that a crafted event costs no more than a
  // few passes over the output.
  constexpr size_t kMaxBlocks = 16;
  const std::vector<std::string_view> strings = output_strings(logged, json);
  std::vector<std::string> loose_strings;
  for (size_t i = 1; i < strings.size(); ++i) loose_strings.push_back(loose_text(strings[i]));
  for (size_t b = 0; b < e.blocks.size() && b < kMaxBlocks; ++b) {
    const std::string loose = loose_text(e.blocks[b]);
    if (std::none_of(loose_strings.begin(), loose_strings.end(), [&](const std::string& s) { return holds(s, loose); })) {
      return true;
    }
  }
  return false;
}

class Gc04 final : public Check {
 public:
  std::string_view id() const override { return "GC04"; }

  void on_record(const Record& r, Context& ctx) override {
    note_log_capture(r);
    if (tracked() >= kMaxTracked) {
      too_many_ = true;
      return;
    }
    if (r.kind == Kind::wire) stored_redacted_ = lists_redactions(r);
    if (r.kind == Kind::wire && ctx.is_answer_response()) {
      wire_answer(r, ctx.answer(), ctx);
    } else if (r.kind == Kind::wire) {
      wire_request(r, ctx);
    } else if (r.kind == Kind::native) {
      native_line(r, ctx.native(), ctx.body_parser());
      keep_searched_texts(r, ctx);
      if (ctx.native().harness == NativeInfo::Harness::codex) {
        if (const auto line = ctx.parsed_native()) {
          codex_context_.logged(ctx.native(), line->root, r.seq);
          codex_reviews_.logged(line->root, ctx.native().file, r.seq);
        }
      }
    }
  }

  void finish(const VerifyReport& report, Context& ctx) override {
    trace_sealed_ = report.sealed;
    if (too_many_) {
      ctx.skip("GC04", "more than " + std::to_string(kMaxTracked) + " messages to match: not judged");
      return;
    }
    while (!pending_.empty()) resolve_oldest();
    turn_order_.finish(ctx, {[&](const Digest& text) { return first_sent_prompt(text); },
                             [&](const Identity& call) { return first_sent_result(call); },
                             [&](const Identity& call) { return first_streamed_call(call); }});
    progress_copies_.finish(ctx, progress_wire());
    progress_outputs_.finish(ctx);
    claude_messages(ctx);
    synthetic_ids(ctx);
    codex_texts(ctx);
    calls(ctx);
    codex_items(ctx);
    server_results(ctx);
    provider_copies(ctx);
    searches(ctx);
    event_calls(ctx);
    event_actions(ctx);  // before event_outputs, which counts the events not compared
    event_outputs(ctx);
    codex_reasoning(ctx);
    codex_turn_models(ctx);
    edit_copies(ctx);
    held_copies_.judge(ctx, copy_differs_);  // before result_copies, which emits what it adds
    settle_codex_bridges();
    carried_prompts_logged(ctx);
    codex_compaction_summaries(ctx);
    results(ctx);
    result_texts(ctx);
    result_copies(ctx);
    prompts(ctx);
    attachments(ctx);
    request_blobs(ctx);
    codex_instructions(ctx);
    codex_context(ctx);
    event_answers(ctx);
    codex_reviews(ctx);
    emit_counted(ctx, "GC04", Severity::warning, uncompared_,
                 "logged text(s) were not compared with every redacted text the wire carried (" +
                     std::to_string(RedactionComparer::kBudgetBytes >> 30) + " GiB of comparisons, a bound for crafted "
                     "uploads): not judged.",
                 "redacted-uncompared");
    emit_counted(ctx, "GC04", Severity::warning, reminders_unsearched_,
                 "logged text(s) (queued messages, attachments, task notifications) were not searched for in every "
                 "<system-reminder> the wire carried (" + std::to_string(kReminderSearchBytes >> 30) +
                     " GiB of searching, a bound for crafted uploads): not judged.",
                 "reminder-unsearched");
    emit_counted(ctx, "GC04", Severity::warning, cut_requests_,
                 "request(s) were stored cut at the recorder's size cap (complete: false): the tool results and "
                 "prompts they carried were not compared with the log.",
                 "cut-request");
    emit_counted(ctx, "GC04", Severity::warning, past_cap_,
                 "logged answer(s) start with the text of a response the recorder stored cut at its size cap "
                 "(complete: false, size past the stored bytes): what they say past the cap was not compared.",
                 "cut-response");
    emit_counted(ctx, "GC04", Severity::warning, unread_requests_,
                 "request(s) could not be read (a content coding this tool does not know or that does not decode, "
                 "more than 4 codings stacked, or a body that is not strict JSON): the tool results and prompts they carried were not compared "
                 "with the log.",
                 "unread-request");
    emit_counted(ctx, "GC04", Severity::info, redacted_texts_,
                 "logged answer text(s) match the answer rebuilt from the wire once the recorder's [REDACTED:...] "
                 "markers stand for the secrets the log keeps.",
                 "answer-redacted");
    unlogged(ctx);
    emit_counted(ctx, "GC04", Severity::warning, missing_thinking_,
                 "answer(s) streamed thinking the harness log does not show with them: the model's reasoning is "
                 "missing from the log.",
                 "thinking-not-logged");
    emit_counted(ctx, "GC04", Severity::info, copies_,
                 "Claude Code line(s) repeat an earlier line of their uuid word for word (a resumed session's copy "
                 "of its history): compared once.",
                 "line-copies");
    emit_counted(ctx, "GC04", Severity::info, synthetic_,
                 "assistant line(s) have model <synthetic>: Claude Code "
                 "writes these itself (API errors, placeholders), so they were not matched to the wire. "
                 "Read them to be sure none is a model answer.",
                 "synthetic");
  }

 private:
  void wire_answer(const Record& r, const RebuiltAnswer& a, Context& ctx) {
    if (a.message_id.empty()) return;
    turn_order_.wire_answer(a.message_id, r.seq);
    keep_cut_answer(r, a, ctx);
    WireAnswer& w = wire_by_id_[identity(a.message_id)] =
        WireAnswer{r.seq, sha256(a.text), sha256(trimmed_text(a.text)), model_index(a.model), false, a.finished};
    if (!a.model.empty()) w.model_id = identity(a.model);
    w.redacted = keep_redacted_answer(a.text, r.seq);
    w.has_text = !trimmed_text(a.text).empty();
    wire_reasoning(a, w, r.seq);
    if (const auto key = exchange_of(r)) {
      answer_of_exchange_.try_emplace(*key, r.seq);
      if (titling_exchanges_.contains(*key) && codex_title_answer(a, ctx.body_parser())) title_answers_.insert(r.seq);
      if (a.finished && summarising_exchanges_.contains(*key) && summary_parts_.size() < kMaxTracked) {
        summary_parts_.try_emplace(r.seq, redacted_here(a.text) ? std::nullopt : kept_text(spaced(compact_summary_part(a.text))));
      }
    }
    if (a.provider != RebuiltAnswer::Provider::anthropic && a.finished) {
      // Each message item of a finished answer must be logged with it (of
      // choice 0: the harness takes one of the choices a request asked for).
      for (const RebuiltBlock& b : a.blocks) {
        const std::string_view item = b.text;
        if (b.kind != RebuiltBlock::Kind::text || b.choice != 0) continue;
        if (!trimmed_text(item).empty() && !redacted_here(item)) wire_items_.emplace_back(r.seq, sha256(item));
      }
    }
    if (a.provider != RebuiltAnswer::Provider::anthropic) {
      // Codex logs one line per message item; an answer may hold several.
      if (!a.text.empty()) wire_text(sha256(a.text), r.seq);
      codex_reviews_.streamed(a, r.seq, !redacted_here(a.text) && !cut_at_cap(r, ctx.wire_body()));
      if (a.text.find(kReviewKey) != std::string::npos) {
        if (auto kept = kept_text(a.text)) review_answers_.push_back(std::move(*kept));
      }
      for (std::string_view item : a.text_blocks()) {
        if (!item.empty()) wire_text(sha256(item), r.seq);
        keep_redacted_answer(item, r.seq);
      }
    }
    if (a.provider == RebuiltAnswer::Provider::anthropic &&
        std::any_of(a.blocks.begin(), a.blocks.end(), [](const RebuiltBlock& b) { return b.kind == RebuiltBlock::Kind::tool_result; })) {
      wire_server_results(ctx.wire_body().content(), identity(a.message_id), r.seq, ctx.body_parser());
    }
    if (a.provider == RebuiltAnswer::Provider::anthropic) wire_copies(ctx.wire_body().content(), r.seq, ctx.body_parser());
    if (a.provider == RebuiltAnswer::Provider::openai_responses) item_copies(ctx.wire_body().content(), r.seq, ctx.body_parser());
    if (a.provider == RebuiltAnswer::Provider::openai_responses && a.finished &&
        std::any_of(a.blocks.begin(), a.blocks.end(), [](const RebuiltBlock& b) { return codex_compaction_type(b.type); })) {
      wire_compaction_items(ctx.wire_body().content(), r.seq, ctx.body_parser());
    }
    // A stream cut short (or stopped at max_tokens) may hold a call the
    // harness rightly never ran or logged.
    const bool complete = a.finished && a.stop_reason != "max_tokens" && a.stop_reason != "incomplete";
    for (const auto& call : a.tool_calls) {
      if (call.kind == "web_search_call") wire_search(call.input, ctx.body_parser());
      if (call.id.empty()) continue;
      // A call of another choice than 0 is known but not required.
      const bool required = complete && !call.provider_run && call.choice == 0;
      auto [it, added] = wire_calls_.try_emplace(identity(call.id), WireCall{r.seq, identity(call.name),
                                                          json::text_value_digest(call.input, ctx.body_parser()),
                                                          required, clip_text(call.id), std::nullopt});
      if (added && redacted_here(call.input)) it->second.redacted = kept_text(canonical_input(call.input, ctx.body_parser()));
      if (added && a.provider == RebuiltAnswer::Provider::anthropic) {
        it->second.unflagged = json::text_value_digest_without_false_members(call.input, ctx.body_parser());
      }
    }
  }

  // An answer stored cut at the recorder's size cap: the harness got it
  // whole, so its logged text is held only to what was stored, as a prefix.
  void keep_cut_answer(const Record& r, const RebuiltAnswer& a, Context& ctx) {
    if (!cut_at_cap(r, ctx.wire_body())) return;
    std::vector<std::string_view> texts = a.text_blocks();
    if (a.provider == RebuiltAnswer::Provider::anthropic) texts = {a.text};  // logged joined, by message id
    for (std::string_view t : texts) {
      if (t.empty() || kept_bytes_ + t.size() > kMaxKeptBytes) continue;
      kept_bytes_ += t.size();
      cut_prefixes_.emplace_back(r.seq, std::string(t));
    }
  }

  // A logged answer that starts with a cut answer's stored text: not
  // compared past the cap (a warning), the answer counted as logged.
  bool logged_past_cap(const std::optional<std::string>& logged, uint64_t seq) {
    const uint64_t answer = logged ? cut_prefix_of(cut_prefixes_, *logged) : 0;
    if (answer == 0) return false;
    past_cap_.add(seq);
    matched_answers_.insert(answer);
    return true;
  }

  // A web search's action as streamed (Responses web_search_call): its strings.
  void wire_search(std::string_view action, StrictJsonParser& parser) {
    auto root = parser.parse_copy(action, 0);
    simdjson::dom::object o;
    if (!root || root->get(o)) return;
    for (const std::string& said : action_strings(o)) {
      if (wire_searched_.size() < kMaxTracked) wire_searched_.insert(sha256(said));
    }
    for (const std::string& detail : search_details(o)) {
      if (wire_search_details_.size() < kMaxTracked) wire_search_details_.insert(sha256(detail));
    }
  }

  // The results of provider-run tools an Anthropic answer carried, each
  // whole in its block's start (or in the Message returned whole): the
  // block's content, by the call's id.
  void wire_server_results(std::string_view body, const Identity& answer, uint64_t seq, StrictJsonParser& parser) {
    if (!looks_like_sse(body)) {
      auto root = parser.parse_copy(body, static_cast<int64_t>(seq));
      simdjson::dom::object message;
      simdjson::dom::array content;
      if (!root || root->get(message) || json::array(message, "content", &content) != json::Get::ok) return;
      for (auto block : content) {
        simdjson::dom::object b;
        if (!block.get(b)) wire_server_result(b, answer, seq);
      }
      return;
    }
    for_each_sse_event(body, [&](std::string_view, std::string_view data) {
      if (!holds(data, "content_block_start") || !holds(data, "_tool_result")) return true;
      auto root = parser.parse_copy(data, static_cast<int64_t>(seq));
      simdjson::dom::object event, block;
      if (!root || root->get(event) || json::object(event, "content_block", &block) != json::Get::ok) return true;
      wire_server_result(block, answer, seq);
      return true;
    });
  }

  void wire_server_result(simdjson::dom::object block, const Identity& answer, uint64_t seq) {
    std::string_view type, id;
    if (json::string(block, "type", &type) != json::Get::ok || !type.ends_with("_tool_result") ||
        json::string(block, "tool_use_id", &id) != json::Get::ok || wire_server_results_.size() >= kMaxTracked) {
      return;
    }
    simdjson::dom::element content;
    const bool absent = block.at_key("content").get(content) != simdjson::SUCCESS;
    WireServerResult w{seq, absent ? json::empty_object_digest() : json::value_digest(content), answer, std::nullopt};
    if (!absent) {
      std::string whole = simdjson::minify(content);
      if (redacted_here(whole)) w.redacted = kept_text(whole);
    }
    wire_server_results_.try_emplace(identity(id), std::move(w));
  }

  // What an Anthropic answer streamed that a log copies as it came: the
  // citations of its text blocks (whole in a block's start, or one by one
  // in citations_delta events) and its redacted_thinking blocks' data.
  void wire_copies(std::string_view body, uint64_t seq, StrictJsonParser& parser) {
    if (!holds(body, "citation") && !holds(body, "redacted_thinking")) return;
    auto blocks_of = [&](simdjson::dom::object message) {
      simdjson::dom::array content;
      if (json::array(message, "content", &content) != json::Get::ok) return;
      for (auto block : content) {
        simdjson::dom::object b;
        if (!block.get(b)) block_copies(b);
      }
    };
    if (!looks_like_sse(body)) {
      auto root = parser.parse_copy(body, static_cast<int64_t>(seq));
      simdjson::dom::object message;
      if (root && !root->get(message)) blocks_of(message);
      return;
    }
    for_each_sse_event(body, [&](std::string_view, std::string_view data) {
      if (!holds(data, "citation") && !holds(data, "redacted_thinking")) return true;
      auto root = parser.parse_copy(data, static_cast<int64_t>(seq));
      simdjson::dom::object event, held;
      simdjson::dom::element citation;
      if (!root || root->get(event)) return true;
      if (json::object(event, "content_block", &held) == json::Get::ok) block_copies(held);
      if (json::object(event, "message", &held) == json::Get::ok) blocks_of(held);
      if (json::object(event, "delta", &held) == json::Get::ok && !held.at_key("citation").get(citation)) {
        wire_copy(ProviderCopy::Kind::citation, citation);
      }
      return true;
    });
  }

  // What a Responses answer's items streamed that a log copies: a web
  // search's sources, a code interpreter's code and outputs (each whole in
  // its item done).
  void item_copies(std::string_view body, uint64_t seq, StrictJsonParser& parser) {
    auto wanted = [](std::string_view text) { return holds(text, "\"sources\"") || holds(text, "code_interpreter_call"); };
    if (!wanted(body)) return;
    for_each_sse_event(body, [&](std::string_view, std::string_view data) {
      if (!holds(data, "response.output_item.done") || !wanted(data)) return true;
      auto root = parser.parse_copy(data, static_cast<int64_t>(seq));
      simdjson::dom::object event, item, action;
      simdjson::dom::array sources;
      std::string_view type;
      if (!root || root->get(event) || json::object(event, "item", &item) != json::Get::ok ||
          json::string(item, "type", &type) != json::Get::ok) {
        return true;
      }
      if (type == "web_search_call" && json::object(item, "action", &action) == json::Get::ok &&
          json::array(action, "sources", &sources) == json::Get::ok) {
        for (auto source : sources) wire_copy(ProviderCopy::Kind::search_source, source);
      }
      if (type == "code_interpreter_call") {
        const ProviderCopy::Kind kind = ProviderCopy::Kind::code_interpreter;
        add_wire_copy(copy_digest(kind, item, kCodeInterpreterMembers), copy_text(item, kCodeInterpreterMembers));
      }
      return true;
    });
  }


  // A remote compaction's answer (Codex): the compaction items it streamed,
  // by the digest of their encrypted_content, which a `compacted` line's
  // replacement_history logs (logged_compaction_items_).
  void wire_compaction_items(std::string_view body, uint64_t seq, StrictJsonParser& parser) {
    for_each_sse_event(body, [&](std::string_view, std::string_view data) {
      if (!holds(data, "response.output_item.done") || !holds(data, "encrypted_content")) return true;
      auto root = parser.parse_copy(data, static_cast<int64_t>(seq));
      simdjson::dom::object event, item;
      std::string_view type, content;
      if (!root || root->get(event) || json::object(event, "item", &item) != json::Get::ok ||
          json::string(item, "type", &type) != json::Get::ok || !codex_compaction_type(type) ||
          json::string(item, "encrypted_content", &content) != json::Get::ok || content.empty()) {
        return true;
      }
      if (wire_compaction_items_.size() < kMaxTracked) wire_compaction_items_.try_emplace(seq, sha256(content));
      return true;
    });
  }

  void block_copies(simdjson::dom::object block) {
    std::string_view type;
    simdjson::dom::array citations;
    simdjson::dom::element data;
    if (json::string(block, "type", &type) != json::Get::ok) return;
    if (type == "text" && json::array(block, "citations", &citations) == json::Get::ok) {
      for (auto citation : citations) wire_copy(ProviderCopy::Kind::citation, citation);
    }
    if (type == "redacted_thinking" && !block.at_key("data").get(data)) wire_copy(ProviderCopy::Kind::redacted_thinking, data);
  }

  void wire_copy(ProviderCopy::Kind kind, simdjson::dom::element value) {
    add_wire_copy(copy_digest(kind, value), simdjson::minify(value));
  }

  // A copy streamed, by its digest; its text kept when the recorder
  // redacted part of it.
  void add_wire_copy(const Digest& digest, std::string text) {
    if (wire_copies_.size() >= kMaxTracked) return;
    wire_copies_.insert(digest);
    if (!stored_redacted_) return;
    if (has_redaction(text) && kept_bytes_ + text.size() <= kMaxKeptBytes) {
      kept_bytes_ += text.size();
      redacted_copies_.push_back(std::move(text));
    }
  }

  // The model's reasoning as streamed: Anthropic thinking blocks (joined,
  // as Claude Code logs one line per block), Responses reasoning items
  // (each summary's parts joined by a blank line).
  void wire_reasoning(const RebuiltAnswer& a, WireAnswer& w, uint64_t seq) {
    std::string thinking;
    for (const RebuiltBlock& b : a.blocks) {
      if (b.kind == RebuiltBlock::Kind::thinking) {
        thinking += b.text;
        w.has_thinking = true;
      } else if (b.kind == RebuiltBlock::Kind::reasoning && !b.text.empty() && wire_reasoning_.size() < kMaxTracked) {
        wire_reasoning_.insert(sha256(b.text));
        streamed_reasoning_parts(b);
        streamed_raw_reasoning(b);
        if (redacted_here(b.text) && kept_bytes_ + b.text.size() <= kMaxKeptBytes) {
          kept_bytes_ += b.text.size();
          redacted_reasoning_.emplace_back(b.text);
        }
      }
    }
    w.thinking = sha256(thinking);
    if (w.has_thinking) w.redacted_thinking = keep_redacted_answer(thinking, seq);
  }

  // Each part of a reasoning summary streamed in several: Codex logs an
  // agent_reasoning event per part, and when the user cuts the turn short
  // no reasoning item holds them together.
  void streamed_reasoning_parts(const RebuiltBlock& b) {
    if (b.part_starts.empty()) return;
    for (const std::string_view part : b.summary_parts()) {
      if (wire_reasoning_parts_.size() >= kMaxTracked) return;
      if (!part.empty()) wire_reasoning_parts_.insert(sha256(part));
      if (redacted_here(part) && kept_bytes_ + part.size() <= kMaxKeptBytes) {
        kept_bytes_ += part.size();
        redacted_reasoning_.emplace_back(part);
      }
    }
  }

  // A reasoning item that streamed raw reasoning: its content parts joined
  // as Codex's rollout has them (content apart from the summary), and, when
  // it streamed a summary too, the summary's parts alone.
  void streamed_raw_reasoning(const RebuiltBlock& b) {
    if (b.raw_starts.empty()) return;
    const std::string raw = joined_parts(b.reasoning_parts(true));
    if (!raw.empty()) wire_raw_reasoning_.insert(sha256(raw));
    if (redacted_here(raw) && kept_bytes_ + raw.size() <= kMaxKeptBytes) {
      kept_bytes_ += raw.size();
      redacted_reasoning_.push_back(raw);
    }
    const std::string summary = joined_parts(b.reasoning_parts(false));
    if (!summary.empty()) wire_reasoning_.insert(sha256(summary));
  }

  // Reasoning parts joined as the wire stream joins them (a blank line).
  static std::string joined_parts(const std::vector<std::string_view>& parts) {
    std::string out;
    for (const std::string_view part : parts) {
      if (!out.empty()) out += "\n\n";
      out += part;
    }
    return out;
  }

  // A wire record's (conn, exchange): a request and its response share it.
  static std::optional<std::pair<uint64_t, uint64_t>> exchange_of(const Record& r) {
    uint64_t conn = 0, exchange = 0;
    if (json::uint(r.body, "conn", &conn) != json::Get::ok || json::uint(r.body, "exchange", &exchange) != json::Get::ok) {
      return std::nullopt;
    }
    return std::pair(conn, exchange);
  }

  void wire_request(const Record& r, Context& ctx) {
    const uint64_t read_before = requests_;
    read_request(r, ctx);
    // A request whose body was not read may have carried anything: the
    // log's order is not held to the requests past it.
    std::string_view dir;
    if (requests_ == read_before && json::string(r.body, "dir", &dir) == json::Get::ok && dir == "request" &&
        ctx.wire_body().present && !ctx.wire_body().bytes().empty()) {
      turn_order_.request_unread(r.seq);
      request_unread_ = true;
    }
  }

  // The tool results a request hands the model: Anthropic tool_result
  // blocks, Responses *_output items, Chat Completions tool messages.
  void read_request(const Record& r, Context& ctx) {
    std::string_view dir;
    if (json::string(r.body, "dir", &dir) != json::Get::ok || dir != "request") return;
    const WireBody& body = ctx.wire_body();
    if (!body.present) return;
    if (!body.content_readable()) return unread_requests_.add(r.seq);
    const std::string_view content = body.content();
    if (content.empty() || content.front() != '{') return;
    const Result<simdjson::dom::element>& root = ctx.request_json();
    if (!root && code_class(root.error().code) == ErrorClass::limit) return ctx.body_not_parsed("GC04", root.error());
    if (!root) return (stored_cut(r) ? cut_requests_ : unread_requests_).add(r.seq);
    simdjson::dom::object o;
    if (root->get(o)) return;
    ++requests_;
    last_request_seq_ = r.seq;
    if (first_request_seq_ == 0) first_request_seq_ = r.seq;
    instructions_.sent(o, stored_redacted_);
    // Anthropic requests (a top-level `system`) carry no Codex context.
    if (o.at_key("system").error() != simdjson::SUCCESS) codex_context_.sent(o, stored_redacted_);
    const auto exchange = exchange_of(r);
    std::string_view model;
    if (o.at_key("input").error() == simdjson::SUCCESS && json::string(o, "model", &model) == json::Get::ok &&
        request_models_.size() < kMaxTracked) {
      request_models_.insert(identity(model));
    }
    simdjson::dom::array messages;
    if (exchange && json::array(o, "messages", &messages) == json::Get::ok && asks_for_summary(messages) &&
        summarising_exchanges_.size() < kMaxTracked) {
      summarising_exchanges_.insert(*exchange);
    }
    if (exchange && titling_exchanges_.size() < kMaxTracked && codex_title_request(o)) titling_exchanges_.insert(*exchange);
    if (exchange && json::array(o, "messages", &messages) == json::Get::ok && side_call_tools(o)) {
      lone_message_request(messages, *exchange);
    }
    for (std::string_view list : {"messages", "input"}) {
      simdjson::dom::array items;
      if (json::array(o, list, &items) != json::Get::ok) continue;
      bool after_bridge = false;  // Codex: past the summary a local compaction sent back
      for (auto item : items) {
        if (list == "messages") sent_message(item);
        if (list == "messages") sent_system_turn(item);
        sent_results(item, r.seq);
        sent_prompts(item);
        // Every user text sent must be logged: Claude Code's (Anthropic
        // messages) always; Codex's (Responses input) until it compacts,
        // after which it sends texts it rebuilt from the `compacted` line.
        if (exchange) carried_prompts(item, *exchange, r.seq, list == "input", after_bridge);
        after_bridge |= list == "input" && codex_bridge(item);
      }
    }
  }

  bool redacted_here(std::string_view text) const { return stored_redacted_ && has_redaction(text); }

  // Whether a request offers tools as Claude Code's side calls do, never
  // its conversation's turns (read in its npm releases' cli.js):
  //   * 2.0.30, 2.0.76: the small-model helper (querySource
  //     "bash_extract_prefix", "bash_extract_command_paths",
  //     "web_fetch_apply", titles...) passes `tools:[]`, and the request
  //     is built as `tools:[...K,...extraToolSchemas]`: an empty list.
  //     WebSearch asks the conversation's model with `tools:[]` and
  //     extraToolSchemas of Anthropic's server tool (web_search_20250305:
  //     no input_schema), tool_choice unset. The API-key check sends
  //     {"role":"user","content":"test"} with no `tools`.
  //   * 2.1.200 (native build): the helper ("generate_session_title",
  //     `<session>...</session>`) passes `tools:[]` too; its side_query
  //     sends `tools` only when given, and the classifiers that use it
  //     ("permission_explainer", "context_tip_classifier", auto mode)
  //     force one tool: tool_choice {"type":"tool","name":...}.
  // Every turn of the conversation offers Claude Code's own tools (Bash,
  // Read...: input_schema) with toolChoice unset in all three. So a
  // deleted turn of a run whose later requests do not re-send it is no
  // side call. OpenAI tools ({"type":"function"}) count as the harness's.
  static bool side_call_tools(simdjson::dom::object request) {
    simdjson::dom::object choice;
    std::string_view type;
    if (json::object(request, "tool_choice", &choice) == json::Get::ok && json::string(choice, "type", &type) == json::Get::ok &&
        type == "tool") {
      return true;  // one tool forced: a classifier's
    }
    simdjson::dom::array tools;
    const json::Get got = json::array(request, "tools", &tools);
    if (got == json::Get::absent) return true;
    if (got != json::Get::ok) return false;
    for (auto tool : tools) {
      simdjson::dom::object t;
      if (tool.get(t) || t.at_key("input_schema").error() == simdjson::SUCCESS) return false;
      if (json::string(t, "type", &type) == json::Get::ok && type == "function") return false;
    }
    return true;  // none, or only server tools the provider runs
  }

  // A request of one user message (a side call's shape: Claude Code 2.0
  // asks a smaller model which files a command touched, or how to prefix
  // it) offering no tool of the harness's (side_call_tools()): the loose
  // digests of its texts, so that unlogged() can tell one that holds
  // nothing the log shows. A conversation's request re-sends what the log
  // holds (its prompt, its results); Warmup's, its "Warmup".
  void lone_message_request(simdjson::dom::array messages, std::pair<uint64_t, uint64_t> exchange) {
    if (messages.size() != 1 || lone_requests_.size() >= kMaxTracked) return;
    simdjson::dom::object m;
    std::string_view role, text;
    if (messages.at(0).get(m) || json::string(m, "role", &role) != json::Get::ok || role != "user") return;
    LoneRequest lone;
    auto add = [&](std::string_view said) {
      if (lone.texts.size() < LoneRequest::kMaxTexts) lone.texts.push_back(sha256(loose_text(without_reminders(said))));
      else lone.other = true;
    };
    simdjson::dom::array parts;
    if (json::string(m, "content", &text) == json::Get::ok) {
      add(text);
    } else if (json::array(m, "content", &parts) == json::Get::ok) {
      for (auto part : parts) {
        simdjson::dom::object p;
        std::string_view type;
        if (part.get(p) || json::string(p, "type", &type) != json::Get::ok) continue;
        if (type == "text" && json::string(p, "text", &text) == json::Get::ok) add(text);
        else lone.other = true;  // a tool result, an image, a document: not judged
      }
    } else {
      return;
    }
    lone_requests_.try_emplace(exchange, std::move(lone));
  }

  // Response seqs of the lone-message requests (above) whose texts the
  // log never shows as user texts: side calls, whatever their model.
  absl::flat_hash_set<uint64_t> unlogged_side_requests() const {
    absl::flat_hash_set<uint64_t> out;
    // Some logged texts or summary requests not kept: none is sure.
    if (logged_user_texts_.size() >= kMaxTracked || summarising_exchanges_.size() >= kMaxTracked) return out;
    for (const auto& [exchange, lone] : lone_requests_) {
      // A request asking for a summary is a compaction's: its answer is the summary the log must show.
      if (lone.other || lone.texts.empty() || summarising_exchanges_.contains(exchange)) continue;
      if (std::any_of(lone.texts.begin(), lone.texts.end(), [&](const Digest& d) { return logged_user_texts_.contains(d); })) continue;
      if (auto it = answer_of_exchange_.find(exchange); it != answer_of_exchange_.end()) out.insert(it->second);
    }
    return out;
  }

  // Whether a request's last user message asks the model to summarise (a
  // compaction's request: "Your task is to create a detailed summary of the
  // conversation so far..."), in its own text, not in a tool result or the
  // harness's <system-reminder> blocks.
  static bool asks_for_summary(simdjson::dom::array messages) {
    std::optional<simdjson::dom::object> last;
    for (auto m : messages) {
      simdjson::dom::object o;
      std::string_view role;
      if (!m.get(o) && json::string(o, "role", &role) == json::Get::ok && role == "user") last = o;
    }
    if (!last) return false;
    auto asks = [](std::string_view text) {
      std::string lower = without_reminders(text);
      std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
      return lower.find("summar") != std::string::npos;
    };
    std::string_view text;
    if (json::string(*last, "content", &text) == json::Get::ok) return asks(text);
    simdjson::dom::array blocks;
    if (json::array(*last, "content", &blocks) != json::Get::ok) return false;
    for (auto b : blocks) {
      simdjson::dom::object block;
      std::string_view type;
      if (!b.get(block) && json::string(block, "type", &type) == json::Get::ok && type == "text" &&
          json::string(block, "text", &text) == json::Get::ok && asks(text)) {
        return true;
      }
    }
    return false;
  }

  // The recorder stored the body cut at its size cap (`complete` false).
  static bool stored_cut(const Record& r) {
    bool complete = true;
    return json::boolean(r.body, "complete", &complete) == json::Get::ok && !complete;
  }

  void sent_results(simdjson::dom::element item, uint64_t seq) {
    simdjson::dom::object o;
    if (item.get(o)) return;
    std::string_view type, id;
    (void)json::string(o, "type", &type);
    if ((type == "function_call_output" || type == "custom_tool_call_output" || type == "local_shell_call_output") &&
        json::string(o, "call_id", &id) == json::Get::ok) {
      sent_result(id, o, "output", seq);
    } else if (json::string(o, "role", &type) == json::Get::ok && type == "tool" &&
               json::string(o, "tool_call_id", &id) == json::Get::ok) {
      sent_result(id, o, "content", seq);
    }
    simdjson::dom::array content;
    if (json::array(o, "content", &content) != json::Get::ok) return;
    for (auto block : content) {
      simdjson::dom::object b;
      if (block.get(b) || json::string(b, "type", &type) != json::Get::ok || type != "tool_result") continue;
      if (json::string(b, "tool_use_id", &id) == json::Get::ok) sent_result(id, b, "content", seq, error_flag(b));
    }
  }

  // One form of a result as sent: kept when it is new for its call.
  void sent_result(std::string_view id, simdjson::dom::object holder, std::string_view member, uint64_t seq,
                   int8_t error = kErrorUnknown) {
    const Identity key = identity(id);
    SentResult& sent = sent_results_[key];
    if (sent.seq == 0) sent.seq = seq;
    if (error != kErrorUnknown) sent.errors |= static_cast<uint8_t>(1u << error);
    // Forms past kMaxForms are not read: by then three forms other than the
    // one placeholder text were, so only_placeholders is already false.
    // Their <system-reminder> blocks still are (the attachments folded in).
    simdjson::dom::element content;
    std::string joined;  // the text when it is not one string of the request
    const std::string_view text = holder.at_key(member).get(content) ? std::string_view() : content_view(content, &joined);
    if (sent.forms.size() >= SentResult::kMaxForms) {
      if (holds(text, "<system-reminder>")) sent_result_reminders(text);
      return;
    }
    if (!is_missing_result_placeholder(text, member, error)) sent.only_placeholders = false;
    const std::pair<size_t, XXH64_hash_t> quick{text.size(), XXH3_64bits(text.data(), text.size())};
    if (std::find(sent.quick.begin(), sent.quick.end(), quick) != sent.quick.end()) return;
    sent.quick.push_back(quick);
    const SentMarks marks = sent_marks(text);
    const auto found = logged_texts_.find(key);
    LoggedResult* logged = found == logged_texts_.end() ? nullptr : &found->second;
    if (logged && !logged->made && take_pending(key, text)) {
      // The log's text, still waiting, is this one (usually logged just
      // before it is sent): the call is settled, and neither text is hashed.
      logged->sent_as_logged = true;
      sent.forms.push_back({});  // never compared: its call is settled
    } else {
      const bool reminded = marks.reminder;
      const Digest exact = logged && logged->made && kept_whole(*logged, text) ? logged->said.exact : sha256(text);
      if (logged && logged->made && logged->said.exact == exact) {
        // The same text: its loose digests are the logged ones.
        sent.forms.push_back({exact, logged->said.loose});
        if (reminded) sent.unreminded.push_back(logged->unreminded);
      } else {
        sent.forms.push_back({exact, sha256(loose_text(text))});
        if (reminded) sent.unreminded.push_back(sha256(loose_text(without_reminders(text))));
      }
      if (reminded) sent_reminders(sent, text);
    }
    if (marks.reminder) sent_result_reminders(text);
    const bool marked = marks.cut || (marks.redaction_opening && redacted_here(text));
    if (!marked) return;
    if (text.size() <= 2 * Excerpt::kExcerptBytes && kept_bytes_ + text.size() <= kMaxKeptBytes) {
      kept_bytes_ += text.size();
      sent.kept_forms.emplace_back(text);
    } else {
      sent.cut_dropped = true;
    }
  }

  // Whether the logged result is kept whole (its ends, within kMaxKeptBytes)
  // and is `text`: then `text` has its digest, compared instead of hashed.
  static bool kept_whole(const LoggedResult& logged, std::string_view text) {
    return logged.ends && logged.ends->tail.empty() && logged.ends->head == text;
  }

  // A content value's text (content_text), without a copy when it is one
  // string: `scratch` holds it otherwise.
  static std::string_view content_view(simdjson::dom::element content, std::string* scratch) {
    std::string_view s;
    if (!content.get(s)) return s;
    *scratch = content_text(content);
    return *scratch;
  }

  // The user's words a request carries: each text part of a user message,
  // and its parts joined (Codex logs a prompt of several parts as one);
  // and a Responses developer message's, which Codex logs the same way.
  void sent_prompts(simdjson::dom::element item) {
    simdjson::dom::object o;
    std::string_view role, text;
    const bool context = !item.get(o) && codex_context_output(o) && json::string(o, "output", &text) == json::Get::ok;
    if (!context && (item.get(o) || json::string(o, "role", &role) != json::Get::ok || (role != "user" && role != "developer"))) return;
    auto add = [&](std::string_view said) {
      // Each request re-sends the prompts before it: only a new one is
      // normalized and kept.
      sent_reminders_unkept_ |= wire_prompts_.size() >= kMaxTracked;
      if (wire_prompts_.size() >= kMaxTracked || !wire_prompts_.insert(sha256(said)).second) return;
      std::string loose = loose_text(said);
      wire_prompts_loose_.insert(sha256(loose));
      sent_reminder(said, std::move(loose));
      if (redacted_here(said) && kept_bytes_ + said.size() <= kMaxKeptBytes) {
        kept_bytes_ += said.size();
        redacted_prompts_.emplace_back(said);
      }
    };
    if (context) return add(text);
    if (json::string(o, "content", &text) == json::Get::ok) return add(text);
    simdjson::dom::array parts;
    if (json::array(o, "content", &parts) != json::Get::ok) return;
    std::string joined;
    for (auto part : parts) {
      simdjson::dom::object p;
      std::string_view type;
      if (part.get(p) || json::string(p, "type", &type) != json::Get::ok || (type != "text" && type != "input_text") ||
          json::string(p, "text", &text) != json::Get::ok) {
        continue;
      }
      add(text);
      joined += joined.empty() ? "" : "\n";
      joined += text;
    }
    if (!joined.empty()) add(joined);
  }

  // The user texts a request carries, each with the requests that carried
  // it (the first few: every request re-sends the conversation).
  // A Codex user message holding a local compaction's summary after Codex's
  // prefix: the history it rebuilt comes before it, new prompts after.
  static bool codex_bridge(simdjson::dom::element item) {
    simdjson::dom::object o;
    simdjson::dom::array parts;
    std::string_view role, text;
    if (item.get(o) || json::string(o, "role", &role) != json::Get::ok || role != "user" ||
        json::array(o, "content", &parts) != json::Get::ok) {
      return false;
    }
    for (auto part : parts) {
      simdjson::dom::object p;
      if (!part.get(p) && json::string(p, "text", &text) == json::Get::ok && codex_summary_past_prefix(trimmed_text(text))) return true;
    }
    return false;
  }

  void carried_prompts(simdjson::dom::element item, std::pair<uint64_t, uint64_t> exchange, uint64_t seq, bool codex,
                       bool after_bridge = false) {
    simdjson::dom::object o;
    std::string_view role, text;
    // Remote compaction: Codex sends the history a `compacted` line holds, its compaction item with it.
    if (codex && !item.get(o) && json::string(o, "type", &text) == json::Get::ok &&
        codex_compaction_type(text) && !codex_compactions_.empty()) {
      compaction_item_sent_ = true;
    }
    const bool context =
        codex && !item.get(o) && codex_context_output(o) && json::string(o, "output", &text) == json::Get::ok;
    if (!context && (item.get(o) || json::string(o, "role", &role) != json::Get::ok || role != "user")) return;
    auto add = [&](std::string_view said) {
      // The log's copy of the marker is no user text either (native.cc):
      // sent or not, it is not held (a marker says nothing the user asked).
      if (!codex && claude_interrupt_marker(said)) return;
      auto it = wire_prompts_sent_.find(sha256(said));
      if (it == wire_prompts_sent_.end()) {
        const std::string unreminded = without_reminders(said);
        // Claude Code's own context (CLAUDE.md, attachments, hook output)
        // comes wrapped in <system-reminder> blocks the log keeps apart.
        if (trimmed_text(unreminded).empty() || wire_prompts_sent_.size() >= kMaxTracked) return;
        if (codex) note_bridge(said);
        WirePrompt p;
        p.seq = seq;
        p.codex = codex;
        p.compactions_before = codex ? codex_compactions_.size() : 0;
        p.after_bridge = after_bridge;
        p.loose = sha256(loose_text(unreminded));
        p.harness_record = said.starts_with("<command-") || said.starts_with("<local-command-") || said.starts_with("<bash-");
        if (redacted_here(said) && kept_bytes_ + said.size() <= kMaxKeptBytes) {
          kept_bytes_ += said.size();
          p.redacted = std::string(said);
        }
        it = wire_prompts_sent_.emplace(sha256(said), std::move(p)).first;
      }
      auto& carriers = it->second.carriers;
      if (carriers.size() < WirePrompt::kMaxCarriers && std::find(carriers.begin(), carriers.end(), exchange) == carriers.end()) {
        carriers.push_back(exchange);
      }
    };
    if (context) return add(text);
    if (json::string(o, "content", &text) == json::Get::ok) return add(text);
    simdjson::dom::array parts;
    if (json::array(o, "content", &parts) != json::Get::ok) return;
    const bool loads_tools = !codex && loads_deferred_tools(parts);
    for (auto part : parts) {
      simdjson::dom::object p;
      std::string_view type;
      if (!part.get(p) && json::string(p, "type", &type) == json::Get::ok && (type == "text" || type == "input_text") &&
          json::string(p, "text", &text) == json::Get::ok && !(loads_tools && claude_tool_loaded_note(text))) {
        add(text);
      }
    }
  }

  // Whether a Claude Code user message carries a tool_result whose content
  // holds a tool_reference block (ToolSearch loading deferred tools): the
  // harness then sends its "Tool loaded." note beside it.
  static bool loads_deferred_tools(simdjson::dom::array parts) {
    for (auto part : parts) {
      simdjson::dom::object p;
      simdjson::dom::array content;
      std::string_view type;
      if (part.get(p) || json::string(p, "type", &type) != json::Get::ok || type != "tool_result" ||
          json::array(p, "content", &content) != json::Get::ok) {
        continue;
      }
      for (auto block : content) {
        simdjson::dom::object b;
        if (!block.get(b) && json::string(b, "type", &type) == json::Get::ok && type == "tool_reference") return true;
      }
    }
    return false;
  }

  // A web search's strings before a resumed run's first request may be
  // history it re-sends, which the earlier run's web_search_end event
  // words anew (history_searches()).
  void keep_searched_texts(const Record& r, Context& ctx) {
    const NativeInfo& n = ctx.native();
    if (n.type != "web_search_call" || n.searched.size() < 2 || !ctx.facts().launch.resumes ||
        !ctx.resumed_history().deciding()) {
      return;
    }
    size_t bytes = 0;
    for (const std::string& said : n.searched) bytes += said.size();
    if (searched_bytes_ + bytes > kMaxSearchedBytes) return;
    searched_bytes_ += bytes;
    searched_texts_.emplace(r.seq, n.searched);
  }

  void native_line(const Record& r, const NativeInfo& n, StrictJsonParser& input_parser) {
    if (is_copy(n)) return copies_.add(r.seq);
    turn_order_.logged_line(n, r.seq);
    progress_copies_.logged_line(n, r.seq);
    progress_outputs_.logged_line(n, r.seq);
    if (n.synthetic) synthetic_.add(r.seq);
    if (n.synthetic && !n.synthetic_notice) unnoticed_synthetic_.add(r.seq);
    if (n.harness == NativeInfo::Harness::codex && n.type == "compacted" && codex_compactions_.size() < kMaxSeqs) {
      const std::string_view summary = trimmed_text(n.summary);
      // Codex's prefix and no summary (the summarising call answered no text) says nothing of the model's.
      const bool empty = summary.empty() || codex_summary_answer(summary) == std::string_view();
      codex_compactions_.push_back({r.seq, sha256(summary), summary.empty() ? std::nullopt : kept_text(summary),
                                    n.replaced_history, false, empty});
      for (const Digest& item : n.compaction_items) {
        if (logged_compaction_items_.size() < kMaxTracked) logged_compaction_items_.insert(item);
      }
    }
    if (!n.turn_model.empty() && turn_models_.size() < kMaxTracked) {
      turn_models_.push_back({r.seq, identity(n.turn_model), clip_text(n.turn_model)});
    }
    if (n.synthetic && !n.message_id.empty()) {
      synthetic_ids_.emplace_back(identity(n.message_id), r.seq);
    }
    for (const std::string& said : n.user_texts) logged_user_text(said);
    if (n.harness == NativeInfo::Harness::codex) codex_thread_line(n);
    if (!n.reasoning_parts.empty()) logged_reasoning(n.reasoning_parts, false, r.seq);
    if (!n.raw_reasoning_parts.empty()) logged_reasoning(n.raw_reasoning_parts, true, r.seq);
    for (const std::string& part : n.event_reasoning) {
      if (!part.empty() && event_reasoning_.size() < kMaxTracked) event_reasoning_.push_back({r.seq, sha256(part), kept_text(part)});
    }
    if (!n.summary.empty()) summaries_.insert(sha256(trimmed_text(n.summary)));
    if (n.compact_summary && compactions_.size() < kMaxSeqs) {
      compactions_.push_back(r.seq);
      std::string said;
      for (const std::string& text : n.user_texts) said.append(text).append(" ");
      compaction_texts_.push_back(kept_text(spaced(said)));
    }
    for (const std::string& id : n.results) logged_results_.try_emplace(identity(id), r.seq);
    for (size_t i = 0; i < n.result_texts.size() && i < n.results.size(); ++i) {
      if (n.harness == NativeInfo::Harness::claude_code && i < n.result_errors.size() && n.result_errors[i] == kErrorTrue &&
          n.result_texts[i] == kClaudeRejection && rejections_.size() < kMaxTracked) {
        rejections_.insert(identity(n.results[i]));
      }
      logged_result(n.results[i], n.result_texts[i], i < n.result_errors.size() ? n.result_errors[i] : kErrorUnknown, r.seq);
    }
    if (!n.result_copies.empty() && n.result_texts.size() == 1) result_copy(n, r.seq);
    if (n.edit_copy && n.results.size() == 1 && edit_copies_.size() < kMaxTracked) {
      edit_copies_.push_back({r.seq, identity(n.results.front()), *n.edit_copy});
    }
    if (n.copy_claims && n.results.size() == 1) held_copies_.copy(r.seq, identity(n.results.front()), *n.copy_claims);
    for (const auto& [id, replacement] : n.replacements) {
      Replacement record{sha256(replacement), sha256(loose_text(replacement)), replacement.starts_with(kPersisted), std::nullopt};
      if (record.persisted && replacement.size() <= Excerpt::kExcerptBytes) record.preview = persisted_preview(replacement);
      replaced_.try_emplace(identity(id), std::move(record));
    }
    const Identity thread = identity(n.file + (n.sidechain ? "\x01sidechain" : ""));
    if (n.harness == NativeInfo::Harness::claude_code && n.user) unheld_prompts(n, r.seq);
    if (!n.attachment_texts.empty()) logged_attachment(n, r.seq, thread);
    if (n.request_blob) logged_request_blob(*n.request_blob, r.seq);
    if (n.compact_boundary) compaction_after_attachments(thread);
    for (const std::string& said : n.prompts) {
      unanswered_[thread].push_back(logged_prompts_.size());
      logged_prompts_.push_back({r.seq, SaidDigests::of(said), false, std::nullopt});
      if (kept_bytes_ + said.size() <= kMaxKeptBytes) {
        kept_bytes_ += said.size();
        logged_prompts_.back().text = said;
      }
    }
    for (const std::string& said : n.event_answers) {
      if (!said.empty() && event_answers_.size() < kMaxTracked) event_answers_.push_back({r.seq, sha256(said), kept_text(said)});
    }
    for (const std::string& said : n.review_texts) {
      if (review_texts_.size() < kMaxTracked) review_texts_.push_back({r.seq, sha256(trimmed_text(said)), kept_text(said)});
    }
    if (n.event_output) event_output(*n.event_output, r.seq);
    if (n.event_action) event_action(*n.event_action, r.seq);
    for (const std::string& alias : n.event_call_aliases) {
      if (event_call_aliases_.size() < kMaxTracked) event_call_aliases_.insert(identity(alias));
    }
    if (n.event_call && !n.event_call->user_shell && event_calls_.size() < kMaxTracked) {
      event_calls_.push_back({r.seq, identity(n.event_call->call_id), clip_text(n.event_call->call_id)});
    }
    for (const std::string& said : n.searched) {
      if (logged_searched_.size() < kMaxTracked) logged_searched_.emplace_back(r.seq, sha256(said));
    }

    if (!n.search_detail.empty() && logged_search_details_.size() < kMaxTracked) {
      logged_search_details_.emplace_back(r.seq, sha256(n.search_detail));
    }
    // Kept whatever the order of the lines: an event moved after its
    // output item is compared too (red-team 19b #02, #18).
    if (n.harness == NativeInfo::Harness::codex) {
      for (size_t i = 0; i < n.result_texts.size() && i < n.results.size(); ++i) codex_output(n.results[i], n.result_texts[i]);
    }
    for (const ProviderCopy& c : n.provider_copies) {
      if (logged_copies_.size() < kMaxTracked) logged_copies_.push_back({r.seq, c.kind, c.value, kept_text(c.text)});
    }
    instructions_.logged(n, r.seq);
    if (!n.assistant) return;
    if (n.harness == NativeInfo::Harness::claude_code && n.file.find("agent-acompact") != std::string::npos) {
      compaction_agent_logged_ = true;
    }
    if (auto it = unfollowed_.find(identity(n.file)); it != unfollowed_.end()) {
      for (size_t i : it->second) flagged_[i].followed = true;
      unfollowed_.erase(it);
    }
    for (const ServerResult& s : n.server_results) {
      if (logged_server_results_.size() < kMaxTracked) {
        logged_server_results_.push_back({r.seq, identity(s.id), s.content, clip_text(s.id), kept_text(s.text)});
      }
    }
    if (auto it = unfollowed_attachments_.find(thread); it != unfollowed_attachments_.end()) {
      for (size_t i : it->second) logged_attachments_[i].followed = true;
      unfollowed_attachments_.erase(it);
    }
    // What the user said before this answer was sent with it.
    if (auto it = unanswered_.find(thread); it != unanswered_.end()) {
      for (size_t i : it->second) logged_prompts_[i].answered = true;
      unanswered_.erase(it);
    }
    ++native_lines_;
    if (!n.model.empty()) logged_models_.insert(identity(n.model));
    for (const NativeCall& c : n.calls) {
      if (c.id.empty()) continue;
      if (c.edit && edit_calls_.size() < kMaxTracked) edit_calls_.try_emplace(identity(c.id), EditCall{*c.edit, c.name == "Write"});
      held_copies_.call(identity(c.id), c.name, c.copy_key);
      auto [it, added] = logged_calls_.try_emplace(identity(c.id), LoggedCall{r.seq, identity(c.name), c.input, clip_text(c.id), {},
                                                                                c.input_unflagged});
      if (added && c.input_text.size() <= kMaxKeptInput) it->second.input_text = kept_text(canonical_input(c.input_text, input_parser));
    }
    if (n.harness == NativeInfo::Harness::claude_code && !n.message_id.empty()) {
      NativeMessage& m = native_by_id_[identity(n.message_id)];
      if (m.id.empty()) m.id = clip_text(n.message_id);
      if (!n.model.empty() && !m.mixed_models) {
        const Identity model = identity(n.model);
        if (!m.model || *m.model != model) m.model_name = clip_text(n.model);
        m.mixed_models = m.model && *m.model != model;
        if (!m.model) m.model = model;
      }
      if (m.seqs.size() < kMaxSeqs) m.seqs.push_back(r.seq);
      m.text->update(n.text);
      m.has_text |= !n.text.empty();
      m.thinking->update(n.thinking);
      m.has_thinking |= n.has_thinking;
      if (m.kept_thinking && kept_bytes_ + n.thinking.size() <= kMaxKeptBytes) {
        kept_bytes_ += n.thinking.size();
        *m.kept_thinking += n.thinking;
      } else {
        m.kept_thinking.reset();
      }
      if (m.kept && kept_bytes_ + n.text.size() <= kMaxKeptBytes) {
        kept_bytes_ += n.text.size();
        *m.kept += n.text;
      } else {
        m.kept.reset();
      }
    } else if (n.harness == NativeInfo::Harness::codex && !n.text.empty()) {
      codex_texts_.push_back({r.seq, sha256(n.text), kept_text(n.text), sha256(n.file)});
    }
  }

  // The first request that carried a user text (by its exact digest) or a call's result.
  std::optional<uint64_t> first_sent_prompt(const Digest& text) const {
    const auto it = wire_prompts_sent_.find(text);
    return it == wire_prompts_sent_.end() ? std::nullopt : std::optional<uint64_t>(it->second.seq);
  }
  std::optional<uint64_t> first_streamed_call(const Identity& call) const {
    const auto it = wire_calls_.find(call);
    return it == wire_calls_.end() ? std::nullopt : std::optional<uint64_t>(it->second.seq);
  }
  std::optional<uint64_t> first_sent_result(const Identity& call) const {
    const auto it = sent_results_.find(call);
    return it == sent_results_.end() || it->second.seq == 0 ? std::nullopt : std::optional<uint64_t>(it->second.seq);
  }

  // What the wire carried, as the copies of a subagent's messages are held to it.
  ProgressCopies::Wire progress_wire() const {
    ProgressCopies::Wire wire;
    wire.answer = [this](const Identity& message) { return wire_by_id_.contains(message); };
    wire.call = [this](const Identity& call, const Identity& name, const Digest& input) -> std::optional<bool> {
      const auto it = wire_calls_.find(call);
      if (it == wire_calls_.end()) return false;
      if (it->second.redacted) return std::nullopt;
      return it->second.name == name && it->second.input == input;
    };
    wire.result = [this](const Identity& call, const Digest& exact, const Digest& loose) -> std::optional<bool> {
      const auto it = sent_results_.find(call);
      // Never sent (the Task stopped), or maybe in a request not read: nothing to hold it to.
      if (it == sent_results_.end() || request_unread_) return std::nullopt;
      const SentResult& sent = it->second;
      bool unsure = false;
      for (const SaidDigests& form : sent.forms) {
        // A form left unhashed was the text logged for the call, byte for byte.
        const auto logged = form.exact == Digest{} ? logged_texts_.find(call) : logged_texts_.end();
        const SaidDigests* said = form.exact != Digest{} ? &form : logged != logged_texts_.end() && logged->second.made ? &logged->second.said : nullptr;
        unsure |= said == nullptr;
        if (said && (said->exact == exact || said->loose == loose)) return true;
      }
      if (unsure || sent.forms.size() >= SentResult::kMaxForms || !sent.kept_forms.empty() || sent.cut_dropped ||
          !sent.unreminded.empty() || sent.only_placeholders) {
        return std::nullopt;
      }
      return false;
    };
    wire.prompt = [this](const Digest& exact, const Digest& loose) {
      return wire_prompts_.contains(exact) || wire_prompts_loose_.contains(loose) || !redacted_prompts_.empty() ||
             sent_reminders_unkept_ || request_unread_;
    };
    return wire;
  }

  // Claude Code user texts the prompt check passes over as they stand
  // (shown only in the transcript, a local command's or bash mode's record)
  // or judges only on their sidechain (a sidechain's prompt): kept to say
  // which of them, with a model answer after them in their file, no request
  // sent. Called before the line's prompts join logged_prompts_.
  void unheld_prompts(const NativeInfo& n, uint64_t seq) {
    for (const std::string& said : n.user_texts) {
      const auto held = std::find(n.prompts.begin(), n.prompts.end(), said);
      if ((held != n.prompts.end() && !n.sidechain) || flagged_.size() >= kMaxTracked) continue;
      const int64_t prompt = held == n.prompts.end() ? -1 : static_cast<int64_t>(logged_prompts_.size() + (held - n.prompts.begin()));
      unfollowed_[identity(n.file)].push_back(flagged_.size());
      flagged_.push_back({seq, SaidDigests::of(said), kept_text(said), prompt, false, n.compact_summary});
    }
  }

  // A Claude Code line that repeats an earlier line of its uuid in all it
  // says (a resumed session's copy of its history, in a new file or the
  // same): compared once, or an answer's text would read as doubled. A line
  // of that uuid saying anything else is read, and judged, as it stands.
  bool is_copy(const NativeInfo& n) {
    if (n.harness != NativeInfo::Harness::claude_code || n.uuid.empty()) return false;
    const Identity uuid = identity(n.uuid);
    if (auto it = first_lines_.find(uuid); it != first_lines_.end()) return it->second == n.copy_key;
    // Past the bound a repeat is read as it stands, which is stricter.
    if (first_lines_.size() < kMaxTracked) first_lines_.emplace(uuid, n.copy_key);
    return false;
  }

  // A Codex event's account of a tool's output, kept (within
  // kMaxEventBytes) to compare with the output logged for its call.
  void event_output(const EventOutput& out, uint64_t seq) {
    uint64_t bytes = out.text.size();
    for (const auto* texts : {&out.also, &out.streams}) {
      for (const std::string& text : *texts) bytes += text.size();
    }
    if (event_outputs_.size() >= kMaxTracked || event_bytes_ + bytes > kMaxEventBytes) {
      uncompared_events_.add(seq);
      return;
    }
    event_bytes_ += bytes;
    event_outputs_.push_back({seq, identity(out.call_id), out});
  }

  // A Codex event's account of what a call ran or changed, kept (within
  // kMaxEventBytes) to hold to the call's arguments.
  void event_action(const EventAction& a, uint64_t seq) {
    uint64_t bytes = a.command.size();
    for (const auto* texts : {&a.parsed, &a.paths, &a.lines}) {
      for (const std::string& text : *texts) bytes += text.size();
    }
    if (event_actions_.size() >= kMaxTracked || event_bytes_ + bytes > kMaxEventBytes) {
      uncompared_events_.add(seq);
      return;
    }
    event_bytes_ += bytes;
    event_actions_.push_back({seq, identity(a.call_id), a});
  }

  // A Codex call's output as logged, once the log has shown an event that
  // repeats an output (Codex writes the event before the output item);
  // the first one logged for the call.
  void codex_output(const std::string& id, const std::string& text) {
    const Identity key = identity(id);
    if (codex_outputs_.contains(key)) return;
    if (output_bytes_ + text.size() > kMaxEventBytes) {
      outputs_dropped_.insert(key);
      return;
    }
    output_bytes_ += text.size();
    codex_outputs_.emplace(key, text);
  }

  // Every user text of the log, whatever its flags, as compared with what
  // requests carried (loose, and without <system-reminder> blocks).
  void logged_user_text(const std::string& said) {
    if (logged_user_texts_.size() >= kMaxTracked) return;
    logged_user_texts_.insert(sha256(loose_text(without_reminders(said))));
    // Kept apart from kept_bytes_, which the ends of tool results need.
    if (kept_user_bytes_ + said.size() <= kMaxKeptUserBytes) {
      kept_user_bytes_ += said.size();
      kept_user_texts_.push_back(said);
    } else {
      user_texts_dropped_ = true;
    }
  }

  void logged_reasoning(const std::vector<std::string>& reasoning_parts, bool raw, uint64_t seq) {
    LoggedReasoning l;
    l.seq = seq;
    l.raw = raw;
    std::string joined;
    for (const std::string& part : reasoning_parts) {
      joined += joined.empty() ? "" : "\n\n";
      joined += part;
      l.parts.push_back(sha256(part));
    }
    if (joined.empty() || logged_reasoning_.size() >= kMaxTracked) return;
    l.joined = sha256(joined);
    l.text = kept_text(joined);
    logged_reasoning_.push_back(std::move(l));
  }

  void logged_result(const std::string& id, const std::string& text, int8_t error, uint64_t seq) {
    auto [it, added] = logged_texts_.try_emplace(identity(id));
    if (!added) return extra_result(it->first, it->second, text, error, seq);
    it->second.seq = seq;
    it->second.error = error;
    const auto sent = sent_results_.find(it->first);
    if ((sent == sent_results_.end() || sent->second.forms.empty()) && text.size() >= kDeferAtLeast &&
        text.size() <= kPendingBytes) {
      wait(it->first, text);
    } else {
      make_digests(it->first, it->second, text);
    }
    const uint64_t keep = std::min<uint64_t>(text.size(), 2 * Excerpt::kExcerptBytes);
    if (kept_bytes_ + keep <= kMaxKeptBytes) {
      kept_bytes_ += keep;
      it->second.ends = excerpt_of(text);
    }
  }

  // Another result logged for a call: one that says what the first says
  // (text and is_error) is that one again; any other is judged on its own,
  // so that a second result the model never saw is no way to rewrite it.
  void extra_result(const Identity& key, LoggedResult& first, std::string_view text, int8_t error, uint64_t seq) {
    if (!first.made && !first.ends && std::none_of(pending_.begin(), pending_.end(), [&](const PendingText& p) { return p.key == key; })) {
      uncompared_.add(seq);
      return;
    }
    if (error == first.error && same_text(key, first, text)) return;
    if (extra_results_.size() >= kMaxTracked) return;
    ExtraResult extra{key, {}};
    extra.logged.seq = seq;
    extra.logged.error = error;
    make_digests(key, extra.logged, text);
    const uint64_t keep = std::min<uint64_t>(text.size(), 2 * Excerpt::kExcerptBytes);
    if (kept_bytes_ + keep <= kMaxKeptBytes) {
      kept_bytes_ += keep;
      extra.logged.ends = excerpt_of(text);
    }
    extra_results_.push_back(std::move(extra));
  }

  // Whether `text` is the first logged result's: by its digest, its text
  // kept whole or waiting; past those bounds (a long text sent as logged,
  // not kept) by its size and ends.
  bool same_text(const Identity& key, const LoggedResult& first, std::string_view text) const {
    if (first.made) return first.said.exact == sha256(text);
    if (first.ends && first.ends->tail.empty()) return first.ends->head == text;
    for (const PendingText& p : pending_) {
      if (p.key == key) return p.text == text;
    }
    if (!first.ends) return true;  // past every bound: listed as not compared (extra_result)
    const Excerpt e = excerpt_of(text);
    return e.size == first.ends->size && e.head == first.ends->head && e.tail == first.ends->tail;
  }

  // A logged result's digests are read only when no form sent is its text
  // byte for byte, and the request that sends it usually comes a few
  // records later: a long text waits here (within kPendingBytes) and is
  // hashed and normalized only when it leaves, oldest first, or at the end,
  // unless a form sent byte for byte settles it first.
  struct PendingText {
    Identity key;
    std::string text;
  };

  // The logged result's digests; its loose ones are a form's when a form
  // sent has the same text.
  void make_digests(const Identity& key, LoggedResult& logged, std::string_view text) {
    logged.made = true;
    logged.said.exact = sha256(text);
    const SaidDigests* sent = sent_form(key, logged.said.exact);
    logged.said.loose = sent ? sent->loose : sha256(loose_text(text));
    if (!holds(text, "<system-reminder>")) {
      logged.unreminded = logged.said.loose;
      return;
    }
    logged.unreminded = sha256(loose_text(without_reminders(text)));
    logged.reminders = reminder_blocks_in(text, LoggedResult::kMaxReminders, &logged.reminders_over);
  }

  void wait(const Identity& key, std::string_view text) {
    pending_.push_back({key, std::string(text)});
    pending_bytes_ += text.size();
    while (pending_bytes_ > kPendingBytes || pending_.size() > kPendingTexts) resolve_oldest();
  }

  void resolve_oldest() {
    PendingText& oldest = pending_.front();
    make_digests(oldest.key, logged_texts_.at(oldest.key), oldest.text);
    pending_bytes_ -= oldest.text.size();
    pending_.pop_front();
  }

  // True, and the text no longer waits, when the logged result of `key`
  // waits and is `text`.
  bool take_pending(const Identity& key, std::string_view text) {
    auto it = std::find_if(pending_.begin(), pending_.end(), [&](const PendingText& p) { return p.key == key; });
    if (it == pending_.end() || it->text != text) return false;
    pending_bytes_ -= it->text.size();
    pending_.erase(it);
    return true;
  }

  // The form sent for call `key` whose exact digest is `exact`, or null.
  const SaidDigests* sent_form(const Identity& key, const Digest& exact) const {
    auto sent = sent_results_.find(key);
    if (sent == sent_results_.end()) return nullptr;
    for (const SaidDigests& form : sent->second.forms) {
      if (form.exact == exact) return &form;
    }
    return nullptr;
  }

  // Claude Code's structured copy of a result (toolUseResult) against the
  // result logged beside it, which the rest of this check holds to what
  // the model was sent. A copy whose text the result does not hold says
  // what the tool returned otherwise than the model was told, and so does
  // a file's content as read that holds less than its result (Read sends
  // every line it read); a result Claude Code shortened for the model (its
  // marker where it cut, after the copy's head; a persisted output's
  // preview; Read's cut of a line over 2000 characters, the rest of the
  // copy found as it is) cannot hold it whole, so it is only listed.
  void result_copy(const NativeInfo& n, uint64_t seq) {
    const std::string& logged = n.result_texts.front();
    bool differs = false, unsure = false;
    for (const ResultCopy& copy : n.result_copies) {
      const bool within = copy_within(copy.text, logged, copy.numbered);
      if (within && (!copy.numbered || !copy.certain || copy_is_whole(copy.text, logged))) continue;
      // Read cut the copy's long lines for the model: the rest of each is
      // there (listed: the cut part crossed no wire).
      if (copy.numbered && copy_within_cut_lines(copy.text, logged)) {
        unsure = true;
        continue;
      }
      (copy.certain && !shows_cut_of(logged, copy.text) ? differs : unsure) = true;
    }
    if (differs) {
      copy_differs_.emplace_back(identity(n.results.front()), seq);
    } else if (unsure) {
      copy_unsure_.add(seq);
    }
  }

  // An answer's text the recorder stored redacted, kept (within
  // kMaxKeptBytes) to match the log's text, which keeps the secret.
  int64_t keep_redacted_answer(std::string_view text, uint64_t seq) {
    if (!redacted_here(text) || kept_bytes_ + text.size() > kMaxKeptBytes) return -1;
    kept_bytes_ += text.size();
    redacted_answers_.emplace_back(seq, std::string(text));
    return static_cast<int64_t>(redacted_answers_.size() - 1);
  }

  // A logged text kept within kMaxKeptBytes (for redacted wire forms).
  std::optional<std::string> kept_text(std::string_view text) {
    if (kept_bytes_ + text.size() > kMaxKeptBytes) return std::nullopt;
    kept_bytes_ += text.size();
    return std::string(text);
  }

  // A call's input as compared with redaction markers: JSON minified (the
  // stream spaces it, the log does not), other text as it is.
  static std::string canonical_input(std::string_view input, StrictJsonParser& parser) {
    auto root = parser.parse_copy(input, 0);
    return root ? simdjson::minify(*root) : std::string(input);
  }

  using RedactedMatch = RedactionComparer::Match;

  // The wire answer (its seq) whose redacted text matches `logged`. Every
  // logged text against every redacted answer: bounded (comparer_), and a
  // text left uncompared is said (uncompared_), never judged changed.
  std::pair<RedactedMatch, uint64_t> redacted_answer_of(const std::optional<std::string>& logged) {
    if (!logged) return {RedactedMatch::no, 0};
    for (const auto& [seq, sent] : redacted_answers_) {
      const RedactedMatch match = comparer_.compare(sent, *logged);
      if (match != RedactedMatch::no) return {match, seq};
    }
    return {RedactedMatch::no, 0};
  }

  void claude_messages(Context& ctx) {
    for (auto& [key, m] : native_by_id_) {
      const std::string& id = m.id;
      auto it = wire_by_id_.find(key);
      if (it == wire_by_id_.end() && earlier_history(m, ctx)) continue;  // GC05 lists it
      if (it == wire_by_id_.end()) {
        ctx.emit(finding("GC04", Severity::high, m.seqs,
                         "The harness logged assistant message " + id + " but no wire response carries that id: "
                         "model output that never crossed the proxy."),
                 "no-wire:" + id);
        continue;
      }
      it->second.logged = true;
      // Claude Code logs the model the response names: another model in
      // the log claims the answer came from a model that did not give it.
      if (m.mixed_models || (m.model && it->second.model_id && *m.model != *it->second.model_id)) {
        std::vector<uint64_t> seqs = m.seqs;
        seqs.push_back(it->second.seq);
        ctx.emit(finding("GC04", Severity::high, seqs,
                         "The harness logged answer " + id + " as from model " + m.model_name + ", but its wire "
                         "response at seq " + std::to_string(it->second.seq) + " names another model."),
                 "model-differs:" + id);
      }
      thinking_of(m, it->second, ctx);
      // Claude Code logs every text block of an answer (one line each): an
      // answer logged by its tool calls alone lost the model's words.
      if (!m.has_text && it->second.has_text && it->second.finished) {
        std::vector<uint64_t> seqs = m.seqs;
        seqs.push_back(it->second.seq);
        ctx.emit(finding("GC04", Severity::high, seqs,
                         "The harness logged answer " + id + " without the text its wire stream at seq " +
                             std::to_string(it->second.seq) + " carries: the model's words were taken out of the log."),
                 "text-not-logged:" + id);
        continue;
      }
      if (m.has_text && m.text->finish() != it->second.text) {
        if (logged_past_cap(m.kept, m.seqs.front())) continue;
        const int64_t r = it->second.redacted;
        if (r >= 0 && m.kept && matches_with_redactions(redacted_answers_[static_cast<size_t>(r)].second, *m.kept)) {
          redacted_texts_.add(m.seqs.front());
          continue;
        }
        std::vector<uint64_t> seqs = m.seqs;
        seqs.push_back(it->second.seq);
        ctx.emit(finding("GC04", Severity::high, seqs,
                         "The text the harness logged for " + id + " differs from the text rebuilt from its wire "
                         "stream at seq " + std::to_string(it->second.seq) + "."),
                 "text-differs:" + id);
      }
    }
  }

  // Every line of the answer is history a resumed session copied from an
  // earlier run, which this run re-sent (resumed_history.h).
  static bool earlier_history(const NativeMessage& m, const Context& ctx) {
    return m.seqs.size() < kMaxSeqs && std::all_of(m.seqs.begin(), m.seqs.end(), [&](uint64_t seq) {
             return ctx.resumed_history().holds(seq);
           });
  }

  // An answer's thinking as logged against its thinking as streamed. An
  // answer logged without the thinking it streamed is a warning: the
  // model's reasoning is missing, but no release is known to log it always.
  void thinking_of(NativeMessage& m, const WireAnswer& w, Context& ctx) {
    if (!m.has_thinking) {
      if (w.has_thinking && w.finished) missing_thinking_.add(w.seq);
      return;
    }
    if (m.thinking->finish() == w.thinking) return;
    const int64_t r = w.redacted_thinking;
    if (r >= 0 && m.kept_thinking && matches_with_redactions(redacted_answers_[static_cast<size_t>(r)].second, *m.kept_thinking)) {
      redacted_texts_.add(m.seqs.front());
      return;
    }
    std::vector<uint64_t> seqs = m.seqs;
    seqs.push_back(w.seq);
    ctx.emit(finding("GC04", Severity::high, seqs,
                     "The thinking the harness logged for " + m.id + " differs from the thinking streamed at seq " +
                         std::to_string(w.seq) + ": the model's reasoning was changed in the log."),
             "thinking-differs:" + m.id);
  }

  // A line Claude Code writes itself (model <synthetic>) gets an id of its
  // own; one that carries the id of a real wire answer relabels it.
  void synthetic_ids(Context& ctx) {
    for (const auto& [key, seq] : synthetic_ids_) {
      auto it = wire_by_id_.find(key);
      if (it == wire_by_id_.end()) continue;
      ctx.emit(finding("GC04", Severity::high, {seq, it->second.seq},
                       "A line of model <synthetic> (which Claude Code writes itself) carries the id of the answer "
                       "streamed at seq " + std::to_string(it->second.seq) + ": a model answer relabelled as the "
                       "harness's own, so that what it says is not compared."),
               "synthetic-id:" + std::to_string(seq));
    }
  }

  // Codex: each message item of a finished answer the log shows (by another
  // item: a call, another message) must be logged too. Codex logs each item
  // once: a text the model said in two answers is logged twice, so each
  // logged copy stands for one streamed item (one left out shows).
  void codex_items(Context& ctx) {
    absl::flat_hash_map<Digest, uint64_t> logged;
    for (const LoggedAnswer& t : codex_texts_) ++logged[t.digest];
    for (const auto& [seq, digest] : wire_items_) {
      if (!matched_answers_.contains(seq)) continue;
      auto copies = logged.find(digest);
      if (copies != logged.end() && copies->second > 0) {
        --copies->second;
        continue;
      }
      ctx.emit(finding("GC04", Severity::high, {seq},
                       "The answer streamed at seq " + std::to_string(seq) + " is logged, but one of its messages "
                       "is not: the model's words were taken out of the log."),
               "codex-message-not-logged:" + to_hex(digest));
    }
  }

  // Codex logs the model of each turn (turn_context) as its requests name
  // it; one that no Responses request of the run named says another model
  // answered than did. A warning: no release is shown yet to send the
  // model always as it logs it (a provider's deployment name may differ).
  void codex_turn_models(Context& ctx) {
    if (request_models_.empty()) return;
    SeqList unsent;
    std::string name;
    for (const TurnModel& t : turn_models_) {
      if (request_models_.contains(t.model)) continue;
      if (name.empty()) name = t.name;
      unsent.add(t.seq);
    }
    emit_counted(ctx, "GC04", Severity::warning, unsent,
                 "Codex turn_context line(s) name a model (" + name + ") that no request of the run named: the "
                 "log says another model answered than the wire shows.",
                 "codex-turn-model");
  }

  // Codex reasoning: each logged summary against the reasoning streamed,
  // each item's raw reasoning (content) against one item's content as
  // streamed, its parts in order (red-team 20b #7: parts dropped, swapped
  // or taken from another item), and each agent_reasoning event against
  // the parts of a summary that matched (or a whole streamed one).
  void codex_reasoning(Context& ctx) {
    absl::flat_hash_set<Digest> parts, history_parts;
    const ResumedHistory& history = ctx.resumed_history();
    for (const LoggedReasoning& l : logged_reasoning_) {
      bool sent = wire_reasoning_.contains(l.joined) || (l.raw && wire_raw_reasoning_.contains(l.joined));
      // History an earlier run wrote, which `codex resume` re-sent.
      if (!sent && history.holds(l.seq)) {
        history_parts.insert(l.parts.begin(), l.parts.end());
        continue;
      }
      if (!sent && l.text) {
        const RedactedMatch match = comparer_.first_match(redacted_reasoning_, *l.text).first;
        if (match == RedactedMatch::not_compared) uncompared_.add(l.seq);
        if (match != RedactedMatch::no) {
          if (match == RedactedMatch::yes) redacted_texts_.add(l.seq);
          continue;
        }
      }
      if (sent) {
        parts.insert(l.parts.begin(), l.parts.end());
        continue;
      }
      ctx.emit(finding("GC04", Severity::high, {l.seq},
                       std::string("Codex logged a reasoning ") + (l.raw ? "item's raw reasoning (content)" : "summary") +
                           " that matches no reasoning streamed on the wire: the model's reasoning was changed in the log."),
               "codex-reasoning-unmatched:" + to_hex(l.joined));
    }
    for (const LoggedAnswer& e : event_reasoning_) {
      if (parts.contains(e.digest) || wire_reasoning_.contains(e.digest) || wire_reasoning_parts_.contains(e.digest)) {
        continue;
      }
      // The earlier run's event repeating a part of that history.
      if (e.seq < history.request_seq() && history_parts.contains(e.digest)) continue;
      const RedactedMatch match = e.text ? comparer_.first_match(redacted_reasoning_, *e.text).first : RedactedMatch::no;
      if (match != RedactedMatch::no) {
        (match == RedactedMatch::yes ? redacted_texts_ : uncompared_).add(e.seq);
        continue;
      }
      ctx.emit(finding("GC04", Severity::high, {e.seq},
                       "Codex logged an agent_reasoning (or agent_reasoning_raw_content) event whose text is in no "
                       "reasoning streamed on the wire."),
               "codex-event-reasoning-unmatched:" + to_hex(e.digest));
    }
  }

  // Claude Code: each provider-run tool's result an answer's line holds
  // against the one its stream carried (what a web search, web fetch or
  // code execution gave the model); a streamed result of an answer the
  // log shows that the log leaves out is a warning (no release of Claude
  // Code is known to log them, or not to).
  void server_results(Context& ctx) {
    absl::flat_hash_set<Identity> logged;
    for (const LoggedServerResult& l : logged_server_results_) {
      logged.insert(l.key);
      auto it = wire_server_results_.find(l.key);
      if (it != wire_server_results_.end() && it->second.content == l.content) continue;
      // The recorder redacted a secret in what was streamed; the log keeps it.
      const auto& sent = it == wire_server_results_.end() ? std::nullopt : it->second.redacted;
      if (sent && l.text && matches_with_redactions(*sent, *l.text)) {
        redacted_texts_.add(l.seq);
        continue;
      }
      if (it == wire_server_results_.end() && ctx.resumed_history().holds(l.seq)) continue;  // GC05 lists its line
      if (it == wire_server_results_.end()) {
        ctx.emit(finding("GC04", Severity::high, {l.seq},
                         "The harness logged the result of provider-run tool call " + l.id + " (a web search, fetch "
                         "or code execution), but no wire answer streamed a result for that call."),
                 "server-result-not-sent:" + l.id);
        continue;
      }
      ctx.emit(finding("GC04", Severity::high, {l.seq, it->second.seq},
                       "The result of provider-run tool call " + l.id + " as the harness logged it differs from the "
                       "result streamed at seq " + std::to_string(it->second.seq) + ": what the search, fetch or code "
                       "execution gave the model was changed in the log."),
               "server-result-differs:" + l.id);
    }
    SeqList unlogged;
    for (const auto& [key, w] : wire_server_results_) {
      auto answer = wire_by_id_.find(w.answer);
      if (!logged.contains(key) && answer != wire_by_id_.end() && answer->second.logged) unlogged.add(w.seq);
    }
    emit_counted(ctx, "GC04", Severity::warning, unlogged,
                 "answer(s) the harness logged streamed the result of a provider-run tool (web search, fetch, code "
                 "execution) that the log leaves out.",
                 "server-result-not-logged");
  }

  // What the log copies of what the provider streamed (citations, the data
  // of redacted thinking, a web search's sources) must be a copy of
  // something streamed: what the model cited or searched, or its encrypted
  // reasoning, rewritten in the log is an edit. Compared as
  // values, null members apart (a serializer may drop them). A copy the
  // log leaves out is not judged: Claude Code is not known to log every
  // citation it was streamed.
  void provider_copies(Context& ctx) {
    for (const LoggedCopy& l : logged_copies_) {
      if (wire_copies_.contains(l.value) || ctx.resumed_history().holds(l.seq)) continue;
      if (l.text) {
        const RedactedMatch match = comparer_.first_match(redacted_copies_, *l.text).first;
        if (match != RedactedMatch::no) {
          (match == RedactedMatch::yes ? redacted_texts_ : uncompared_).add(l.seq);
          continue;
        }
      }
      const auto [what, key] = copy_words(l.kind);
      ctx.emit(finding("GC04", Severity::high, {l.seq},
                       std::string("The harness logged ") + what + " that no answer streamed on the wire: it was changed "
                       "in the log."),
               std::string(key) + to_hex(l.value));
    }
  }

  // A copy's kind in a finding's words, and its key's prefix.
  static std::pair<const char*, const char*> copy_words(ProviderCopy::Kind kind) {
    switch (kind) {
      case ProviderCopy::Kind::citation:
        return {"a citation (what a source the model cited says, and where)", "citation-unmatched:"};
      case ProviderCopy::Kind::redacted_thinking:
        return {"a redacted_thinking block's data (the model's encrypted reasoning)", "redacted-thinking-unmatched:"};
      case ProviderCopy::Kind::search_source:
        return {"a web search's source (what the search consulted)", "search-source-unmatched:"};
      case ProviderCopy::Kind::code_interpreter:
        return {"a code interpreter call (the code the provider ran, and what it printed)", "code-interpreter-unmatched:"};
    }
    return {"a copy of what the provider streamed", "copy-unmatched:"};
  }

  // Codex: each web search the log shows (a web_search_call item, logged
  // without its id) asked what a streamed one asked: its query, or the page
  // it opened or searched in.
  // The strings of the web searches that are history `codex resume`
  // re-sent (resumed_history.h), and the ways Codex words them for its
  // web_search_end events (search_details(): a string, the first of
  // several followed by " ...", all joined by ", ").
  absl::flat_hash_set<Digest> history_searches(const Context& ctx) const {
    absl::flat_hash_set<Digest> out;
    std::string first, joined;
    auto add_forms = [&] {
      if (!joined.empty() && joined != first) {
        out.insert(sha256(first + " ..."));
        out.insert(sha256(joined));
      }
      first.clear();
      joined.clear();
    };
    uint64_t line = 0;
    for (const auto& [seq, said] : logged_searched_) {
      if (seq != line) add_forms();
      line = seq;
      if (!ctx.resumed_history().holds(seq)) continue;
      out.insert(said);
      const auto text = searched_texts_.find(seq);
      if (text == searched_texts_.end()) continue;
      for (const std::string& s : text->second) {
        if (first.empty()) first = s;
        joined += (joined.empty() ? "" : ", ") + s;
      }
    }
    add_forms();
    return out;
  }

  void searches(Context& ctx) {
    const ResumedHistory& history = ctx.resumed_history();
    const absl::flat_hash_set<Digest> resent = history_searches(ctx);
    for (const auto& [seq, said] : logged_searched_) {
      if (wire_searched_.contains(said)) continue;
      // History `codex resume` re-sent, or the earlier run's event repeating it.
      if (history.holds(seq) || (seq < history.request_seq() && resent.contains(said))) continue;
      ctx.emit(finding("GC04", Severity::high, {seq},
                       "Codex logged a web search (web_search_call) whose query or page no search streamed on the "
                       "wire asked for: what the model searched was changed in the log."),
               "search-unmatched:" + to_hex(said));
    }
    // A web_search_end event repeats the search in Codex's words: it must
    // word a search streamed (web_search_action_detail in Codex's source).
    for (const auto& [seq, detail] : logged_search_details_) {
      if (wire_search_details_.contains(detail)) continue;
      if (seq < history.request_seq() && resent.contains(detail)) continue;
      ctx.emit(finding("GC04", Severity::high, {seq},
                       "Codex logged a web_search_end event whose query words no search streamed on the wire: what "
                       "the model searched was changed in the log."),
               "search-event-unmatched:" + to_hex(detail));
    }
  }

  // Unified exec's polls (write_stdin calls whose output was logged) by the
  // session they name, in the order of their calls.
  absl::flat_hash_map<uint64_t, std::vector<std::pair<uint64_t, Identity>>> session_polls(Identity poll) const {
    absl::flat_hash_map<uint64_t, std::vector<std::pair<uint64_t, Identity>>> polls;
    for (const auto& [key, call] : logged_calls_) {
      if (call.name != poll || !call.input_text || !codex_outputs_.contains(key)) continue;
      if (auto session = polled_session_of(*call.input_text)) polls[*session].emplace_back(call.seq, key);
    }
    for (auto& [session, list] : polls) std::sort(list.begin(), list.end());
    return polls;
  }

  // A unified-exec command whose first output says its process goes on
  // (session N), and whose end event says other than the polls of that
  // session that followed, up to the one stating the exit (red-team 19b
  // #08): another exit code, or a line (in order) that no output of the
  // session printed. Where an output was cut, only the exit code counts.
  enum class SessionMatch { unknown, held, contradicts };
  SessionMatch session_match(const EventOutput& e, uint64_t call_seq, std::string_view first,
                             const absl::flat_hash_map<uint64_t, std::vector<std::pair<uint64_t, Identity>>>& polls,
                             uint64_t& budget) const {
    const std::optional<uint64_t> session = running_session_of(first);
    auto list = session ? polls.find(*session) : polls.end();
    if (list == polls.end()) return SessionMatch::unknown;
    std::string printed(unified_body(first));
    std::optional<int64_t> exited;
    bool cut = looks_cut(first);
    const auto& calls = list->second;
    for (auto it = std::upper_bound(calls.begin(), calls.end(), std::pair{call_seq, Identity{}},
                                    [](const auto& a, const auto& b) { return a.first < b.first; });
         it != calls.end(); ++it) {
      const std::string_view output = codex_outputs_.find(it->second)->second;
      // A crafted log of many commands in one long session would join its
      // polls again and again: past the budget, the session is not joined.
      if (output.size() > budget) return SessionMatch::unknown;
      budget -= output.size();
      printed += unified_body(output);
      cut |= looks_cut(output);
      if ((exited = stated_exit_code(output, std::nullopt))) break;
    }
    if (!exited) return SessionMatch::unknown;
    if (e.exit_code && *e.exit_code != *exited) return SessionMatch::contradicts;
    if (cut) return SessionMatch::unknown;
    const bool held = lines_in_order(e.text, printed) &&
                      std::all_of(e.also.begin(), e.also.end(), [&](const std::string& t) { return lines_in_order(t, printed); });
    return held ? SessionMatch::held : SessionMatch::contradicts;
  }

  // Whether each line of `text` is in `printed`, in order (one pass).
  static bool lines_in_order(std::string_view text, std::string_view printed) {
    size_t at = 0;
    for (size_t from = 0; from < text.size();) {
      const size_t end = std::min(text.find('\n', from), text.size());
      const std::string_view line = trimmed_text(text.substr(from, end - from));
      from = end + 1;
      if (line.empty()) continue;
      // memmem: linear, where find() may go back over a crafted line.
      const void* found = ::memmem(printed.data() + at, printed.size() - at, line.data(), line.size());
      if (found == nullptr) return false;
      at = static_cast<size_t>(static_cast<const char*>(found) - printed.data()) + line.size();
    }
    return true;
  }

  // Unified exec's output as sent: what the process printed, under the
  // header.
  static std::string_view unified_body(std::string_view output) {
    const size_t at = output.find("Output:\n");
    return at == std::string_view::npos ? std::string_view() : output.substr(at + 8);
  }

  // Unified exec's process may go on past its first output, and its end
  // event then holds what it printed later. An output logged that states
  // the exit code ("Process exited with code N") was the whole run: the
  // event's exit code must be that one, and it may only leave lines out
  // (Codex's copy of the output drops what its reader fell behind on), not
  // hold a line the output does not.
  bool unified_strict(Identity call, OutputMatch m) const {
    auto logged = codex_outputs_.find(call);
    return m == OutputMatch::differs && logged != codex_outputs_.end() &&
           stated_exit_code(logged->second, std::nullopt).has_value();
  }

  // Codex writes its command, patch and MCP events for calls the model
  // made (or for a command the user ran in its own shell, not read as a
  // call): an event naming a call that neither the log nor the wire holds
  // says a tool ran that never did (red-team 19b #01).
  void event_calls(Context& ctx) {
    for (const LoggedEventCall& e : event_calls_) {
      if (logged_calls_.contains(e.call) || wire_calls_.contains(e.call) || event_call_aliases_.contains(e.call) ||
          ctx.resumed_history().holds(e.seq)) {
        continue;
      }
      ctx.emit(finding("GC04", Severity::high, {e.seq},
                       "Codex logged an event (exec_command, patch_apply or mcp_tool_call, or an item_completed item) "
                       "for call " + e.id + ", which no call of the log or the wire made: the log says a tool ran "
                       "that never did."),
               "event-call-unknown:" + std::to_string(e.seq));
    }
  }

  // Codex events that say what a call ran (its command) or changed (a
  // patch's files and lines), which viewers draw beside its output: each
  // must be named by the call's arguments, which the rest of this check
  // holds to the wire. Words are compared (Codex quotes and joins the argv
  // anew, wraps it in a shell, applies a patch loosely), so a rewording
  // passes; another command, file or changed line is high.
  void event_actions(Context& ctx) {
    // Each call's words read once (a crafted log of many events would
    // otherwise read one long input again and again).
    absl::flat_hash_map<Identity, CallWords> words;
    for (const LoggedAction& e : event_actions_) {
      auto call = logged_calls_.find(e.call);
      if (call == logged_calls_.end() || !call->second.input_text) continue;
      auto [held, added] = words.try_emplace(e.call);
      if (added) held->second = CallWords::of(*call->second.input_text, ctx.body_parser());
      const std::string unheld = action_unheld(e.action, held->second);
      if (unheld.empty()) continue;
      ctx.emit(finding("GC04", Severity::high, {e.seq, call->second.seq},
                       "Codex logged an event (exec_command_begin/end, patch_apply_begin/end, or an item_completed "
                       "CommandExecution or FileChange) naming " + clip_text(unheld) + ", which the call it belongs to (seq " +
                           std::to_string(call->second.seq) +
                           ") does not hold: the log's account of what was run or changed was changed."),
               "event-action-differs:" + std::to_string(e.seq));
    }
  }

  // Codex events that repeat a tool's output (exec_command_end,
  // patch_apply_end, mcp_tool_call_end, and Codex 0.149's item_completed
  // items in their place) against the output logged for the call, which
  // the rest of this check holds to what the model was sent. Only a
  // command's end event is held to it strictly, and unified exec's only
  // where its output states the exit (unified_strict); a cut on either side
  // leaves only the first and last lines to compare, and a difference there
  // is a warning.
  void event_outputs(Context& ctx) {
    static const Identity kUnified = identity("exec_command"), kPoll = identity("write_stdin");
    const absl::flat_hash_map<uint64_t, std::vector<std::pair<uint64_t, Identity>>> polls = session_polls(kPoll);
    uint64_t session_budget = kMaxEventBytes;  // bytes of polls joined, in all
    uint64_t gather_budget = kMaxEventBytes * 4;  // steps of streams_gathered, in all
    absl::flat_hash_map<Identity, size_t> compared;  // per call: events compared (kMaxEventsPerCall)
    SeqList loose, cut, unsure;
    for (const LoggedEventOutput& e : event_outputs_) {
      auto logged = codex_outputs_.find(e.call);
      if (logged == codex_outputs_.end()) {
        if (outputs_dropped_.contains(e.call)) uncompared_events_.add(e.seq);
        continue;
      }
      // Codex writes one end event a call; a crafted log of many would
      // compare one long output again and again.
      if (++compared[e.call] > kMaxEventsPerCall) {
        uncompared_events_.add(e.seq);
        continue;
      }
      auto call = logged_calls_.find(e.call);
      const bool unified = call != logged_calls_.end() && (call->second.name == kUnified || call->second.name == kPoll);
      // Each event is judged on its own: an honest one excuses no other
      // (red-team 19b #24).
      const OutputMatch m = event_output_match(e.out, logged->second, ctx.body_parser(), gather_budget);
      // Unified exec: held to all its session's outputs where they show the whole run.
      const SessionMatch session =
          unified ? session_match(e.out, call->second.seq, logged->second, polls, session_budget) : SessionMatch::unknown;
      const bool contradicts = e.out.status_contradicts || event_contradicts(e.out, logged->second, ctx.body_parser()) ||
                               session == SessionMatch::contradicts;
      ctx.body_parser().release_if_large(logged->second.size());
      if ((m == OutputMatch::same || session == SessionMatch::held) && !contradicts) continue;
      if (!contradicts && (m == OutputMatch::loose || m == OutputMatch::cut)) {
        (m == OutputMatch::loose ? loose : cut).add(e.seq);
        continue;
      }
      const auto sent = sent_results_.find(e.call);
      if (sent == sent_results_.end() ||
          (!contradicts && (m == OutputMatch::cut_differs || !e.out.certain || (unified && !unified_strict(e.call, m))))) {
        unsure.add(e.seq);
        continue;
      }
      ctx.emit(finding("GC04", Severity::high, {e.seq, sent->second.seq},
                       "Codex logged an event (exec_command_end, patch_apply_end, mcp_tool_call_end, or an item_completed "
                       "item) whose output (or stdout, stderr), exit code or status does not match the output logged for its call and sent "
                       "the model (request at seq " +
                           std::to_string(sent->second.seq) +
                           "): the log's account of what the command returned was changed."),
               "event-output-differs:" + std::to_string(e.seq));
    }
    emit_counted(ctx, "GC04", Severity::info, loose,
                 "Codex event(s) repeat a tool's output differing from the output logged only in white space or "
                 "Unicode normalization.",
                 "event-output-loose");
    emit_counted(ctx, "GC04", Severity::info, cut,
                 "Codex event(s) repeat a tool's output that one side cut down (a truncation marker); the first "
                 "and last lines match the output logged.",
                 "event-output-cut");
    emit_counted(ctx, "GC04", Severity::warning, unsure,
                 "Codex event(s) (exec_command_end, patch_apply_end, mcp_tool_call_end, or item_completed items) say a tool returned other "
                 "than the output logged for its call, where Codex may word or cut them apart (a cut output, "
                 "unified exec, a patch or MCP result, or an output never sent): read both.",
                 "event-output-unsure");
    emit_counted(ctx, "GC04", Severity::warning, uncompared_events_,
                 "Codex event(s) repeating a tool's output were not compared with the output logged (" +
                     std::to_string(kMaxEventBytes >> 20) + " MiB kept for them): not judged.",
                 "event-output-not-compared");
  }

  // Claude Code: each user text a request sent with an answer the log
  // shows must be in the log, on a line of any kind or flag: a prompt the
  // log replaced (whatever it put in its place) is missing there. Local
  // command and bash-mode records, which the harness may word apart from
  // its log, are a warning.
  void carried_prompts_logged(Context& ctx) {
    absl::flat_hash_set<uint64_t> logged_answers = matched_answers_;
    for (const auto& [id, w] : wire_by_id_) {
      if (w.logged) logged_answers.insert(w.seq);
    }
    auto answered = [&](const WirePrompt& p) {
      return std::any_of(p.carriers.begin(), p.carriers.end(), [&](const auto& exchange) {
        auto it = answer_of_exchange_.find(exchange);
        return it != answer_of_exchange_.end() && logged_answers.contains(it->second);
      });
    };
    SeqList records, redacted, codex_missing;
    std::vector<uint64_t> missing;
    const size_t first_compaction = first_real_compaction();
    const absl::flat_hash_set<uint64_t> summarising = summarising_answers();
    absl::flat_hash_set<Digest> bridge_texts;
    for (const CodexCompaction& c : codex_compactions_) {
      if (c.sent && c.summary_text) bridge_texts.insert(sha256(loose_text(*c.summary_text)));
    }
    auto asks_for_summary_only = [&](const WirePrompt& p) {
      return p.codex && !p.carriers.empty() && std::all_of(p.carriers.begin(), p.carriers.end(), [&](const auto& exchange) {
        auto it = answer_of_exchange_.find(exchange);
        return it != answer_of_exchange_.end() && summarising.contains(it->second);
      });
    };
    for (const auto& entry : wire_prompts_sent_) {
      const WirePrompt& p = entry.second;
      if (logged_user_texts_.contains(p.loose) || !answered(p)) continue;
      // After a compaction Codex sends texts it rebuilt from its summary
      // (before the summary it sends back; a prompt after it is new).
      if (p.codex && first_compaction < p.compactions_before && !p.after_bridge) continue;
      // Codex's own instruction to summarise, sent only with the request
      // whose answer became a compaction's summary; it logs none.
      if (asks_for_summary_only(p)) continue;
      // The summary sent back (the bridge) is the `compacted` line's text.
      if (p.codex && bridge_texts.contains(p.loose)) continue;
      if (p.redacted) {
        RedactedMatch match = RedactedMatch::no;
        for (size_t i = 0; i < kept_user_texts_.size() && match == RedactedMatch::no; ++i) {
          match = comparer_.compare(*p.redacted, kept_user_texts_[i]);
        }
        // A log text that was not kept could be the one it stands for.
        if (match == RedactedMatch::no && user_texts_dropped_) match = RedactedMatch::not_compared;
        if (match != RedactedMatch::no) {
          (match == RedactedMatch::yes ? redacted : uncompared_).add(p.seq);
          continue;
        }
      }
      if (p.harness_record) records.add(p.seq);
      else if (p.codex) codex_missing.add(p.seq);
      else missing.push_back(p.seq);
    }
    std::sort(missing.begin(), missing.end());
    for (uint64_t seq : missing) {
      ctx.emit(finding("GC04", Severity::high, {seq},
                       "A request (seq " + std::to_string(seq) + ") sent the model a user prompt that the harness "
                       "log does not show, on any line, though it shows the answer: what the user asked was "
                       "replaced or removed in the log."),
               "prompt-not-logged:" + std::to_string(seq));
    }
    emit_counted(ctx, "GC04", Severity::warning, records,
                 "request(s) sent the model a local command or bash-mode record (<command-...>, <bash-...>) the "
                 "harness log does not show as sent: Claude Code may word these apart from its log, or the log "
                 "changed them.",
                 "prompt-record-not-logged");
    // A warning, not high: no real Codex request has been compared with
    // its rollout yet to show that Codex logs every user text it sends.
    emit_counted(ctx, "GC04", Severity::warning, codex_missing,
                 "Codex request(s) sent the model a user text that the rollout does not show, on any line, though it "
                 "shows the answer (and no compaction the wire shows came before): a prompt removed from the log?",
                 "codex-prompt-not-logged");
    emit_counted(ctx, "GC04", Severity::info, redacted,
                 "user text(s) sent the model match the log once the recorder's [REDACTED:...] markers stand for "
                 "the secrets the log keeps.",
                 "prompt-sent-redacted");
  }

  // Local compaction: Codex sends the summary a `compacted` line holds
  // inside a user message of its own (after a fixed preamble).
  void note_bridge(std::string_view said) {
    for (CodexCompaction& c : codex_compactions_) {
      if (!c.sent && c.summary_text && holds(said, *c.summary_text)) c.sent = true;
    }
  }

  // A Codex `compacted` line recorded after the request that sent its
  // summary back (a recorder that reads the rollout late, or at the end)
  // was not seen by note_bridge(): any request's user text that is the
  // line's text, as sent, shows it all the same.
  void settle_codex_bridges() {
    for (CodexCompaction& c : codex_compactions_) {
      if (!c.sent && c.summary_text && wire_prompts_loose_.contains(sha256(loose_text(*c.summary_text)))) c.sent = true;
    }
  }

  // The answers (logged or not) that a Codex `compacted` line holds as its
  // summary, streamed before it, of compactions a later request shows by
  // sending that summary back (c.sent): Codex 0.17x logs the summarising
  // answer as a message item too, before the `compacted` line.
  absl::flat_hash_set<uint64_t> summarising_answers() const {
    absl::flat_hash_set<uint64_t> out;
    for (const CodexCompaction& c : codex_compactions_) {
      if (!c.sent || !c.summary_text) continue;
      const std::optional<std::string_view> answer = codex_summary_answer(*c.summary_text);
      if (answer && answer->empty()) continue;
      const auto it = wire_by_text_.find(answer ? sha256(*answer) : c.summary);
      if (it != wire_by_text_.end() && it->second < c.seq) out.insert(it->second);
    }
    return out;
  }

  // The answers streamed that no line logs: trimmed text -> first seq.
  absl::flat_hash_map<Digest, uint64_t> unlogged_answers() const {
    absl::flat_hash_map<Digest, uint64_t> unlogged;
    for (const auto& [id, w] : wire_by_id_) {
      if (w.logged || matched_answers_.contains(w.seq)) continue;
      auto [it, added] = unlogged.try_emplace(w.trimmed_text, w.seq);
      if (!added) it->second = std::min(it->second, w.seq);
    }
    return unlogged;
  }

  // The summarising answer a Codex `compacted` line's summary is (its seq):
  // one streamed before the line that no line logs, whose text is the
  // summary, or the summary past Codex's prefix (codex_summary_answer()).
  std::optional<uint64_t> compaction_answer(size_t index, const absl::flat_hash_map<Digest, uint64_t>& unlogged) const {
    const auto& c = codex_compactions_[index];
    if (!c.summary_text) return std::nullopt;
    const std::optional<std::string_view> answer = codex_summary_answer(*c.summary_text);
    if (answer && answer->empty()) return std::nullopt;  // Codex's prefix alone (c.empty)
    const auto it = unlogged.find(answer ? sha256(*answer) : c.summary);
    if (it == unlogged.end() || it->second >= c.seq) return std::nullopt;
    return it->second;
  }

  // Whether the wire shows a Codex `compacted` line was a compaction: a
  // later request sent its summary, or its summary is the summarising
  // answer (compaction_answer), or the history it holds went with a
  // compaction item in a later request.
  bool compaction_shown(size_t index, const absl::flat_hash_map<Digest, uint64_t>& unlogged) const {
    const auto& c = codex_compactions_[index];
    if (c.sent || (c.replaced_history && compaction_item_sent_)) return true;
    return compaction_answer(index, unlogged).has_value();
  }

  // The first Codex `compacted` line the wire shows was a compaction (its
  // index; past the end when none). A `compacted` line alone, which a
  // cheater can write, excuses nothing.
  size_t first_real_compaction() const {
    const absl::flat_hash_map<Digest, uint64_t> unlogged = unlogged_answers();
    for (size_t i = 0; i < codex_compactions_.size(); ++i) {
      if (compaction_shown(i, unlogged)) return i;
    }
    return codex_compactions_.size();
  }

  // A Codex `compacted` line's summary is the model's words: one the wire
  // does not show was streamed or sent (red-team 19b #16) was written into
  // the log. Where the recorder redacted what it stored, or the summary
  // was past what this check keeps, it may be one it cannot see: unsure.
  void codex_compaction_summaries(Context& ctx) {
    const absl::flat_hash_map<Digest, uint64_t> unlogged = unlogged_answers();
    SeqList unsure;
    for (size_t i = 0; i < codex_compactions_.size(); ++i) {
      const auto& c = codex_compactions_[i];
      // The summarising answer is logged, in the line (unlogged()).
      if (const auto answer = compaction_answer(i, unlogged); answer && summary_answers_.size() < kMaxTracked) {
        summary_answers_.insert(*answer);
      }
      if (c.empty || compaction_shown(i, unlogged) || ctx.resumed_history().holds(c.seq) ||
          c.seq < ctx.resumed_history().request_seq()) {
        continue;
      }
      if (!c.summary_text || stored_redacted_) {
        unsure.add(c.seq);
        continue;
      }
      ctx.emit(finding("GC04", Severity::high, {c.seq},
                       "Codex logged a `compacted` line whose summary no answer streamed and no later request sent: a "
                       "summary of the run the model never wrote was added to the log."),
               "codex-compaction-unmatched:" + to_hex(c.summary));
    }
    emit_counted(ctx, "GC04", Severity::warning, unsure,
                 "Codex `compacted` line(s) hold a summary that the wire, stored redacted or past this check's "
                 "bounds, was not seen to stream or send: read them.",
                 "codex-compaction-unsure");
  }

  void codex_texts(Context& ctx) {
    const absl::flat_hash_map<Digest, size_t> items = streamed_item_counts();
    absl::flat_hash_map<std::pair<Digest, Digest>, size_t> copies;  // (rollout, text) -> copies logged
    for (const auto& [seq, digest, text, file] : codex_texts_) {
      auto it = wire_by_text_.find(digest);
      // History an earlier run wrote, which `codex resume` re-sent (GC05 lists it).
      if (it == wire_by_text_.end() && ctx.resumed_history().holds(seq)) {
        history_texts_.insert(digest);
        continue;
      }
      if (it == wire_by_text_.end()) {
        const auto [match, answer] = redacted_answer_of(text);
        if (match == RedactedMatch::yes) {
          redacted_texts_.add(seq);
          matched_answers_.insert(answer);
          continue;
        }
        if (match == RedactedMatch::not_compared) {
          uncompared_.add(seq);
          continue;
        }
        if (logged_past_cap(text, seq)) continue;
        ctx.emit(finding("GC04", Severity::high, {seq},
                         "Codex logged an assistant answer whose text matches no answer rebuilt from the wire."),
                 "codex-unmatched:" + to_hex(digest));
      } else {
        matched_answers_.insert(next_answer_with_text(digest, it->second));
        if (ctx.resumed_history().holds(seq) || repeated_texts_count_ >= kMaxTracked) continue;
        // Codex logs each message item once in its rollout (a fork's copy of
        // its parent's is another file): a copy more than the model streamed
        // is an answer added (red-team 104 #07).
        if (++copies[{file, digest}] == times_streamed(digest, items) + 1) {
          ctx.emit(finding("GC04", Severity::high, {seq, it->second},
                           "Codex logged an assistant answer's text more times in one rollout than the wire streamed "
                           "it (first at seq " + std::to_string(it->second) + "): an answer the model never gave again "
                           "was added to the log."),
                   "codex-text-extra-copy:" + to_hex(digest));
        }
      }
    }
  }

  // How many message items of finished answers streamed each text.
  absl::flat_hash_map<Digest, size_t> streamed_item_counts() const {
    absl::flat_hash_map<Digest, size_t> counts;
    for (const auto& [seq, digest] : wire_items_) ++counts[digest];
    return counts;
  }

  // How many times a text was streamed: the answers that streamed it, or
  // its message items (one answer may say it in two), whichever is more.
  size_t times_streamed(const Digest& text, const absl::flat_hash_map<Digest, size_t>& items) const {
    const auto later = repeated_texts_.find(text);
    const size_t answers = 1 + (later == repeated_texts_.end() ? 0 : later->second.size());
    const auto in_items = items.find(text);
    return std::max(answers, in_items == items.end() ? size_t{0} : in_items->second);
  }

  // A Codex answer's text (or one message item's), by digest: the first
  // answer that streamed it, and the later ones that streamed it again (a
  // model may answer "Done." in two turns; each is logged once).
  void wire_text(const Digest& text, uint64_t seq) {
    auto [it, added] = wire_by_text_.try_emplace(text, seq);
    if (added || it->second == seq || repeated_texts_count_ >= kMaxTracked) return;
    std::vector<uint64_t>& later = repeated_texts_[text];
    if (!later.empty() && later.back() == seq) return;
    later.push_back(seq);
    ++repeated_texts_count_;
  }

  // The answer a logged text stands for: each logged copy of a text takes
  // the next answer that streamed it, in order; copies past them the last.
  uint64_t next_answer_with_text(const Digest& text, uint64_t first) {
    size_t& used = text_copies_logged_[text];
    const auto later = repeated_texts_.find(text);
    const size_t count = later == repeated_texts_.end() ? 0 : later->second.size();
    const uint64_t seq = used == 0 || count == 0 ? first : later->second[std::min(used, count) - 1];
    ++used;
    return seq;
  }

  // Tool calls both ways, by call id.
  void calls(Context& ctx) {
    for (const auto& [key, c] : logged_calls_) {
      auto it = wire_calls_.find(key);
      if (it == wire_calls_.end() && ctx.resumed_history().holds(c.seq)) continue;  // GC05 lists its line
      if (it == wire_calls_.end()) {
        ctx.emit(finding("GC04", Severity::high, {c.seq},
                         "The harness logged tool call " + c.id + " that no wire response carries: a tool call "
                         "the model never sent."),
                 "call-not-sent:" + c.id);
        continue;
      }
      matched_answers_.insert(it->second.seq);
      const auto& sent = it->second.redacted;
      if (it->second.name == c.name && it->second.input != c.input && sent && c.input_text &&
          matches_with_redactions(*sent, *c.input_text)) {
        redacted_texts_.add(c.seq);
        continue;
      }
      // Claude Code logs a call with its schema's false defaults filled in
      // (Edit's replace_all): the same call as the model streamed it. A
      // flag the model set true and the log says false still differs.
      const bool defaults_filled = c.unflagged && it->second.unflagged && *c.unflagged == *it->second.unflagged;
      if (it->second.name != c.name || (it->second.input != c.input && !defaults_filled)) {
        ctx.emit(finding("GC04", Severity::high, {c.seq, it->second.seq},
                         "Tool call " + c.id + " as the harness logged it differs in " +
                             (it->second.name != c.name ? "name" : "input") + " from the call streamed at seq " +
                             std::to_string(it->second.seq) + "."),
                 "call-differs:" + c.id);
      }
    }
    if (!log_present()) return;
    for (const auto& [key, w] : wire_calls_) {
      if (!w.required || logged_calls_.contains(key)) continue;
      // A harness logs a call before its result: a result of it captured
      // shows the recorder read past where the call stands (red-team 104 #05).
      if (log_capture_ended_after(w.seq) && !logged_results_.contains(key)) {
        ctx.emit(finding("GC04", Severity::warning, {w.seq},
                         "The model called tool " + w.id + " (wire response at seq " + std::to_string(w.seq) +
                             ") and no harness log line was captured after it: the capture stopped recording the "
                             "log (an IngestLost restart or an unsealed end) before the harness could log the call."),
                 "call-not-logged-capture-lost:" + w.id);
        continue;
      }
      ctx.emit(finding("GC04", Severity::high, {w.seq},
                       "The model called tool " + w.id + " (wire response at seq " + std::to_string(w.seq) +
                           ") but the harness log never shows that call: a sent tool call missing from the log."),
               "call-not-logged:" + w.id);
    }
  }

  void results(Context& ctx) {
    SeqList cleared_rejections;
    for (const auto& [key, seq] : logged_results_) {
      if (logged_calls_.contains(key) || wire_calls_.contains(key)) continue;
      // Plan mode's "clear context" (2.1): the new session's file opens with
      // the rejection of the cleared conversation's ExitPlanMode, whose call
      // only the old file holds. A rejection in Claude Code's fixed words,
      // never sent, says no tool ran and nothing the model saw: listed.
      if (rejections_.contains(key) && !sent_results_.contains(key)) {
        cleared_rejections.add(seq);
        continue;
      }
      ctx.emit(finding("GC04", Severity::high, {seq},
                       "The harness logged a tool result for a call that was never made (neither logged nor "
                       "streamed)."),
               "result-without-call:" + to_hex(key));
    }
    emit_counted(ctx, "GC04", Severity::warning, cleared_rejections,
                 "Claude Code rejection(s) of a tool call the log does not hold, never sent (plan mode's clear "
                 "context logs the rejected ExitPlanMode of the cleared conversation in the new file): read the "
                 "earlier session's file.",
                 "rejection-without-call");
    for (const auto& [key, sent] : sent_results_) {
      const uint64_t seq = sent.seq;
      auto call = logged_calls_.find(key);
      if (call == logged_calls_.end() || logged_results_.contains(key)) continue;
      if (sent.only_placeholders) {
        ctx.emit(finding("GC04", Severity::info, {call->second.seq, seq},
                         "The harness sent the model its own stand-in for the result of tool call " + call->second.id +
                             " (request at seq " + std::to_string(seq) + "), which it sends for a call whose result "
                             "it never recorded (a tool that crashed, a hook that deferred, a resumed session): "
                             "nothing the tool returned reached the model."),
                 "result-placeholder-sent:" + call->second.id);
        continue;
      }
      ctx.emit(finding("GC04", Severity::high, {call->second.seq, seq},
                       "The harness sent the model the result of tool call " + call->second.id + " (request at seq " +
                           std::to_string(seq) + ") but its log does not show that result."),
               "result-not-logged:" + call->second.id);
    }
  }

  // How a logged tool result stands to the forms of it the model was sent.
  enum class ResultMatch { same, replaced, unsure, loose, reminded, cut, redacted, unkept, differs };

  // The reminder blocks of a form sent, kept (a few per call) to hold the
  // blocks a logged result shows to.
  static void sent_reminders(SentResult& sent, std::string_view text) {
    constexpr size_t kMaxSentReminders = 4 * LoggedResult::kMaxReminders;
    for (const Digest& d : reminder_blocks_in(text, kMaxSentReminders, nullptr)) {
      if (sent.reminders.size() >= kMaxSentReminders) return;
      if (std::find(sent.reminders.begin(), sent.reminders.end(), d) == sent.reminders.end()) sent.reminders.push_back(d);
    }
  }

  // Whether every reminder block the logged result holds was sent with it:
  // Claude Code logs only reminders it also sends.
  static bool reminders_sent(const LoggedResult& logged, const SentResult& sent) {
    if (logged.reminders_over) return false;
    return std::all_of(logged.reminders.begin(), logged.reminders.end(), [&](const Digest& d) {
      return std::find(sent.reminders.begin(), sent.reminders.end(), d) != sent.reminders.end();
    });
  }

  // Whether a form sent is the replacement, as recorded or with the
  // harness's reminders appended.
  static bool replacement_sent(const Replacement& r, const SentResult& sent) {
    return std::any_of(sent.forms.begin(), sent.forms.end(), [&](const SaidDigests& f) { return f.exact == r.digest; }) ||
           std::find(sent.unreminded.begin(), sent.unreminded.end(), r.unreminded) != sent.unreminded.end();
  }

  ResultMatch match_result(const Identity& key, const LoggedResult& logged, const SentResult& sent) const {
    const auto& forms = sent.forms;
    auto any_form = [&](auto same) { return std::any_of(forms.begin(), forms.end(), same); };
    if (logged.sent_as_logged || any_form([&](const SaidDigests& f) { return f.exact == logged.said.exact; })) {
      return ResultMatch::same;
    }
    // Claude Code notes the shorter form it sent in a content-replacement line.
    // The model saw the preview, which must be the logged result's head; a
    // record of a form never sent excuses nothing.
    if (auto r = replaced_.find(key); r != replaced_.end() && r->second.persisted && replacement_sent(r->second, sent)) {
      const bool kept = r->second.preview && logged.ends;
      return !kept || begins_with_preview(logged.ends->head, *r->second.preview) ? ResultMatch::replaced : ResultMatch::differs;
    }
    if (any_form([&](const SaidDigests& f) { return f.loose == logged.said.loose; })) return ResultMatch::loose;
    if (std::find(sent.unreminded.begin(), sent.unreminded.end(), logged.unreminded) != sent.unreminded.end() &&
        reminders_sent(logged, sent)) {
      return ResultMatch::reminded;
    }
    const auto& cuts = sent.kept_forms;
    if (logged.ends && std::any_of(cuts.begin(), cuts.end(), [&](const std::string& c) { return is_truncation_of(c, *logged.ends); })) {
      return ResultMatch::cut;
    }
    // The recorder redacted a secret in what was sent; the log keeps it.
    if (logged.ends && logged.ends->tail.empty() &&
        std::any_of(cuts.begin(), cuts.end(), [&](const std::string& c) { return matches_with_redactions(c, logged.ends->head); })) {
      return ResultMatch::redacted;
    }
    // A cut-down form that could not be kept to compare is not an edit shown.
    if ((!cuts.empty() && !logged.ends) || sent.cut_dropped) return ResultMatch::unkept;
    return ResultMatch::differs;
  }

  // Each logged tool result (and each further one for the same call)
  // against the forms the model was sent, and its is_error against the
  // flags sent with it.
  void result_texts(Context& ctx) {
    SeqList loose, reminded, cut, redacted, replaced, unsure, unkept;
    auto judge = [&](const Identity& key, const LoggedResult& logged, bool extra) {
      auto sent = sent_results_.find(key);
      if (sent == sent_results_.end() || sent->second.forms.empty()) return;
      result_error(ctx, key, logged, sent->second);
      switch (match_result(key, logged, sent->second)) {
        case ResultMatch::same: return;
        case ResultMatch::replaced: return replaced.add(logged.seq);
        case ResultMatch::unsure: return unsure.add(logged.seq);
        case ResultMatch::loose: return loose.add(logged.seq);
        case ResultMatch::reminded: return reminded.add(logged.seq);
        case ResultMatch::cut: return cut.add(logged.seq);
        case ResultMatch::redacted: return redacted.add(logged.seq);
        case ResultMatch::unkept: return unkept.add(logged.seq);
        case ResultMatch::differs: break;
      }
      ctx.emit(finding("GC04", Severity::high, {logged.seq, sent->second.seq},
                       "The tool result the harness logged differs from the result it sent the model (request at seq " +
                           std::to_string(sent->second.seq) + "): the log's account of what the tool returned was changed."),
               "result-differs:" + to_hex(key) + (extra ? ":" + std::to_string(logged.seq) : ""));
    };
    for (const auto& entry : logged_texts_) judge(entry.first, entry.second, false);
    for (const ExtraResult& extra : extra_results_) judge(extra.key, extra.logged, true);
    emit_counted(ctx, "GC04", Severity::info, loose,
                 "logged tool result(s) differ from what was sent only in white space or Unicode normalization.",
                 "result-loose");
    emit_counted(ctx, "GC04", Severity::info, reminded,
                 "logged tool result(s) were sent with <system-reminder> blocks the harness added (Claude Code "
                 "appends them to what it sends, not to its log); the rest matches the log.",
                 "result-reminders");
    emit_counted(ctx, "GC04", Severity::info, cut,
                 "logged tool result(s) were sent cut down (their middle replaced by a truncation marker), as "
                 "Codex does with long outputs; the parts sent match the log.",
                 "result-cut");
    emit_counted(ctx, "GC04", Severity::info, redacted,
                 "logged tool result(s) match what was sent once the recorder's [REDACTED:...] markers stand for "
                 "the secrets the log keeps.",
                 "result-redacted");
    emit_counted(ctx, "GC04", Severity::info, replaced,
                 "logged tool result(s) were sent in the shorter form a content-replacement line records.",
                 "result-replaced");
    emit_counted(ctx, "GC04", Severity::warning, unsure,
                 "logged tool result(s) named by a content-replacement line were sent in a form that matches "
                 "neither the log nor the replacement it records.",
                 "result-replaced-differs");
    emit_counted(ctx, "GC04", Severity::warning, unkept,
                 "logged tool result(s) differ from a cut-down form the model was sent, and the trace's results "
                 "were too large to keep what is needed to compare them (" + std::to_string(kMaxKeptBytes >> 20) +
                     " MiB): not judged.",
                 "result-not-compared");
  }

  // Claude Code's copy of an Edit's result names the file and the strings
  // replaced, a Write's the file and its content; the call (held to the
  // wire as streamed) says what the model asked. A copy that says another
  // edit was made rewrites it; so does a patch (structuredPatch) that makes
  // another file of the original than the edit does. The call decides the
  // shape the copy must have: one that holds text as written (oldString,
  // newString, content) without the call's members as strings (taken out,
  // null, or the other tool's) says another edit too (red-team 18b #6).
  void edit_copies(Context& ctx) {
    for (const EditCopy& copy : edit_copies_) {
      auto call = edit_calls_.find(copy.call);
      if (call == edit_calls_.end()) continue;
      const std::optional<Digest>& digest = call->second.write ? copy.copy.as_write : copy.copy.as_edit;
      const bool patch_differs = call->second.write ? copy.copy.write_patch_differs : copy.copy.edit_patch_differs;
      if (digest != call->second.digest) {
        ctx.emit(finding("GC04", Severity::high, {copy.seq},
                         "The harness's structured copy of an Edit result (toolUseResult filePath, oldString, "
                         "newString) or a Write result (filePath, content) names another edit than the call the model "
                         "made, or holds its text without those members: what was written was changed in the log."),
                 "edit-copy-differs:" + std::to_string(copy.seq));
      } else if (patch_differs) {
        ctx.emit(finding("GC04", Severity::high, {copy.seq},
                         "The patch the harness logged for an Edit result or a Write result (toolUseResult structuredPatch), "
                         "applied to the file it logs as the one before (originalFile), makes another file than the "
                         "call the model made does: what was written was changed in the log."),
                 "edit-patch-differs:" + std::to_string(copy.seq));
      }
    }
  }

  // A result logged as failed or not (is_error) otherwise than it was sent:
  // whether the tool failed was changed in the log.
  void result_error(Context& ctx, const Identity& key, const LoggedResult& logged, const SentResult& sent) {
    if (logged.error == kErrorUnknown || sent.errors == 0 || (sent.errors & (1u << logged.error)) != 0) return;
    ctx.emit(finding("GC04", Severity::high, {logged.seq, sent.seq},
                     std::string("The harness logged a tool result ") +
                         (logged.error == kErrorTrue ? "as failed (is_error true)" : "as not failed (is_error absent or false)") +
                         " that it sent the model otherwise (request at seq " + std::to_string(sent.seq) +
                         "): whether the tool failed was changed in the log."),
             "result-error-differs:" + to_hex(key) + ":" + std::to_string(logged.seq));
  }

  // Structured copies that contradict their result: high when that result
  // went to the model (its copy says what the model was never sent), a
  // warning when no request carried it (the log contradicts itself).
  void result_copies(Context& ctx) {
    for (const auto& [key, seq] : copy_differs_) {
      auto sent = sent_results_.find(key);
      if (sent == sent_results_.end()) {
        ctx.emit(finding("GC04", Severity::warning, {seq},
                         "The harness's structured copy of a tool result (toolUseResult) holds text its logged "
                         "result does not; no request sent that result, so the wire cannot tell which was edited."),
                 "result-copy-unsent:" + to_hex(key));
        continue;
      }
      ctx.emit(finding("GC04", Severity::high, {seq, sent->second.seq},
                       "The harness's structured copy of a tool result (toolUseResult) holds text the result it "
                       "sent the model (request at seq " + std::to_string(sent->second.seq) +
                           ") does not: the log's account of what the tool returned was changed."),
               "result-copy-differs:" + to_hex(key));
    }
    emit_counted(ctx, "GC04", Severity::info, copy_unsure_,
                 "logged tool result(s) hold only part of what their structured copy (toolUseResult) says: the "
                 "result was shortened for the model (cut down, persisted to a file, long lines cut) or the text "
                 "is stderr, which the harness may rework; not judged.",
                 "result-copy-unsure");
  }

  // What the user said, as logged, against what requests carried. Only
  // prompts a model answer followed in the log are held to it: the last
  // one of a run may never have been sent.
  void prompts(Context& ctx) {
    if (requests_ == 0) return;
    SeqList loose, redacted, superseded, notified;
    for (const LoggedPrompt& p : logged_prompts_) {
      if (!p.answered || wire_prompts_.contains(p.said.exact)) continue;
      // Asked before a compaction an earlier run made: this run resumed from its summary.
      if (ctx.resumed_history().superseded(p.seq)) {
        superseded.add(p.seq);
        continue;
      }
      if (wire_prompts_loose_.contains(p.said.loose)) {
        loose.add(p.seq);
        continue;
      }
      if (const std::optional<bool> sent = notification_sent(p); sent != false) {
        (sent.has_value() ? notified : reminders_unsearched_).add(p.seq);
        continue;
      }
      const RedactedMatch match = p.text ? comparer_.first_match(redacted_prompts_, *p.text).first : RedactedMatch::no;
      if (match != RedactedMatch::no) {
        (match == RedactedMatch::yes ? redacted : uncompared_).add(p.seq);
        continue;
      }
      ctx.emit(finding("GC04", Severity::high, {p.seq},
                       "The harness logged a user prompt (or Codex developer message) that no request sent the "
                       "model: what the user asked, or the model was told, was changed in the log."),
               "prompt-not-sent:" + std::to_string(p.seq));
    }
    unsent_flagged(ctx);
    emit_counted(ctx, "GC04", Severity::warning, superseded,
                 "logged user prompt(s) come before a compaction written before this run, which resumed from its "
                 "summary: no request of this run sent them; read them against the earlier run's trace.",
                 "prompt-superseded");
    emit_counted(ctx, "GC04", Severity::info, loose,
                 "logged user prompt(s) differ from what was sent only in white space or Unicode normalization.",
                 "prompt-loose");
    emit_counted(ctx, "GC04", Severity::info, notified,
                 "logged background-task notification(s) (<task-notification> user lines) were sent whole inside a "
                 "<system-reminder> of the harness's wording.",
                 "prompt-notification-in-reminder");
    emit_counted(ctx, "GC04", Severity::info, redacted,
                 "logged user prompt(s) match what was sent once the recorder's [REDACTED:...] markers stand for "
                 "the secrets the log keeps.",
                 "prompt-redacted");
  }


  // Claude Code 2.1.332's TUI logs a background task's notification as a
  // user line of its own (its text the <task-notification> block) and sends
  // it inside a <system-reminder> that adds its own preamble: sent when a
  // reminder sent holds that whole text. Only such a block: a prompt of the
  // user's is sent as it stands.
  // nullopt: not searched for (the search budget was spent).
  std::optional<bool> notification_sent(const LoggedPrompt& p) {
    if (!p.text || !trimmed_text(*p.text).starts_with("<task-notification>")) return false;
    return a_sent_reminder_holds(reminder_form(*p.text));
  }

  // A text as a sent reminder is compared: loose, its HTML entities read.
  static std::string reminder_form(std::string_view text) {
    std::string loose = loose_text(text);
    if (holds(loose, "&")) loose = html_unescaped(loose);
    return loose;
  }

  // Whether a reminder sent holds `loose`: the one pass's answer
  // (search_reminders_once), else a search of the reminders one at a time;
  // nullopt once the budget for those searches is spent. Each reads every
  // reminder kept (up to kMaxKeptBytes), so without a bound a crafted upload
  // of many short attachments and long reminders made this quadratic:
  // 20,000 queued prompts against a 30 MB reminder took 34 s.
  std::optional<bool> a_sent_reminder_holds(std::string_view loose) {
    search_reminders_once();
    switch (held_in_reminders_.held(loose)) {
      case TextsWithin::Held::yes: return true;
      case TextsWithin::Held::no: return false;
      case TextsWithin::Held::unknown: break;
    }
    return any_sent_reminder([&](std::string_view sent) { return holds(sent, loose); });
  }

  // Every text the checks below look for in the reminders sent, found in
  // one pass (texts_within.h): each text's answer is then its own, and
  // only what that pass cannot settle (a paste-marked text whose parts are
  // all sent, a long text whose ends are, texts past its bounds) costs the
  // search budget, so that texts a log editor adds cannot spend it for a
  // forged one.
  void search_reminders_once() {
    if (reminders_searched_) return;
    reminders_searched_ = true;
    for (const LoggedPrompt& p : logged_prompts_) {
      if (p.answered && p.text && trimmed_text(*p.text).starts_with("<task-notification>")) {
        held_in_reminders_.want(reminder_form(*p.text));
      }
    }
    for (const LoggedAttachment& a : logged_attachments_) {
      if (!a.followed || a.loose.empty()) continue;
      held_in_reminders_.want(a.loose);
      const std::vector<std::string_view> parts = around_paste_marks(a.loose);
      if (parts.size() >= 2) {
        for (std::string_view part : parts) held_in_reminders_.want(part);
      }
    }
    held_in_reminders_.search(sent_reminders_);
  }

  // Read from the reminder that held the last text found, on in the order
  // sent and around: texts are logged, and sent, in their order, so an
  // honest run's next text is in that reminder or soon after it (20,000
  // queued prompts, each sent in a reminder of its own after a 30 MB one,
  // are then found at the cost of their own reminders).
  template <typename Test>
  std::optional<bool> any_sent_reminder(const Test& test) {
    const size_t count = sent_reminders_.size();
    for (size_t i = 0; i < count; ++i) {
      const size_t at = (last_reminder_held_ + i) % count;
      const std::string_view sent = sent_reminders_[at];
      // A visit costs something however short the reminder: millions of
      // empty ones must not allow billions of visits.
      const uint64_t cost = std::max<uint64_t>(sent.size(), kReminderVisitBytes);
      if (cost > reminder_search_left_) {
        reminder_search_left_ = 0;  // spent: no later, shorter search either
        return std::nullopt;
      }
      reminder_search_left_ -= cost;
      if (test(sent)) {
        last_reminder_held_ = at;
        return true;
      }
    }
    return false;
  }

  // Claude Code user lines the prompt check passes over (transcript only,
  // a command's or bash mode's record, a text of <system-reminder> blocks
  // only, a sidechain's prompt judged on no
  // sidechain) that a model answer follows in their file and no request
  // sent: Claude Code sends such records in later requests, and a
  // sidechain's prompt in its own, so one that no request carried may be a
  // line added to tell the judge what the model never heard. A warning: a
  // harness may word its records apart, and may never send a line shown
  // only in the transcript.
  void unsent_flagged(Context& ctx) {
    SeqList unsent, summaries;
    // Every request was read whole: one that carried the line cannot hide.
    const bool all_read = cut_requests_.empty() && unread_requests_.empty();
    for (const FlaggedPrompt& f : flagged_) {
      if (!f.followed || (f.prompt >= 0 && logged_prompts_[static_cast<size_t>(f.prompt)].answered)) continue;
      if (wire_prompts_.contains(f.said.exact) || wire_prompts_loose_.contains(f.said.loose)) continue;
      const RedactedMatch match = f.text ? comparer_.first_match(redacted_prompts_, *f.text).first : RedactedMatch::no;
      if (match == RedactedMatch::not_compared) uncompared_.add(f.seq);
      if (match == RedactedMatch::no) (f.compact_summary && all_read ? summaries : unsent).add(f.seq);
    }
    // Claude Code sends a compaction's summary as the first user message of
    // every later request: one a model answer follows in its file that no
    // request carried was never the model's context (red-team 18b #9).
    emit_counted(ctx, "GC04", Severity::high, summaries,
                 "Claude Code compaction summary line(s) (isCompactSummary) come before a model answer in their "
                 "file, and no request sent them, though Claude Code sends its summary with every later request: "
                 "a compaction was added to the log.",
                 "compact-summary-not-sent");
    emit_counted(ctx, "GC04", Severity::warning, unsent,
                 "Claude Code user line(s) that are not held to the wire as they stand (shown only in the transcript, "
                 "a local command's or bash mode's record, a sidechain's prompt, the harness's own <system-reminder> "
                 "context) come before a model answer in their "
                 "file, and no request sent them: read them; a line added to the log to tell the judge what the "
                 "model never heard looks so.",
                 "flagged-prompt-not-sent");
  }

  // Claude Code 2.1.3xx's copies of the messages it sends
  // (api-request-blob lines): each must be a message some request sent.
  void logged_request_blob(const Digest& message, uint64_t seq) {
    if (logged_blobs_.size() >= kMaxTracked) return blobs_unjudged_.add(seq);
    logged_blobs_.emplace_back(seq, message);
  }

  // Every distinct message an Anthropic request sent, as a blob copies it
  // (without the cache_control marks the request adds).
  void sent_message(simdjson::dom::element message) {
    if (sent_messages_.size() >= kMaxTracked) {
      sent_messages_unkept_ = true;
      return;
    }
    sent_messages_.insert(json::value_digest_without(message, "cache_control"));
    // A message of string content may have been copied in its block form
    // (the first request of a run, which marks it for caching, sent that).
    simdjson::dom::object o;
    std::string_view text;
    if (!message.get(o) && json::string(o, "content", &text) == json::Get::ok) {
      sent_messages_.insert(json::text_block_message_digest(o, text));
    }
  }

  // A blob no request sent says the model was told what it never was
  // (high), unless a request could not be read or was stored redacted or
  // cut: then the blob is only listed (a warning). A blob after the last
  // request may be of a request the run never sent (it ended first); one
  // before the first request of a run that resumes may be the earlier
  // run's, which went out on that run's wire.
  void request_blobs(Context& ctx) {
    SeqList unsent;
    const bool all_read = !stored_redacted_ && !sent_messages_unkept_ && cut_requests_.empty() && unread_requests_.empty();
    const bool resumes = ctx.facts().launch.resumes;
    for (const auto& [seq, message] : logged_blobs_) {
      if (sent_messages_.contains(message)) continue;
      if (all_read && seq < last_request_seq_ && !(resumes && seq < first_request_seq_)) {
        ctx.emit(finding("GC04", Severity::high, {seq},
                         "Claude Code logged a copy of a message it sent the model (api-request-blob) that no request "
                         "sent: what the model was told was changed in the log."),
                 "request-blob-not-sent:" + to_hex(message));
      } else {
        unsent.add(seq);
      }
    }
    blobs_unjudged_.merge(unsent);
    emit_counted(ctx, "GC04", Severity::warning, blobs_unjudged_,
                 "Claude Code api-request-blob line(s) (copies of messages it sends) that no request read in full "
                 "sent, or that came after the last request: read them.",
                 "request-blob-unjudged");
  }

  // Claude Code attachment texts the model is sent (logged_attachment()).
  struct LoggedAttachment {
    uint64_t seq = 0;
    std::string loose;  // loose_text() of the text (HTML's entities read, as sent_reminder() reads the sent)
    bool prompt = false;
    bool certain = false;    // sent as it stands whenever logged (NativeInfo::attachment_certain)
    bool followed = false;   // a model answer follows in its file (and chain)
    bool compacted = false;  // a compaction came between it and that answer
    std::optional<Digest> rendering;  // loose digest of NativeInfo::queued_rendering, sent whole as a user text
  };

  // Claude Code 2.x attachment lines whose text the model is sent with the
  // next request, inside a <system-reminder> of the harness's wording (a
  // queued message, a hook's additional context): each text, as logged,
  // kept (loosely) to find in what requests sent.
  void logged_attachment(const NativeInfo& n, uint64_t seq, const Identity& thread) {
    for (const std::string& said : n.attachment_texts) {
      if (logged_attachments_.size() >= kMaxTracked || kept_bytes_ + said.size() > kMaxKeptBytes) {
        attachments_unkept_.add(seq);
        continue;
      }
      kept_bytes_ += said.size();
      unfollowed_attachments_[thread].push_back(logged_attachments_.size());
      logged_attachments_.push_back({seq, reminder_form(said), n.attachment_prompt, n.attachment_certain, false, false, std::nullopt});
      if (n.queued_rendering) logged_attachments_.back().rendering = sha256(loose_text(*n.queued_rendering));
    }
  }

  // A compaction in the thread: the attachments before it that no answer
  // followed yet may have reached the model only in its summary (or in no
  // request, when the harness compacts without asking a model).
  void compaction_after_attachments(const Identity& thread) {
    auto it = unfollowed_attachments_.find(thread);
    if (it == unfollowed_attachments_.end()) return;
    for (size_t i : it->second) logged_attachments_[i].compacted = true;
  }

  // The <system-reminder> blocks of a tool result as sent: Claude Code 2.1
  // folds the reminders that follow the results (attachments among them)
  // into the last result of the message (smooshSystemReminderSiblings).
  // Each distinct block is kept as sent_reminder() keeps a user text.
  void sent_result_reminders(std::string_view text) {
    constexpr std::string_view kOpen = "<system-reminder>", kClose = "</system-reminder>";
    for (size_t open, at = 0; (open = text.find(kOpen, at)) != std::string_view::npos;) {
      const size_t close = text.find(kClose, open);
      if (close == std::string_view::npos) return;
      at = close + kClose.size();
      const std::string_view block = text.substr(open, at - open);
      std::string loose = loose_text(block);
      if (sent_result_reminders_seen_.size() >= kMaxTracked) sent_reminders_unkept_ = true;
      if (sent_reminders_unkept_ || !sent_result_reminders_seen_.insert(sha256(loose)).second) continue;
      sent_reminder(block, std::move(loose));
    }
  }

  // A user text a request sent holding <system-reminder> blocks, kept
  // (loosely, within kMaxKeptBytes) for the attachment texts to be found in,
  // with HTML's entities for < > & " ' read as those characters (Claude
  // Code 2.1 escapes some texts it puts in a reminder).
  void sent_reminder(std::string_view said, std::string loose) {
    if (!holds(said, "<system-reminder>")) return;
    keep_sent_reminder(said, std::move(loose));
  }

  void keep_sent_reminder(std::string_view said, std::string loose) {
    if (holds(loose, "&")) loose = html_unescaped(loose);
    sent_reminder_redacted_ |= redacted_here(said);
    if (kept_bytes_ + loose.size() > kMaxKeptBytes) {
      sent_reminders_unkept_ = true;
      return;
    }
    kept_bytes_ += loose.size();
    sent_reminders_.push_back(std::move(loose));
  }

  // Claude Code 2.1.3xx sends some harness texts as mid-conversation
  // system turns (a {"role":"system"} message) instead of <system-reminder>
  // blocks of a user message: a background task's notification among
  // them. Their texts are kept as sent_reminder() keeps a reminder, for the
  // attachment texts to be found in; never as prompts (the user said none).
  void sent_system_turn(simdjson::dom::element item) {
    simdjson::dom::object o;
    std::string_view role;
    simdjson::dom::array parts;
    if (item.get(o) || json::string(o, "role", &role) != json::Get::ok || role != "system") return;
    auto keep = [&](std::string_view said) {
      std::string loose = loose_text(said);
      if (sent_result_reminders_seen_.size() >= kMaxTracked) sent_reminders_unkept_ = true;
      if (sent_reminders_unkept_ || !sent_result_reminders_seen_.insert(sha256(loose)).second) return;
      keep_sent_reminder(said, std::move(loose));
    };
    std::string_view text;
    if (json::string(o, "content", &text) == json::Get::ok) return keep(text);
    if (json::array(o, "content", &parts) != json::Get::ok) return;
    for (auto part : parts) {
      simdjson::dom::object p;
      std::string_view type;
      if (!part.get(p) && json::string(p, "type", &type) == json::Get::ok && type == "text" &&
          json::string(p, "text", &text) == json::Get::ok) {
        keep(text);
      }
    }
  }

  // nullopt: not searched for (the search budget was spent).
  std::optional<bool> attachment_sent(const LoggedAttachment& a) {
    if (wire_prompts_loose_.contains(sha256(a.loose))) return true;
    if (a.rendering && wire_prompts_loose_.contains(*a.rendering)) return true;
    if (const std::optional<bool> held = a_sent_reminder_holds(a.loose); held != false) return held;
    // Claude Code sends a queued prompt's pasted text or image in place of
    // its [Pasted text #1 +3 lines] / [Image #1] marker: the words around
    // the markers must be sent, in order, in one text.
    const std::vector<std::string_view> parts = around_paste_marks(a.loose);
    if (parts.size() < 2) return false;
    // A part no reminder holds: no reminder holds them all.
    if (std::any_of(parts.begin(), parts.end(),
                    [&](std::string_view part) { return held_in_reminders_.held(part) == TextsWithin::Held::no; })) {
      return false;
    }
    return any_sent_reminder([&](std::string_view sent) {
      size_t at = 0;
      for (std::string_view part : parts) {
        if (part.empty()) continue;
        const size_t found = find_linear(sent.substr(at), part);
        if (found == std::string_view::npos) return false;
        at += found + part.size();
      }
      return true;
    });
  }

  // The parts of a loose text around its paste markers (white space gone:
  // "[Pastedtext#1+3lines]", "[Image#1]"); one part when it has none.
  static std::vector<std::string_view> around_paste_marks(std::string_view loose) {
    std::vector<std::string_view> parts;
    size_t at = 0;
    for (size_t open = 0; (open = loose.find('[', open)) != std::string_view::npos;) {
      const std::string_view rest = loose.substr(open);
      const size_t close = rest.find(']');
      if (close == std::string_view::npos || !(rest.starts_with("[Pastedtext#") || rest.starts_with("[Image#"))) {
        ++open;
        continue;
      }
      parts.push_back(loose.substr(at, open - at));
      open = at = open + close + 1;
    }
    parts.push_back(loose.substr(at));
    return parts;
  }

  // Attachment texts a model answer followed in their file and that no
  // request carried, judged as the prompt check judges a user line: the
  // user's queued message as a prompt (high), the harness's own context
  // (a hook's) as a reminder-only line (a warning). The last ones of a run
  // may never have been sent.
  void attachments(Context& ctx) {
    if (requests_ == 0) return;
    SeqList unsent;
    for (const LoggedAttachment& a : logged_attachments_) {
      if (!a.followed || a.loose.empty()) continue;
      const std::optional<bool> sent = attachment_sent(a);
      if (sent != false) {
        if (!sent.has_value()) reminders_unsearched_.add(a.seq);
        continue;
      }
      if (sent_reminder_redacted_ || sent_reminders_unkept_) {
        uncompared_.add(a.seq);
      } else if (a.prompt) {
        ctx.emit(finding("GC04", Severity::high, {a.seq},
                         "The harness logged a message the user queued while the agent worked (a queued_command "
                         "attachment) that no request sent the model: what the user asked was changed in the log."),
                 "queued-prompt-not-sent:" + std::to_string(a.seq));
      } else if (a.certain && !a.compacted && cut_requests_.empty() && unread_requests_.empty()) {
        ctx.emit(finding("GC04", Severity::high, {a.seq},
                         "The harness logged an attachment whose text Claude Code sends the model as it stands (a "
                         "changed file's snippet, a memory file, a plan, a todo list, an IDE selection, a critical "
                         "reminder) and no request sent that text: what the model was shown was changed in the log."),
                 "attachment-text-not-sent:" + std::to_string(a.seq));
      } else {
        unsent.add(a.seq);
      }
    }
    emit_counted(ctx, "GC04", Severity::warning, unsent,
                 "Claude Code attachment line(s) whose text the harness sends the model with its next request (a "
                 "hook's additional context, a queued notification) come before a model answer in their file, and "
                 "no request sent that text: read them; a line added to tell the judge what the model never heard "
                 "looks so.",
                 "attachment-not-sent");
    emit_counted(ctx, "GC04", Severity::info, attachments_unkept_,
                 "attachment text(s) past this check's bounds were not compared with the wire.", "attachment-unkept");
  }

  // Codex's base instructions no request carried (codex_instructions.h).
  void codex_instructions(Context& ctx) {
    const CodexInstructions::Judgement j = instructions_.judge(!cut_requests_.empty() || !unread_requests_.empty());
    if (!j.unsent.empty()) {
      ctx.emit(finding("GC04", Severity::high, j.unsent.seqs,
                       "The Codex rollout logs system instructions (base_instructions) that no request sent the "
                       "model as its instructions: what the model was told to do was changed in the log."),
               "instructions-not-sent");
    }
    emit_counted(ctx, "GC04", Severity::warning, j.uncompared,
                 "Codex base instructions were not compared with every request's (a request redacted, unread or "
                 "past this check's bounds): not judged.",
                 "instructions-uncompared");
    emit_counted(ctx, "GC04", Severity::info, j.unkept,
                 "Codex base instructions past this check's bounds were not compared with the wire.", "instructions-unkept");
  }

  // Codex's turn_context values and user instructions no request stated
  // (codex_context.h).
  void codex_context(Context& ctx) {
    const CodexContext::Judgement j = codex_context_.judge(requests_, !cut_requests_.empty() || !unread_requests_.empty(),
                                                           ctx.facts().launch.resumes);
    // One high finding for the lines a judgement names, if any.
    auto high = [&](const SeqList& lines, std::string message, std::string key) {
      if (!lines.empty()) ctx.emit(finding("GC04", Severity::high, lines.seqs, std::move(message)), std::move(key));
    };
    high(j.policy_unsent,
         "The session's first Codex turn_context logs " + j.policy_example +
         " that its first request did not tell the model (its <environment_context> or <permissions "
         "instructions> message states another): what the agent was allowed to do unasked was changed in the log.",
         "turn-policy-not-sent");
    high(j.cwd_unsent,
         "The session's first Codex turn_context logs a working directory (cwd) that its first request's "
         "<environment_context> message did not state: where the agent worked was changed in the log.",
         "turn-cwd-not-sent");
    // Codex 0.58 logs some changes it never tells the model (a resumed
    // session's flags or directory, /approvals before /compact).
    emit_counted(ctx, "GC04", Severity::warning, j.policy_unstated,
                 "Codex turn_context line(s) log an approval or sandbox policy that no request told the model: Codex "
                 "does not state every change it logs (a resumed session's flags, /approvals), or the log was edited. "
                 "Read what the run was allowed to do.",
                 "turn-policy-unstated");
    emit_counted(ctx, "GC04", Severity::warning, j.cwd_unstated,
                 "Codex turn_context line(s) log a working directory (cwd) no request stated: a resumed session in "
                 "another directory, or the log was edited.",
                 "turn-cwd-unstated");
    high(j.instructions_unsent,
         "The Codex rollout logs user instructions (session_meta instructions: the user's and AGENTS.md's) "
         "that no request sent the model in any message: what the user told the agent was changed in the log.",
         "user-instructions-not-sent");
    high(j.instructions_differ,
         "The Codex rollout logs user instructions (session_meta instructions) other than those its first "
         "request sent the model whole (the <user_instructions> or AGENTS.md instructions block): what the "
         "user told the agent was changed in the log.",
         "user-instructions-differ");
    high(j.agents_md_differ,
         "The Codex rollout logs AGENTS.md instructions (a world_state line's agents_md text) that no "
         "request sent the model as a whole AGENTS.md instructions block: what the user told the agent was "
         "changed in the log.",
         "agents-md-differs");
    high(j.policy_impossible,
         "Codex turn_context line(s) log an approval_policy or sandbox_policy that no Codex release writes "
         "(Codex serializes them from its own enums, in kebab-case): what the agent was allowed to do was "
         "changed in the log.",
         "turn-policy-impossible");
    emit_counted(ctx, "GC04", Severity::warning, j.policy_unfamiliar,
                 "Codex turn_context line(s) log an approval_policy or sandbox_policy in Codex's spelling that no "
                 "release known to this check writes: a newer release, or the log was edited. Read what the run was "
                 "allowed to do.",
                 "turn-policy-unfamiliar");
    emit_counted(ctx, "GC04", Severity::warning, j.uncompared,
                 "Codex turn_context values or user instructions were not compared with every request (a request cut, "
                 "unread or redacted, or past this check's bounds): not judged.",
                 "codex-context-uncompared");
  }

  // A Codex review's verdict (exited_review_mode) is the reviewer model's
  // answer, which Codex reads as JSON (the text from its first '{' to its
  // last '}') or, when it is none, as the explanation whole. Where the
  // reviewer's answer is known (codex_reviews.h), the verdict is held to it
  // by value (red-team 20b #3); otherwise each text of it must be a string
  // of such an answer streamed, or that answer's text (red-team 19b #17).
  void codex_reviews(Context& ctx) {
    const CodexReviews::Judgement judged = codex_reviews_.judge();
    for (const CodexReviews::Differs& d : judged.differs) {
      ctx.emit(finding("GC04", Severity::high, {d.seq, d.answer_seq},
                       "Codex logged a review's verdict (exited_review_mode, seq " + std::to_string(d.seq) +
                           ") that is not what the reviewer answered on the wire (seq " + std::to_string(d.answer_seq) +
                           "): " + d.what + ". A verdict the reviewer never gave was put in the log."),
               "codex-review-differs:" + std::to_string(d.seq));
    }
    emit_counted(ctx, "GC04", Severity::warning, judged.unopened,
                 "Codex review verdict(s) (exited_review_mode) follow no entered_review_mode line in their file, "
                 "which Codex writes when a review starts: the reviewer's answer was not known, so only the "
                 "verdict's texts were held to the answers streamed. Read them.",
                 "codex-review-unopened");
    std::erase_if(review_texts_, [&](const LoggedAnswer& t) { return judged.judged.contains(t.seq); });
    if (review_texts_.empty()) return;
    absl::flat_hash_set<Digest> streamed;  // trimmed texts
    for (const auto& [id, w] : wire_by_id_) streamed.insert(w.trimmed_text);
    for (const std::string& answer : review_answers_) {
      const size_t open = answer.find('{'), close = answer.rfind('}');
      if (open == std::string::npos || close == std::string::npos || close < open) continue;
      auto root = ctx.body_parser().parse_copy(std::string_view(answer).substr(open, close - open + 1), 0);
      if (root) review_strings(*root, streamed);
      ctx.body_parser().release_if_large(answer.size());
    }
    SeqList unsure;
    for (const LoggedAnswer& t : review_texts_) {
      // A message item of an answer of several, as streamed.
      if (streamed.contains(t.digest) || (t.text && wire_by_text_.contains(sha256(*t.text)))) continue;
      if (stored_redacted_ || t.seq < ctx.resumed_history().request_seq()) {
        unsure.add(t.seq);
        continue;
      }
      ctx.emit(finding("GC04", Severity::high, {t.seq},
                       "Codex logged a review's verdict (exited_review_mode) whose explanation or finding no answer "
                       "streamed on the wire holds: a review the model never wrote was put in the log."),
               "codex-review-unmatched:" + to_hex(t.digest));
    }
    emit_counted(ctx, "GC04", Severity::warning, unsure,
                 "Codex review verdict text(s) (exited_review_mode) were not found in the answers streamed, where the "
                 "recorder stored them redacted or an earlier run wrote them: read them.",
                 "codex-review-unsure");
  }

  // Every string a review's JSON holds (trimmed), to a bounded depth.
  static void review_strings(simdjson::dom::element e, absl::flat_hash_set<Digest>& out, int depth = 0) {
    constexpr int kMaxDepth = 8;
    std::string_view text;
    simdjson::dom::object o;
    simdjson::dom::array a;
    if (!e.get(text)) out.insert(sha256(trimmed_text(text)));
    if (depth >= kMaxDepth) return;
    if (!e.get(o)) {
      for (auto field : o) review_strings(field.value, out, depth + 1);
    } else if (!e.get(a)) {
      for (auto v : a) review_strings(v, out, depth + 1);
    }
  }

  // Codex's agent_message events repeat each answer's text for its UI, and
  // task_complete its turn's last.
  void event_answers(Context& ctx) {
    // Older Codex releases wrote this one themselves after a compaction.
    static const Digest kCompactDone = sha256("Compact task completed");
    for (const auto& [seq, digest, text, rollout] : event_answers_) {
      if (wire_by_text_.contains(digest) || digest == kCompactDone) continue;
      // The earlier run's event repeating an answer of the history `codex resume` re-sent.
      if (seq < ctx.resumed_history().request_seq() && history_texts_.contains(digest)) continue;
      const RedactedMatch match = redacted_answer_of(text).first;
      if (match != RedactedMatch::no) {
        (match == RedactedMatch::yes ? redacted_texts_ : uncompared_).add(seq);
        continue;
      }
      ctx.emit(finding("GC04", Severity::high, {seq},
                       "Codex logged an agent_message (or task_complete) event whose text matches no answer rebuilt "
                       "from the wire."),
               "codex-event-unmatched:" + to_hex(digest));
    }
  }

  // A remote compaction's answer (no text, a compaction item) that a Codex
  // `compacted` line logs in its replacement_history: logged.
  bool compaction_item_logged(const WireAnswer& w) const {
    if (w.has_text) return false;
    const auto it = wire_compaction_items_.find(w.seq);
    return it != wire_compaction_items_.end() && logged_compaction_items_.contains(it->second);
  }

  // A Codex rollout line, for the threads the rollouts log: the TUI asks
  // for one title per thread, on its first user message (codex-rs/tui
  // thread_routing.rs: only while the thread has no name;
  // generate_thread_title() keeps one pending title per thread and
  // destination). A rollout counts once it logs a prompt, as its
  // session_meta's id (a rollout without one, as its file).
  void codex_thread_line(const NativeInfo& n) {
    if (n.type == "session_meta" && !n.session_id.empty() && codex_file_sessions_.size() < kMaxTracked) {
      codex_file_sessions_.try_emplace(identity(n.file), identity(n.session_id));
    }
    if (!n.prompts.empty() && codex_prompted_files_.size() < kMaxTracked) codex_prompted_files_.insert(identity(n.file));
  }

  size_t codex_threads() const {
    absl::flat_hash_set<Identity> threads;
    for (const Identity& file : codex_prompted_files_) {
      const auto it = codex_file_sessions_.find(file);
      threads.insert(it == codex_file_sessions_.end() ? file : it->second);
    }
    return threads.size();
  }

  // Wire answers the harness never logged (only when it logs at all). A
  // harness makes side calls by design (titles, summaries, topic checks),
  // often to a smaller model: an answer whose text a `summary` line holds
  // is logged; one from a model the log never names is listed at info, as
  // is one cut short (the user interrupted it, the stream broke: harnesses
  // write no part of such an answer) and a title answering Codex's title
  // request (codex_titles.h), at most one per thread the rollouts log
  // (codex_thread_line()): the first ones on the wire; more may be short
  // answers to questions hidden as titles, and stay a warning. Other
  // unlogged answers are a warning.
  void unlogged(Context& ctx) {
    if (!log_present()) return no_log(ctx);
    SeqList warn, side, cut, compacted, titled, codex_titles;
    std::vector<uint64_t> warn_models(models_.size()), side_models(models_.size());
    const absl::flat_hash_set<uint64_t> summarised = compaction_answers();
    const absl::flat_hash_set<uint64_t> side_requests = unlogged_side_requests();
    auto logged_model = [&](const WireAnswer& w) { return logged_models_.contains(model_ids_[w.model]); };
    auto logged = [&](const WireAnswer& w) {
      return w.logged || matched_answers_.contains(w.seq) || summary_answers_.contains(w.seq) || compaction_item_logged(w);
    };
    // The title answers that reach the title rule below (not logged, not a
    // summary line's title, not cut short), first on the wire first.
    std::vector<uint64_t> titles;
    for (const auto& [id, w] : wire_by_id_) {
      if (title_answers_.contains(w.seq) && !logged(w) && !summaries_.contains(w.trimmed_text) && w.finished) {
        titles.push_back(w.seq);
      }
    }
    std::sort(titles.begin(), titles.end());
    titles.resize(std::min(titles.size(), codex_threads()));
    const absl::flat_hash_set<uint64_t> thread_titles(titles.begin(), titles.end());
    for (const auto& [id, w] : wire_by_id_) {
      if (logged(w)) continue;
      // A title comes from a side call; an answer of the model the log's
      // own answers name, logged only as a title, may be one moved there.
      if (summaries_.contains(w.trimmed_text)) {
        if (logged_model(w)) titled.add(w.seq);
        continue;
      }
      if (!w.finished) {
        cut.add(w.seq);
        continue;
      }
      if (thread_titles.contains(w.seq)) {
        codex_titles.add(w.seq);
        continue;
      }
      if (summarised.contains(w.seq)) {
        compacted.add(w.seq);
        continue;
      }
      const bool side_call = (!logged_models_.empty() && !logged_model(w)) || side_requests.contains(w.seq);
      (side_call ? side : warn).add(w.seq);
      ++(side_call ? side_models : warn_models)[w.model];
    }
    auto by_model = [&](const std::vector<uint64_t>& per_model) {
      std::string s;
      for (size_t i = 0; i < models_.size(); ++i) {
        if (per_model[i] > 0) s += (s.empty() ? "" : ", ") + models_[i] + ": " + std::to_string(per_model[i]);
      }
      return s;
    };
    emit_counted(ctx, "GC04", Severity::warning, titled,
                 "wire response(s) of a model the log's answers name are logged only as a title (summary) line: "
                 "titles come from a side call, often of a smaller model; an answer moved into a title is hidden.",
                 "unlogged-titled");
    emit_counted(ctx, "GC04", Severity::info, compacted,
                 "wire response(s) just before a compaction summary line "
                 "(isCompactSummary) were never logged as assistant lines: the harness summarised the "
                 "conversation and logged the summary only as that line.",
                 "unlogged-compaction");
    emit_counted(ctx, "GC04", Severity::info, codex_titles,
                 "wire response(s) are Codex's thread titles, which its TUI keeps as the thread's name, never in a "
                 "rollout: each answered Codex's title request (no tools, no earlier turn) with one short "
                 "single-line {\"title\"} and no tool call; at most one per thread the rollouts log (" +
                     std::to_string(codex_threads()) + "), further ones are listed as never logged.",
                 "codex-titles");
    unlogged_cut(ctx, cut);
    answers_as_synthetic(ctx, warn);
    emit_counted(ctx, "GC04", Severity::warning, warn,
                 "wire response(s) were never logged by the harness (" +
                     by_model(warn_models) + ").",
                 "unlogged");
    emit_counted(ctx, "GC04", Severity::info, side,
                 "wire response(s) from model(s) the harness log never names, or asked in a request of one "
                 "message whose text the log never shows (" +
                     by_model(side_models) + "): side calls a harness makes by design (titles, topic "
                     "checks, a command's file paths) are of this kind.",
                 "side-calls");
  }

  // Claude Code writes <synthetic> lines only for its own notices (API
  // errors, "No response requested.", limits: harness_notice()). One that
  // says anything else, after a finished answer of the log's model that
  // was never logged, is that answer rewritten as a line the harness seems
  // to have written itself (red-team 18b #1).
  void answers_as_synthetic(Context& ctx, const SeqList& unlogged) {
    if (unlogged.empty()) return;
    const uint64_t first = *std::min_element(unlogged.seqs.begin(), unlogged.seqs.end());
    SeqList replaced;
    for (uint64_t seq : unnoticed_synthetic_.seqs) {
      if (seq > first) replaced.add(seq);
    }
    if (replaced.empty()) return;
    std::vector<uint64_t> seqs = replaced.seqs;
    seqs.push_back(first);
    ctx.emit(finding("GC04", Severity::high, seqs,
                     std::to_string(replaced.count) + " assistant line(s) of model <synthetic> say what none of Claude "
                     "Code's own notices (API errors, limits, \"No response requested.\") says, and a finished answer "
                     "the wire carried before them (seq " + std::to_string(first) + ") was never logged: a model "
                     "answer was replaced in the log by a line the harness seems to have written."),
             "synthetic-replaces-answer");
  }

  // Claude Code versions without a compaction agent file log a compaction's
  // answer only reworded, in the isCompactSummary line that follows it: for
  // each such line, the last finished unlogged answer before it (that no
  // earlier line took) whose request asked for a summary and whose
  // summary the line repeats. A log with
  // a compaction agent's answer (agent-acompact-*) is of a version that logs
  // them there: no answer is excused so.
  static constexpr size_t kMaxSummaryCandidates = 16;
  absl::flat_hash_set<uint64_t> compaction_answers() const {
    if (compaction_agent_logged_) return {};
    absl::flat_hash_set<uint64_t> summarising;
    for (const auto& exchange : summarising_exchanges_) {
      if (auto it = answer_of_exchange_.find(exchange); it != answer_of_exchange_.end()) summarising.insert(it->second);
    }
    std::vector<uint64_t> unlogged;
    for (const auto& [id, w] : wire_by_id_) {
      if (!w.logged && w.finished && !matched_answers_.contains(w.seq) && summarising.contains(w.seq)) unlogged.push_back(w.seq);
    }
    std::sort(unlogged.begin(), unlogged.end());
    absl::flat_hash_set<uint64_t> out;
    // Each line takes the last answer before it that no earlier line took:
    // a recorder that reads the log late records every summary line after
    // both answers. At most kMaxSummaryCandidates are compared per line.
    for (size_t i = 0; i < compactions_.size(); ++i) {
      size_t compared = 0;
      for (auto it = std::lower_bound(unlogged.begin(), unlogged.end(), compactions_[i]);
           it != unlogged.begin() && compared < kMaxSummaryCandidates; --it) {
        if (out.contains(*std::prev(it))) continue;
        ++compared;
        if (summarised_by(*std::prev(it), compaction_texts_[i])) {
          out.insert(*std::prev(it));
          break;
        }
      }
    }
    return out;
  }

  // The summary line repeats what the summarising answer wrote
  // (compact_summary_part, white space aside): an answer it does not
  // repeat is no summary of this compaction. Not compared where either
  // text was not kept or the recorder stored the answer redacted.
  bool summarised_by(uint64_t answer, const std::optional<std::string>& line) const {
    const auto part = summary_parts_.find(answer);
    if (part == summary_parts_.end() || !part->second || part->second->empty() || !line) return true;
    return holds(*line, *part->second);
  }

  // The log is there when it shows an answer, or the result of a call a
  // wire answer made: a log holding results of calls it never shows had
  // its assistant lines taken out, which is not a log missing.
  // Where the capture of the harness log may have stopped: a recovered
  // capture records no native line after its IngestLost gap (GC06 reports
  // the restart), and an unsealed trace ends where the recorder died.
  void note_log_capture(const Record& r) {
    if (r.kind == Kind::native) last_native_seq_ = r.seq;
    if (r.kind == Kind::wire) last_wire_seq_ = r.seq;
    if (r.kind != Kind::gap) return;
    std::string_view name;
    if (json::string(r.body, "gap", &name) == json::Get::ok && name == "IngestLost") last_ingest_lost_seq_ = r.seq;
  }

  // A call in the last stretch before the log capture ended early (the last
  // wire message, or after the last captured log line): the harness may
  // have logged it where the recorder no longer looked (Claude Code logs
  // an answer's blocks line by line, so its text can be captured and its
  // call not). A call followed by both a later wire message and a later
  // log line shows the harness went on and its log was still recorded:
  // its absence there stays high.
  bool log_capture_ended_after(uint64_t seq) const {
    const bool capture_ended = !trace_sealed_ || (last_ingest_lost_seq_ && *last_ingest_lost_seq_ > seq);
    const bool logged_later = last_native_seq_ && *last_native_seq_ > seq;
    const bool sent_later = last_wire_seq_ && *last_wire_seq_ > seq;
    return capture_ended && !(logged_later && sent_later);
  }

  bool log_present() const {
    if (native_lines_ > 0) return true;
    return std::any_of(logged_results_.begin(), logged_results_.end(),
                       [&](const auto& result) { return wire_calls_.contains(result.first); });
  }

  // Answers crossed the wire but the log shows none: a log deleted, never
  // written or kept elsewhere hides what GC04 and GC05 compare, so it is
  // said, though nothing in it can be matched.
  static void unlogged_cut(Context& ctx, const SeqList& cut) {
    emit_counted(ctx, "GC04", Severity::info, cut,
                 "wire response(s) cut short before the end of their stream were "
                 "never logged: a harness writes no part of an answer the user interrupted or the network broke.",
                 "unlogged-cut");
  }

  // An answer cut short is no sign of a missing log: a harness writes no
  // part of it (a run whose only answer the user interrupted logs none).
  void no_log(Context& ctx) {
    SeqList answers, cut;
    for (const auto& [id, w] : wire_by_id_) (w.finished ? answers : cut).add(w.seq);
    unlogged_cut(ctx, cut);
    if (answers.empty()) return;
    // A log whose only answer was rewritten as a <synthetic> line.
    answers_as_synthetic(ctx, answers);
    ctx.emit(finding("GC04", Severity::warning, answers.seqs,
                     std::to_string(answers.count) + " wire response(s) and no assistant line in the harness log: "
                     "the log was not captured (deleted, disabled or written elsewhere), so no answer could be "
                     "matched to it."),
             "no-native-log");
  }

  // At most kMaxNames names are kept; later ones share "(other models)".
  uint32_t model_index(std::string_view model) {
    std::string name = model.empty() ? "(no model)" : clip_text(model);
    auto it = std::find(models_.begin(), models_.end(), name);
    if (it == models_.end() && models_.size() + 1 >= kMaxNames) {
      name = "(other models)";
      it = std::find(models_.begin(), models_.end(), name);
    }
    if (it != models_.end()) return static_cast<uint32_t>(it - models_.begin());
    models_.push_back(std::move(name));
    model_ids_.push_back(identity(model));
    return static_cast<uint32_t>(models_.size() - 1);
  }

  size_t tracked() const {
    return wire_by_id_.size() + wire_by_text_.size() + native_by_id_.size() + wire_calls_.size() +
           codex_texts_.size() + logged_calls_.size() + logged_results_.size() + rejections_.size() + sent_results_.size() +
           summaries_.size() + logged_texts_.size() + logged_prompts_.size() + event_answers_.size() +
           review_texts_.size() + review_answers_.size() + wire_prompts_.size() + replaced_.size() + copy_differs_.size() + wire_prompts_sent_.size() +
           wire_items_.size() + logged_reasoning_.size() + event_reasoning_.size() + synthetic_ids_.size() +
           logged_user_texts_.size() + wire_server_results_.size() + logged_server_results_.size() +
           event_outputs_.size() + event_actions_.size() + event_calls_.size() + event_call_aliases_.size() + codex_outputs_.size() + wire_searched_.size() + logged_searched_.size() +
           wire_copies_.size() + logged_copies_.size() + wire_search_details_.size() + logged_search_details_.size() +
           logged_attachments_.size() + sent_reminders_.size();
  }

  absl::flat_hash_map<Identity, WireAnswer> wire_by_id_;
  absl::flat_hash_map<Identity, WireServerResult> wire_server_results_;  // call id -> streamed provider-run result
  absl::flat_hash_set<Digest> wire_searched_;                 // strings of web searches streamed (Responses)
  std::vector<std::pair<uint64_t, Digest>> logged_searched_;  // and of those logged (seq, string)
  absl::flat_hash_set<Digest> wire_search_details_;                 // search_details() of those streamed
  std::vector<std::pair<uint64_t, Digest>> logged_search_details_;  // web_search_end queries logged (seq, query)
  // Web searches of several strings logged while a resumed run's history was undecided (seq: strings).
  absl::flat_hash_map<uint64_t, std::vector<std::string>> searched_texts_;
  static constexpr size_t kMaxSearchedBytes = 1 << 20;
  size_t searched_bytes_ = 0;
  std::vector<LoggedServerResult> logged_server_results_;
  absl::flat_hash_set<Digest> wire_copies_;   // copy_digest() of what answers streamed that logs copy
  std::vector<std::string> redacted_copies_;  // those stored redacted, minified
  std::vector<LoggedCopy> logged_copies_;
  std::vector<LoggedEventOutput> event_outputs_;
  std::vector<LoggedAction> event_actions_;
  absl::flat_hash_map<Identity, std::string> codex_outputs_;  // call id -> output logged (once events are seen)
  absl::flat_hash_set<Identity> outputs_dropped_;  // outputs past kMaxEventBytes
  uint64_t output_bytes_ = 0;                      // of codex_outputs_
  std::vector<LoggedEventCall> event_calls_;
  absl::flat_hash_set<Identity> event_call_aliases_;
  SeqList uncompared_events_;
  uint64_t event_bytes_ = 0;
  static constexpr uint64_t kMaxEventBytes = 16ull << 20;
  static constexpr size_t kMaxEventsPerCall = 4;
  absl::flat_hash_map<Digest, uint64_t> wire_by_text_;
  absl::flat_hash_map<Digest, std::vector<uint64_t>> repeated_texts_;  // wire_text(): later answers of a text
  size_t repeated_texts_count_ = 0;
  absl::flat_hash_map<Digest, size_t> text_copies_logged_;  // next_answer_with_text()
  absl::flat_hash_map<Identity, WireCall> wire_calls_;
  absl::flat_hash_map<Identity, NativeMessage> native_by_id_;
  std::vector<std::pair<uint64_t, std::string>> cut_prefixes_;  // (seq, text) of answers stored cut at the cap
  SeqList past_cap_;
  absl::flat_hash_map<Identity, LoggedCall> logged_calls_;
  absl::flat_hash_set<Identity> rejections_;  // Claude Code results in its fixed rejection words, is_error
  absl::flat_hash_map<Identity, uint64_t> logged_results_;  // call id -> first seq
  absl::flat_hash_map<Identity, SentResult> sent_results_;  // call id -> the forms sent, first request seq
  absl::flat_hash_map<Identity, LoggedResult> logged_texts_;  // call id -> the first logged result
  std::vector<ExtraResult> extra_results_;                     // further ones that say otherwise
  absl::flat_hash_map<Identity, Replacement> replaced_;       // call id -> the form a content-replacement line records
  std::vector<std::pair<Identity, uint64_t>> copy_differs_;  // call id, seq of a toolUseResult its result does not hold
  SeqList copy_unsure_;
  absl::flat_hash_set<Digest> wire_prompts_, wire_prompts_loose_;
  absl::flat_hash_map<Digest, WirePrompt> wire_prompts_sent_;  // Claude Code user texts sent, by exact digest
  absl::flat_hash_map<std::pair<uint64_t, uint64_t>, uint64_t> answer_of_exchange_;  // (conn, exchange) -> response seq
  absl::flat_hash_set<std::pair<uint64_t, uint64_t>> summarising_exchanges_;  // requests asking for a summary
  absl::flat_hash_set<std::pair<uint64_t, uint64_t>> titling_exchanges_;     // Codex's title requests (codex_titles.h)
  absl::flat_hash_set<uint64_t> title_answers_;                              // their answers that are titles
  absl::flat_hash_map<Identity, Identity> codex_file_sessions_;  // rollout file -> its session_meta id
  absl::flat_hash_set<Identity> codex_prompted_files_;           // rollout files that log a prompt
  struct LoneRequest {
    static constexpr size_t kMaxTexts = 8;
    std::vector<Digest> texts;  // loose digests of its user texts
    bool other = false;         // more texts, or a part that is not text
  };
  absl::flat_hash_map<std::pair<uint64_t, uint64_t>, LoneRequest> lone_requests_;  // (conn, exchange) -> one-message request
  bool compaction_agent_logged_ = false;  // a Claude Code agent-acompact-* file logs an answer
  absl::flat_hash_set<Identity> request_models_;  // models Responses requests named
  struct TurnModel {
    uint64_t seq = 0;
    Identity model{};
    std::string name;  // clipped, for the finding
  };
  std::vector<TurnModel> turn_models_;  // Codex turn_context models
  struct EditCall {
    Digest digest{};  // edit_digest of its input
    bool write = false;  // a Write (else an Edit)
  };
  absl::flat_hash_map<Identity, EditCall> edit_calls_;  // Claude Code Edit or Write calls by id
  struct EditCopy {
    uint64_t seq = 0;
    Identity call{};
    EditResultCopy copy;
  };
  std::vector<EditCopy> edit_copies_;
  HeldCopies held_copies_;  // other tools' copies held to their call or result
  absl::flat_hash_set<Digest> logged_user_texts_;  // loose, without reminders
  bool stored_redacted_ = false;  // the wire record being read lists redaction spans
  // Codex `compacted` lines: its later requests carry texts rebuilt from
  // one, when the wire shows it was a compaction (first_real_compaction).
  struct CodexCompaction {
    uint64_t seq = 0;
    Digest summary{};  // trimmed
    std::optional<std::string> summary_text;  // trimmed, when not empty (within kMaxKeptBytes)
    bool replaced_history = false;
    bool sent = false;  // a later request's user text holds the summary
    bool empty = false;  // no summary (remote compaction: the history only)
  };
  std::vector<CodexCompaction> codex_compactions_;
  absl::flat_hash_set<uint64_t> summary_answers_;  // summarising answers a `compacted` line logs (compaction_answer)
  bool compaction_item_sent_ = false;  // a Codex request after one carried a compaction item
  absl::flat_hash_map<uint64_t, Digest> wire_compaction_items_;  // remote compaction answers: seq -> encrypted_content
  absl::flat_hash_set<Digest> logged_compaction_items_;          // those `compacted` lines hold (NativeInfo::compaction_items)
  std::vector<std::string> kept_user_texts_;       // for redacted wire forms
  uint64_t kept_user_bytes_ = 0;
  bool user_texts_dropped_ = false;  // some were past kMaxKeptUserBytes
  static constexpr uint64_t kMaxKeptUserBytes = 8ull << 20;
  std::vector<std::pair<uint64_t, Digest>> wire_items_;  // Codex: finished answers' message items (seq, text)
  absl::flat_hash_set<Digest> wire_reasoning_;     // Codex reasoning texts streamed
  absl::flat_hash_set<Digest> wire_reasoning_parts_;  // their summary parts, when several
  absl::flat_hash_set<Digest> wire_raw_reasoning_;    // an item's raw reasoning parts, joined
  std::vector<std::string> redacted_reasoning_;    // those stored redacted
  std::vector<LoggedReasoning> logged_reasoning_;
  std::vector<LoggedAnswer> event_reasoning_;      // agent_reasoning events
  std::vector<std::pair<Identity, uint64_t>> synthetic_ids_;  // <synthetic> lines' message ids
  SeqList missing_thinking_;
  std::vector<std::string> redacted_prompts_;  // user texts sent with redaction markers
  std::vector<LoggedPrompt> logged_prompts_;
  std::vector<LoggedAttachment> logged_attachments_;
  CodexInstructions instructions_;
  CodexContext codex_context_;
  CodexReviews codex_reviews_;  // each review's verdict and its reviewer's answer
  absl::flat_hash_set<Digest> sent_result_reminders_seen_;  // loose digests of the result blocks sent_result_reminders() kept
  absl::flat_hash_map<Identity, std::vector<size_t>> unfollowed_attachments_;  // thread -> those not yet followed
  SeqList attachments_unkept_;
  std::vector<std::pair<uint64_t, Digest>> logged_blobs_;  // api-request-blob lines: seq, message digest
  absl::flat_hash_set<Digest> sent_messages_;  // sent_message()
  bool sent_messages_unkept_ = false;
  SeqList blobs_unjudged_;
  uint64_t first_request_seq_ = 0, last_request_seq_ = 0;  // the first and last request read
  std::vector<std::string> sent_reminders_;  // loose_text() of user texts sent holding <system-reminder> blocks
  bool sent_reminder_redacted_ = false, sent_reminders_unkept_ = false;
  // A Claude Code user text the prompt check passes over as it stands.
  struct FlaggedPrompt {
    uint64_t seq = 0;
    SaidDigests said;
    std::optional<std::string> text;  // within kMaxKeptBytes, for redacted forms
    int64_t prompt = -1;  // its entry in logged_prompts_ (a sidechain's prompt), else -1
    bool followed = false;  // a model answer follows it in its file
    bool compact_summary = false;  // a compaction's summary (isCompactSummary)
  };
  std::vector<FlaggedPrompt> flagged_;
  absl::flat_hash_map<Identity, std::vector<size_t>> unfollowed_;  // file -> flagged_ no answer follows yet
  absl::flat_hash_map<Identity, std::vector<size_t>> unanswered_;  // file (and sidechain) -> prompts not yet answered
  std::vector<LoggedAnswer> event_answers_;
  std::vector<LoggedAnswer> review_texts_;     // exited_review_mode's texts
  std::vector<std::string> review_answers_;    // streamed answers that read as a review's JSON (within kMaxKeptBytes)
  std::vector<std::pair<uint64_t, std::string>> redacted_answers_;  // wire seq, answer text stored redacted
  SeqList redacted_texts_;
  uint64_t requests_ = 0;
  uint64_t kept_bytes_ = 0;  // ends of logged results and cut-down sent forms
  static constexpr uint64_t kMaxKeptBytes = 64ull << 20;
  std::deque<PendingText> pending_;  // logged results whose digests are not made yet, oldest first
  size_t pending_bytes_ = 0;
  static constexpr size_t kPendingBytes = 2 << 20, kPendingTexts = 256, kDeferAtLeast = 1024;
  RedactionComparer comparer_;  // for the products of logged and redacted texts
  // Bytes of sent reminders searched for logged texts, in all (what an
  // honest run needs is a small part of it).
  static constexpr uint64_t kReminderSearchBytes = 4ull << 30, kReminderVisitBytes = 64;
  uint64_t reminder_search_left_ = kReminderSearchBytes;
  size_t last_reminder_held_ = 0;  // index in sent_reminders_
  TextsWithin held_in_reminders_;   // the logged texts, sought in sent_reminders_ at once
  bool reminders_searched_ = false;
  SeqList reminders_unsearched_;  // logged texts not searched for once it was spent
  SeqList uncompared_;           // logged texts comparer_ had no budget left for
  SeqList cut_requests_, unread_requests_;  // requests whose results and prompts were not read
  static constexpr size_t kMaxKeptInput = 64 * 1024;  // a logged call input kept for redacted wire forms
  absl::flat_hash_set<Digest> summaries_;
  std::vector<uint64_t> compactions_;  // seqs of compaction summary lines, in order (at most kMaxSeqs)
  std::vector<std::optional<std::string>> compaction_texts_;  // their text, spaced (kept_text)
  // Answers to requests asking for a summary: compact_summary_part, spaced
  // (nullopt: not kept, or stored redacted).
  absl::flat_hash_map<uint64_t, std::optional<std::string>> summary_parts_;
  absl::flat_hash_set<Identity> logged_models_;
  std::vector<LoggedAnswer> codex_texts_;
  absl::flat_hash_set<Digest> history_texts_;  // held Codex answers' texts (resumed_history.h), bounded as codex_texts_
  absl::flat_hash_set<uint64_t> matched_answers_;  // wire seqs
  SeqList synthetic_;
  SeqList unnoticed_synthetic_;  // <synthetic> lines whose text is no harness notice
  absl::flat_hash_map<Identity, Digest> first_lines_;  // Claude Code uuid -> copy_key of its first line
  SeqList copies_;                                     // lines that repeat it
  std::vector<std::string> models_;
  std::vector<Identity> model_ids_;
  uint64_t native_lines_ = 0;
  std::optional<uint64_t> last_native_seq_;
  std::optional<uint64_t> last_wire_seq_;
  std::optional<uint64_t> last_ingest_lost_seq_;
  bool trace_sealed_ = true;
  bool too_many_ = false;
  TurnOrder turn_order_;  // the log's order held to the wire's
  ProgressCopies progress_copies_;  // Claude Code's copies of a subagent's messages
  ProgressOutputs progress_outputs_;  // Claude Code's live output of a running Bash command
  bool request_unread_ = false;     // a request's body was not read
};

}  // namespace

// The rule the reports list this check under (text help, SARIF), and its factory.
const CheckRegistrar kRegisteredGc04({.id = "GC04",
                                  .name = "ControlApiOutput",
                                  .gap = "Processes of the run, the agent included, can call the control API while the capture has live authority.",
                                  .bound = "Detection is after the fact, from native and wire records.",
                                  .evidence = "Harness log lines claiming model output that never crossed the wire (answers by message id or text, tool calls by id, name and input), wire responses and tool calls the harness never logged, and what the log says was said that the wire never carried: tool results (and Claude Code's structured copies of them), user prompts, Codex user_message and agent_message events, results of provider-run tools (web search, fetch, code execution), and Codex events repeating a tool's output (exec_command_end)."},
                                 make_check<Gc04>);

}  // namespace goalcup::cheat
