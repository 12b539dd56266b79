#include "inspect/conversation.h"

#include <iostream>

#include "cli/json_writer.h"
#include "cli/safe_text.h"
#include "core/json_strict.h"
#include "inspect/text.h"

namespace goalcup::inspect {
namespace {

constexpr size_t kMaxPending = 10000;  // requests waiting for an answer

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

std::string code_span(std::string_view raw) {
  if (raw.empty()) return "`-`";
  const std::string s = safe_text(raw);
  const size_t run = longest_backtick_run(s);
  if (run == 0) return "`" + std::string(s) + "`";
  const std::string ticks(run + 1, '`');
  return ticks + " " + std::string(s) + " " + ticks;  // CommonMark drops one space each side
}

std::string block_quote(std::string_view raw) {
  const std::string safe = safe_text(raw, Lines::keep);
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

std::string usage_text(const RebuiltAnswer& a) {
  return "in " + (a.input_tokens < 0 ? std::string("?") : std::to_string(a.input_tokens)) + " / out " +
         (a.output_tokens < 0 ? std::string("?") : std::to_string(a.output_tokens)) + " tokens";
}

}  // namespace

bool ConversationVisitor::on_record(const Record& r, const Line&, const Digest&) {
  if (r.kind != Kind::wire) return true;
  uint64_t conn = 0, exchange = 0;
  (void)json::uint(r.body, "conn", &conn);
  (void)json::uint(r.body, "exchange", &exchange);
  std::string_view dir;
  (void)json::string(r.body, "dir", &dir);
  const auto key = std::make_pair(conn, exchange);
  if (dir == "request") {
    if (pending_.size() < kMaxPending) pending_[key] = {read_request(wire_bytes(r), r.seq, max_text_), r.t};
    return true;
  }
  Exchange e;
  e.number = ++count_;
  e.response_seq = r.seq;
  e.response_t = r.t;
  e.answer = read_answer(wire_bytes(r));
  if (auto it = pending_.find(key); it != pending_.end()) {
    e.request = std::move(it->second.first);
    e.request_t = it->second.second;
    e.has_request = true;
    pending_.erase(it);
  }
  on_exchange_(e);
  return true;
}

RecordMarks exchange_marks(const Exchange& e, const VerdictView& verdict) { return verdict.marks(e.response_seq); }

std::string format_exchange_text(const Exchange& e, const Style& st, const VerdictView* verdict) {
  const RebuiltAnswer& a = e.answer;
  const char mark = verdict ? verdict->mark_char(e.response_seq) : ' ';
  std::string head = std::string(mark == ' ' ? "--" : std::string(2, mark)) + " exchange " + std::to_string(e.number) + " . seq " +
                     (e.has_request ? std::to_string(e.request.seq) : std::string("?")) + " -> " +
                     std::to_string(e.response_seq) + " . " + safe_text(a.model.empty() ? e.request.model : a.model) +
                     " . " + (a.stop_reason.empty() ? "-" : safe_text(a.stop_reason)) + " . " + usage_text(a);
  if (columns(head) < kWidth) head += " " + std::string(kWidth - columns(head) - 1, '-');
  std::string out = st.paint(fit_columns(head, kWidth), mark == ' ' ? Color::dim : Color::red) + "\n";
  if (mark != ' ') out += st.paint(std::string("  ") + mark + " " + verdict->mark_text(e.response_seq), Color::red) + "\n";
  for (const auto& in : e.request.inputs) {
    out += st.paint(in.kind == "tool_result" ? "  tool result" + (in.tool_use_id.empty() ? "" : " " + safe_text(in.tool_use_id))
                                             : "  user",
                    Color::blue) + "\n";
    out += wrap(in.text, "    | ");
  }
  out += st.paint("  assistant" + (a.message_id.empty() ? "" : " " + safe_text(a.message_id)), Color::green) + "\n";
  if (!a.text.empty()) out += wrap(a.text, "    ");
  for (const auto& c : a.tool_calls) {
    // A free-text input of several lines (a patch) is shown as a block.
    if (c.input.find('\n') == std::string::npos) out += wrap("-> " + safe_text(c.name) + " " + c.input, "    ");
    else out += "    -> " + safe_text(c.name) + "\n" + wrap(c.input, "    | ");
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
  for (const auto& in : e.request.inputs) {
    out += in.kind == "tool_result" ? "**Tool result** " + code_span(in.tool_use_id) + "\n\n" + fenced(in.text, "")
                                    : "**User**\n\n" + block_quote(in.text);
  }
  out += "**Assistant**\n\n" + (a.text.empty() ? std::string() : block_quote(a.text));
  for (const auto& c : a.tool_calls) {
    const bool json = c.input.starts_with('{') || c.input.starts_with('[');
    out += "**Tool call** " + code_span(c.name) + " " + code_span(c.id) + "\n\n" + fenced(c.input, json ? "json" : "");
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
  w.field("message_id", a.message_id).field("stop_reason", a.stop_reason).field("text", a.text);
  w.key("tool_calls").begin_array();
  for (const auto& c : a.tool_calls) w.begin_object().field("id", c.id).field("name", c.name).field("input", c.input).end_object();
  w.end_array();
  w.key("usage").begin_object();
  if (a.input_tokens >= 0) w.field("input_tokens", a.input_tokens); else w.null_field("input_tokens");
  if (a.output_tokens >= 0) w.field("output_tokens", a.output_tokens); else w.null_field("output_tokens");
  w.end_object();
  w.key("input").begin_array();
  for (const auto& in : e.request.inputs) {
    w.begin_object().field("kind", in.kind).field("text", in.text);
    if (!in.tool_use_id.empty()) w.field("tool_use_id", in.tool_use_id);
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
  mask(e.answer.text);
  for (auto& b : e.answer.text_blocks) mask(b);
  for (auto& c : e.answer.tool_calls) mask(c.input);
}

VerifyReport print_conversation(const std::string& path, const WalkOptions& options, ConversationFormat format,
                                const Style& style, const VerdictView& verdict, cheat::CredentialMasker* masker) {
  bool first = true;
  switch (format) {
    case ConversationFormat::text: print_text(std::cout, verdict.banner(style), style); break;
    case ConversationFormat::markdown: print_text(std::cout, verdict.banner_markdown(), Style::plain()); break;
    case ConversationFormat::json: {
      std::string head;
      JsonWriter w(&head);
      w.begin_object().field("file", verdict.report().file).field("verdict", verdict_name(verdict.report().verdict));
      w.key("verify");
      write_verify_json(w, verdict.report());
      // The object stays open: the exchanges follow as they are rebuilt.
      std::cout << head << ",\"exchanges\":[";
      break;
    }
  }
  Exchange masked;
  ConversationVisitor v(
      [&](const Exchange& shown) {
        const Exchange* ep = &shown;
        if (masker) {  // before formatting: wrapping could split a key
          masked = shown;
          mask_exchange(masked, *masker);
          ep = &masked;
        }
        const Exchange& e = *ep;
        switch (format) {
          case ConversationFormat::text: print_text(std::cout, format_exchange_text(e, style, &verdict), style); break;
          case ConversationFormat::markdown: print_text(std::cout, format_exchange_markdown(e, &verdict), Style::plain()); break;
          case ConversationFormat::json: std::cout << (first ? "\n" : ",\n") << format_exchange_json(e, &verdict); break;
        }
        first = false;
      },
      format == ConversationFormat::json ? SIZE_MAX : 64 << 10);
  VerifyReport rep = walk_trace(path, options, &v);
  if (format == ConversationFormat::json) std::cout << (first ? "]}\n" : "\n]}\n");
  return rep;
}

}  // namespace goalcup::inspect
