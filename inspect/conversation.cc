#include "inspect/conversation.h"

#include <cstdint>
#include <iostream>
#include <memory>

#include "cli/json_writer.h"
#include "cli/safe_text.h"
#include "core/json_strict.h"
#include "inspect/text.h"
#include "inspect/json_items.h"

namespace goalcup::inspect {
namespace {

constexpr size_t kMaxPending = 10000;  // requests waiting for an answer
// The input text those may hold: a crafted trace of requests that are never
// answered would otherwise keep 10,000 bodies' inputs. Past it a request
// waits with its inputs counted, not kept (one request alone always keeps
// them: the line bound covers it).
constexpr uint64_t kMaxPendingBytes = 8ull << 20;

uint64_t input_bytes(const RequestInfo& request) {
  uint64_t n = request.system.size();
  for (const auto& in : request.inputs) n += in.text.size();
  return n;
}

// Markdown that trace text cannot break out of: a fence longer than any run
// of backticks inside, a code span likewise, prose as a block quote (a
// "### Exchange" line in a message stays inside its message).
size_t longest_backtick_run(std::string_view s) {
  size_t longest = 0, run = 0;
  for (char c : s) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  return longest;
}

// Trace text passes safe_text here: bodies keep their lines, spans are one.
std::string fenced(std::string_view raw, std::string_view lang) {
  const std::string text = safe_text(raw, Lines::keep);
  const std::string fence(std::max<size_t>(3, longest_backtick_run(text) + 1), '`');
  return fence + std::string(lang) + "\n" + text + "\n" + fence + "\n\n";
}

// Prose keeps its Markdown (the model writes Markdown) but not raw HTML.
std::string block_quote(std::string_view raw) {
  const std::string safe = html_text(raw);
  std::string_view text = safe;
  std::string out;
  while (!text.empty()) {
    const size_t nl = text.find('\n');
    const std::string_view line = text.substr(0, nl);
    out += line.empty() ? ">\n" : "> " + std::string(line) + "\n";
    text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
  }
  return out + "\n";
}

std::string count(int64_t n) { return n < 0 ? std::string("?") : std::to_string(n); }

// The final figures the stream stated; cache reads and writes apart ("in"
// is what was not read from cache, for every provider: core/sse.h), each
// shown when there was some, so that the heading keeps to its width.
std::string usage_text(const RebuiltAnswer& a) {
  std::string s = "in " + count(a.input_tokens);
  if (a.cache_read_tokens > 0) s += " (cache read " + count(a.cache_read_tokens) + ")";
  if (a.cache_write_tokens > 0) s += " (cache write " + count(a.cache_write_tokens) + ")";
  s += " / out " + count(a.output_tokens);
  if (a.reasoning_tokens >= 0) s += " (reasoning " + count(a.reasoning_tokens) + ")";
  return s + " tokens";
}

// "choice 1 (an alternative ...)": the request asked for several choices.
std::string choice_label(int64_t choice) {
  return "choice " + std::to_string(choice) + " (the request asked for several; the harness takes choice 0)";
}

// What a cut response's views say of it.
constexpr std::string_view kCutNote =
    "cut: the recorder did not get the whole response (the stream broke or hit the size cap); what arrived is shown";

// The answer's text blocks, a blank line between them as the text view
// shows them (the stream's text deltas of two blocks do not join).
std::string joined_text(const RebuiltAnswer& a) {
  std::string out;
  bool first = true;
  for (const auto& b : answer_blocks(a)) {
    if (b.kind != RebuiltBlock::Kind::text || b.text.empty() || b.choice != 0) continue;  // choice 0: the one a harness takes
    if (!first) out += "\n\n";
    out += b.text;
    first = false;
  }
  return out;
}

const RebuiltToolCall* call_of(const RebuiltAnswer& a, const RebuiltBlock& b) {
  return b.call >= 0 && static_cast<size_t>(b.call) < a.tool_calls.size() ? &a.tool_calls[static_cast<size_t>(b.call)]
                                                                           : nullptr;
}

}  // namespace

std::string code_span(std::string_view raw) {
  if (raw.empty()) return "`-`";
  const std::string s = safe_text(raw);
  const size_t run = longest_backtick_run(s);
  if (run == 0) return "`" + std::string(s) + "`";
  const std::string ticks(run + 1, '`');
  return ticks + " " + std::string(s) + " " + ticks;  // CommonMark drops one space each side
}

const char* block_name(RebuiltBlock::Kind k) {
  switch (k) {
    case RebuiltBlock::Kind::text: return "text";
    case RebuiltBlock::Kind::tool_call: return "tool_call";
    case RebuiltBlock::Kind::thinking: return "thinking";
    case RebuiltBlock::Kind::redacted_thinking: return "redacted_thinking";
    case RebuiltBlock::Kind::reasoning: return "reasoning";
    case RebuiltBlock::Kind::tool_result: return "tool_result";
    case RebuiltBlock::Kind::other: return "other";
  }
  return "other";
}

// An answer built by hand (or read from a plain JSON message of old) may
// have text and calls but no blocks: they are its blocks then.
std::vector<RebuiltBlock> answer_blocks(const RebuiltAnswer& a) {
  if (!a.blocks.empty()) return a.blocks;
  std::vector<RebuiltBlock> out;
  if (!a.text.empty()) out.push_back({RebuiltBlock::Kind::text, "text", a.text, -1});
  for (size_t i = 0; i < a.tool_calls.size(); ++i) {
    out.push_back({RebuiltBlock::Kind::tool_call, a.tool_calls[i].kind, {}, static_cast<int64_t>(i)});
  }
  return out;
}

bool is_compaction(const RebuiltBlock& b) { return b.kind == RebuiltBlock::Kind::other && b.type == "compaction"; }

// A tool called with no arguments streams none: its input is {}.
std::string shown_input(const RebuiltToolCall& c) {
  return c.input.empty() && c.kind != "custom_tool_call" ? "{}" : c.input;
}

// Who sent an input: a fixed word, never the trace's own text.
std::string input_label(const NewInput& in) {
  if (in.kind == "developer") return "Developer";
  if (in.kind == "system") return "System";
  if (in.kind == "omitted") return "Omitted";
  if (in.kind == "assistant") return "Assistant";
  return "User";
}

std::string history_note(const NewInput& in) {
  if (in.history == "earlier") return "earlier turn, first seen in this request";
  if (in.history == "rewritten") return "rewritten: differs from what was sent before";
  if (in.history == "not_answered") return "not answered on this run's wire";
  return "";
}

std::string system_note(const RequestInfo& q) {
  if (q.system_same_as) return "system prompt: the same as in exchange " + std::to_string(q.system_same_as);
  return q.system_shown ? "system prompt (" + std::to_string(q.system_bytes) + " bytes)" : "";
}

std::string subagent_note(const RequestInfo& q) {
  if (!q.subagent_exchange) return "";
  return "subagent: opens with the prompt the model wrote in exchange " + std::to_string(q.subagent_exchange) + " (call " +
         safe_text(q.subagent_call) + ")";
}

bool ConversationVisitor::on_record(const Record& r, const Line&, const Digest&) {
  if (r.kind != Kind::wire) return true;
  uint64_t conn = 0, exchange = 0;
  (void)json::uint(r.body, "conn", &conn);
  (void)json::uint(r.body, "exchange", &exchange);
  std::string_view dir;
  (void)json::string(r.body, "dir", &dir);
  const auto key = std::make_pair(conn, exchange);
  std::string decoded;
  const std::string_view body = wire_body(r, &decoded);
  if (dir == "request") {
    if (pending_.size() >= kMaxPending) return true;
    RequestInfo request = read_request(body, r.seq, max_text_, parsers_, &memory_);
    for (uint64_t h : request.turn_hashes) memory_.add(h);
    for (uint64_t h : request.first_texts) {
      if (auto p = prompts_.find(h); p != prompts_.end()) {
        request.subagent_exchange = p->second.first;
        request.subagent_call = p->second.second;
      }
    }
    request.turn_hashes = {};
    request.first_texts = {};
    if (auto old = pending_.find(key); old != pending_.end()) pending_bytes_ -= input_bytes(old->second.first);
    if (pending_bytes_ > 0 && pending_bytes_ + input_bytes(request) > kMaxPendingBytes) {
      const size_t n = request.inputs.size();
      request.inputs_omitted += n;
      // A new vector, not an assignment into the old one's strings, which
      // would keep their capacity (the very bytes not to hold).
      request.system = {};
      request.inputs = std::vector<NewInput>{{"omitted",
                         std::to_string(n) + " inputs not kept: unanswered requests already held " +
                             std::to_string(kMaxPendingBytes >> 20) + " MiB of input",
                         "", 0, false}};
    }
    pending_bytes_ += input_bytes(request);
    pending_[key] = {std::move(request), r.t};
    return true;
  }
  Exchange e;
  e.number = ++count_;
  e.response_seq = r.seq;
  e.response_t = r.t;
  e.answer = read_response(r, body, parsers_);
  (void)json::boolean(r.body, "complete", &e.complete);
  if (auto it = pending_.find(key); it != pending_.end()) {
    pending_bytes_ -= input_bytes(it->second.first);
    e.request = std::move(it->second.first);
    e.request_t = it->second.second;
    e.has_request = true;
    pending_.erase(it);
    note_system(e);
  }
  memory_.add_answer(e.answer, parsers_.native);
  note_prompts(e);
  on_exchange_(e);
  return true;
}

// Bounds of what is kept to tell system prompts and subagent prompts apart.
constexpr size_t kMaxSystems = 10000, kMaxPrompts = 100000;

// The system prompt is shown when it differs from the previous exchange's:
// in full the first time, else by the exchange that showed it.
void ConversationVisitor::note_system(Exchange& e) {
  RequestInfo& q = e.request;
  if (q.system_hash == 0 || q.system_hash == last_system_) {
    last_system_ = q.system_hash;
    q.system = {};
    return;
  }
  last_system_ = q.system_hash;
  if (auto it = systems_.find(q.system_hash); it != systems_.end()) {
    q.system_same_as = it->second;
    q.system = {};
    return;
  }
  q.system_shown = true;
  if (systems_.size() < kMaxSystems) systems_[q.system_hash] = e.number;
}

// A tool call's `prompt` (Claude Code's Task: the subagent's first message,
// written by the model): a later request that opens with it is a subagent's.
void ConversationVisitor::note_prompts(const Exchange& e) {
  for (const auto& c : e.answer.tool_calls) {
    if (prompts_.size() >= kMaxPrompts || c.input.find("\"prompt\"") == std::string::npos) continue;
    auto root = parsers_.native.parse_copy(c.input, -1);
    std::string_view prompt;
    if (!root || root->at_key("prompt").get(prompt) || prompt.empty()) continue;
    prompts_.try_emplace(text_turn_hash("user", prompt), e.number, c.id);
  }
}

RecordMarks exchange_marks(const Exchange& e, const VerdictView& verdict) { return verdict.marks(e.response_seq); }

std::string format_exchange_text(const Exchange& e, const Style& st, const VerdictView* verdict) {
  const RebuiltAnswer& a = e.answer;
  const char mark = verdict ? verdict->mark_char(e.response_seq) : ' ';
  const std::string lead = std::string(mark == ' ' ? "--" : std::string(2, mark)) + " exchange " + std::to_string(e.number) +
                           " . seq " + (e.has_request ? std::to_string(e.request.seq) : std::string("?")) + " -> " +
                           std::to_string(e.response_seq);
  const std::string model = safe_text(a.model.empty() ? e.request.model : a.model);
  const std::string stop = (a.stop_reason.empty() ? "-" : safe_text(a.stop_reason)) + (e.complete ? "" : " CUT");
  const std::string usage = usage_text(a);
  // Nothing of the heading is cut to fit: when it is too long the model,
  // then the usage, go to a line of their own under it.
  std::string head = lead + " . " + model + " . " + stop + " . " + usage, below;
  if (columns(head) >= kWidth) {
    head = lead + " . " + stop + " . " + usage;
    below = "model " + model;
  }
  if (columns(head) >= kWidth) {
    head = lead + " . " + model + " . " + stop;
    below = usage;
  }
  if (columns(head) < kWidth) head += " " + std::string(kWidth - columns(head) - 1, '-');
  std::string out = st.paint(fit_columns(head, kWidth), mark == ' ' ? Color::dim : Color::red) + "\n";
  if (!below.empty()) out += st.paint(wrap(below, "   "), Color::dim);
  if (mark != ' ') out += st.paint(std::string("  ") + mark + " " + verdict->mark_text(e.response_seq), Color::red) + "\n";
  if (const std::string sub = subagent_note(e.request); !sub.empty()) out += st.paint(fit_columns("  (" + sub + ")", kWidth), Color::yellow) + "\n";
  if (const std::string sys = system_note(e.request); !sys.empty()) {
    out += st.paint("  " + sys, Color::blue) + "\n";
    if (e.request.system_shown) out += wrap(e.request.system, "    | ");
  }
  if (!e.complete) out += st.paint(wrap(std::string(kCutNote), "  "), Color::red);
  for (const auto& in : e.request.inputs) {
    std::string label = input_label(in);
    for (auto& ch : label) ch = static_cast<char>(ch >= 'A' && ch <= 'Z' ? ch - 'A' + 'a' : ch);
    const std::string note = history_note(in);
    out += st.paint(in.kind == "tool_result" ? "  tool result" + (in.tool_use_id.empty() ? "" : " " + safe_text(in.tool_use_id))
                                             : "  " + label,
                    Color::blue) +
           (in.is_error ? " " + st.paint("(error)", Color::red) : "") +
           (note.empty() ? "" : " " + st.paint("(" + note + ")", in.history == "earlier" ? Color::dim : Color::yellow)) + "\n";
    out += wrap(in.text, "    | ");
  }
  out += st.paint("  assistant" + (a.message_id.empty() ? "" : " " + safe_text(a.message_id)), Color::green) + "\n";
  if (!a.error.empty()) out += st.paint(wrap("(error) " + a.error, "    "), Color::red);
  bool first_text = true;
  int64_t choice = 0;
  for (const auto& b : answer_blocks(a)) {
    using K = RebuiltBlock::Kind;
    if (b.choice != choice) {  // each choice a request for several asked for, apart
      choice = b.choice;
      out += st.paint("  assistant, " + choice_label(choice), Color::green) + "\n";
      first_text = true;
    }
    if (b.kind == K::text && !b.text.empty()) {
      out += (first_text ? "" : "\n") + (b.type == "refusal" ? st.paint("    (refusal)", Color::red) + "\n" : "") + wrap(b.text, "    ");
      if (!b.detail.empty()) out += st.paint("    (cites)", Color::dim) + "\n" + st.paint(wrap(b.detail, "      "), Color::dim);
      first_text = false;
    } else if (b.kind == K::thinking || b.kind == K::reasoning) {
      out += st.paint(b.kind == K::thinking ? "    (thinking)" : "    (reasoning summary)", Color::dim) + "\n";
      out += st.paint(wrap(b.text, "    ~ "), Color::dim);
    } else if (b.kind == K::redacted_thinking) {
      out += st.paint("    (redacted thinking)", Color::dim) + "\n";
    } else if (is_compaction(b)) {
      out += st.paint("    (compaction: the summary that replaces the history from here on)", Color::dim) + "\n";
      out += st.paint(wrap(b.text, "    ~ "), Color::dim);
    } else if (const RebuiltToolCall* c = call_of(a, b)) {
      const std::string input = shown_input(*c);
      const std::string who = c->provider_run ? " (run by the provider)" : "";
      // A free-text input of several lines (a patch) is shown as a block.
      if (input.find('\n') == std::string::npos) {
        std::string line = "-> " + safe_text(c->name);
        line += who;
        line += ' ';
        line += input;
        out += wrap(line, "    ");
      } else {
        out += "    -> " + safe_text(c->name) + who + "\n" + wrap(input, "    | ");
      }
    } else if (b.kind == K::tool_result) {
      out += st.paint("    <- " + safe_text(b.type) + (b.text.empty() ? "" : " for " + safe_text(b.text)), Color::dim) +
             (b.is_error ? " " + st.paint("(error)", Color::red) : "") + "\n";
      if (!b.detail.empty()) out += st.paint(wrap(b.detail, "       "), Color::dim);
    }
  }
  return out;
}

std::string format_exchange_markdown(const Exchange& e, const VerdictView* verdict) {
  const RebuiltAnswer& a = e.answer;
  std::string out = "### Exchange " + std::to_string(e.number) + " (seq " +
                    (e.has_request ? std::to_string(e.request.seq) : std::string("?")) + " → " +
                    std::to_string(e.response_seq) + ")\n\n";
  if (verdict && verdict->mark_char(e.response_seq) != ' ') out += "**⚠ " + verdict->mark_text(e.response_seq) + "**\n\n";
  out += code_span(a.model.empty() ? e.request.model : a.model) + ", stop: " + code_span(a.stop_reason) + ", " +
         usage_text(a) + (a.message_id.empty() ? "" : ", " + code_span(a.message_id)) + "\n\n";
  if (const std::string sub = subagent_note(e.request); !sub.empty()) out += "*" + sub + "*\n\n";
  if (const std::string sys = system_note(e.request); !sys.empty()) {
    out += "**" + sys + "**\n\n" + (e.request.system_shown ? fenced(e.request.system, "") : "");
  }
  if (!e.complete) out += "**" + std::string(kCutNote) + "**\n\n";
  for (const auto& in : e.request.inputs) {
    const std::string note = history_note(in).empty() ? "" : " *(" + history_note(in) + ")*";
    out += in.kind == "tool_result" ? "**Tool result** " + code_span(in.tool_use_id) + (in.is_error ? " (error)" : "") + note + "\n\n" +
                                          fenced(in.text, "")
                                    : "**" + input_label(in) + "**" + note + "\n\n" + block_quote(in.text);
  }
  out += "**Assistant**\n\n";
  if (!a.error.empty()) out += "**Error** " + code_span(a.error) + "\n\n";
  int64_t choice = 0;
  for (const auto& b : answer_blocks(a)) {
    using K = RebuiltBlock::Kind;
    if (b.choice != choice) {
      choice = b.choice;
      out += "**Assistant, " + choice_label(choice) + "**\n\n";
    }
    if (b.kind == K::text && !b.text.empty()) {
      if (b.type == "refusal") out += "*Refusal*\n\n";
      out += block_quote(b.text);  // each block its own quote: blocks stay apart
      if (!b.detail.empty()) out += "*Cites*\n\n" + fenced(b.detail, "");
    } else if (b.kind == K::thinking || b.kind == K::reasoning) {
      out += std::string(b.kind == K::thinking ? "*Thinking*" : "*Reasoning summary*") + "\n\n" + block_quote(b.text);
    } else if (b.kind == K::redacted_thinking) {
      out += "*Redacted thinking*\n\n";
    } else if (is_compaction(b)) {
      out += "*Compaction summary* (replaces the history from here on)\n\n" + block_quote(b.text);
    } else if (const RebuiltToolCall* c = call_of(a, b)) {
      const std::string input = shown_input(*c);
      const bool json = input.starts_with('{') || input.starts_with('[');
      out += std::string(c->provider_run ? "**Provider tool call** " : "**Tool call** ") + code_span(c->name) + " " +
             code_span(c->id) + "\n\n" + fenced(input, json ? "json" : "");
    } else if (b.kind == K::tool_result) {
      out += "*Provider tool result* " + code_span(b.type) + (b.text.empty() ? "" : " for " + code_span(b.text)) +
             (b.is_error ? " (error)" : "") + "\n\n" + (b.detail.empty() ? "" : fenced(b.detail, ""));
    }
  }
  return out;
}

std::string format_exchange_json(const Exchange& e, const VerdictView* verdict) {
  const RebuiltAnswer& a = e.answer;
  std::string out;
  JsonWriter w(&out);
  w.begin_object().field("exchange", e.number);
  if (verdict) write_marks_json(w, exchange_marks(e, *verdict));
  if (e.has_request) w.field("request_seq", e.request.seq); else w.null_field("request_seq");
  w.field("response_seq", e.response_seq).field("model", a.model.empty() ? e.request.model : a.model);
  w.field("message_id", a.message_id).field("stop_reason", a.stop_reason).field("complete", e.complete);
  if (!a.error.empty()) w.field("error", a.error);
  w.field("text", joined_text(a));
  if (e.request.system_shown) {
    w.key("system").begin_object().field("text", e.request.system).field("bytes", e.request.system_bytes).end_object();
  } else if (e.request.system_same_as) {
    w.key("system").begin_object().field("same_as_exchange", e.request.system_same_as).end_object();
  }
  if (e.request.subagent_exchange) {
    w.key("subagent").begin_object().field("exchange", e.request.subagent_exchange).field("call_id", e.request.subagent_call).end_object();
  }
  w.key("tool_calls").begin_array();
  for (const auto& c : a.tool_calls) {
    w.begin_object().field("id", c.id).field("name", c.name).field("input", shown_input(c)).field("kind", c.kind);
    w.field("provider_run", c.provider_run).end_object();
  }
  w.end_array();
  // Every block in stream order; tool calls point into tool_calls.
  w.key("blocks").begin_array();
  for (const auto& b : answer_blocks(a)) {
    w.begin_object().field("type", block_name(b.kind)).field("provider_type", b.type);
    if (b.kind == RebuiltBlock::Kind::tool_call) w.field("tool_call", b.call);
    else if (b.kind == RebuiltBlock::Kind::tool_result) w.field("tool_use_id", b.text);
    else if (b.kind != RebuiltBlock::Kind::redacted_thinking) w.field("text", b.text);
    if (!b.detail.empty()) w.field("detail", b.detail);
    if (b.is_error) w.field("is_error", true);
    if (b.choice != 0) w.field("choice", b.choice);
    w.end_object();
  }
  w.end_array();
  w.key("usage").begin_object();
  auto figure = [&](std::string_view name, int64_t v) {
    if (v >= 0) w.field(name, v);
    else w.null_field(name);
  };
  figure("input_tokens", a.input_tokens);
  figure("output_tokens", a.output_tokens);
  figure("cache_read_input_tokens", a.cache_read_tokens);
  figure("cache_creation_input_tokens", a.cache_write_tokens);
  figure("reasoning_tokens", a.reasoning_tokens);
  w.end_object();
  w.key("input").begin_array();
  for (const auto& in : e.request.inputs) {
    w.begin_object().field("kind", in.kind).field("text", in.text);
    if (!in.tool_use_id.empty()) w.field("tool_use_id", in.tool_use_id);
    if (in.is_error) w.field("is_error", true);
    if (!in.history.empty()) w.field("history", in.history);
    w.end_object();
  }
  w.end_array().end_object();
  return out;
}

void mask_exchange(Exchange& e, cheat::CredentialMasker& masker) {
  auto mask = [&](std::string& s) {
    if (auto m = masker.mask(s)) s = std::move(*m);
  };
  for (auto& in : e.request.inputs) mask(in.text);
  mask(e.request.system);
  mask(e.answer.text);
  for (auto& c : e.answer.tool_calls) mask(c.input);
  for (auto& b : e.answer.blocks) {  // text, thinking and reasoning blocks, tool results' digests, as shown
    mask(b.text);
    mask(b.detail);
  }
}

namespace {

// The conversation in one format, chosen once per run: the verdict first
// (in the constructor), each exchange as its answer is rebuilt, then what
// closes the view.
class ConversationPrinter {
 public:
  ConversationPrinter() = default;
  ConversationPrinter(const ConversationPrinter&) = delete;
  ConversationPrinter& operator=(const ConversationPrinter&) = delete;
  virtual ~ConversationPrinter() = default;
  virtual void item(const Exchange& e) = 0;
  virtual void end() {}
  // How much of each new input's text an exchange keeps: the views for
  // people clip it, JSON keeps it whole.
  virtual size_t max_input_text() const { return 64 << 10; }
};

class TextConversation final : public ConversationPrinter {
 public:
  TextConversation(const VerdictView& verdict, const Style& style) : verdict_(verdict), style_(style) {
    print_text(std::cout, verdict.banner(style), style);
  }
  void item(const Exchange& e) override { print_text(std::cout, format_exchange_text(e, style_, &verdict_), style_); }

 private:
  const VerdictView& verdict_;
  Style style_;
};

class MarkdownConversation final : public ConversationPrinter {
 public:
  explicit MarkdownConversation(const VerdictView& verdict) : verdict_(verdict) {
    print_text(std::cout, verdict.banner_markdown(), Style::plain());
  }
  void item(const Exchange& e) override { print_text(std::cout, format_exchange_markdown(e, &verdict_), Style::plain()); }

 private:
  const VerdictView& verdict_;
};

class JsonConversation final : public ConversationPrinter {
 public:
  explicit JsonConversation(const VerdictView& verdict) : verdict_(verdict), stream_(std::cout, verdict, "exchanges") {}
  size_t max_input_text() const override { return SIZE_MAX; }
  void item(const Exchange& e) override { stream_.add(format_exchange_json(e, &verdict_)); }
  void end() override { stream_.end(); }

 private:
  const VerdictView& verdict_;
  JsonItemStream stream_;
};

// Prints the banner at once: the verdict comes before the first exchange.
std::unique_ptr<ConversationPrinter> make_conversation_printer(Format format, const Style& style,
                                                               const VerdictView& verdict) {
  switch (format) {
    case Format::markdown: return std::make_unique<MarkdownConversation>(verdict);
    case Format::json: return std::make_unique<JsonConversation>(verdict);
    case Format::text:
    case Format::jsonl:
    case Format::sarif: break;  // not offered by --format: text
  }
  return std::make_unique<TextConversation>(verdict, style);
}

}  // namespace

VerifyReport print_conversation(const std::string& path, const WalkOptions& options, Format format,
                                const Style& style, const VerdictView& verdict, cheat::CredentialMasker* masker) {
  const auto printer = make_conversation_printer(format, style, verdict);
  Exchange masked;
  ConversationVisitor v(
      [&](const Exchange& shown) {
        if (!masker) return printer->item(shown);
        masked = shown;  // masked before formatting: wrapping could split a key
        mask_exchange(masked, *masker);
        printer->item(masked);
      },
      printer->max_input_text(), options.limits);
  VerifyReport rep = walk_trace(path, options, &v);
  printer->end();
  return rep;
}

}  // namespace goalcup::inspect
