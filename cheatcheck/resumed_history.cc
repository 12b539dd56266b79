#include "cheatcheck/resumed_history.h"

#include <algorithm>
#include <array>
#include <optional>
#include <span>
#include <string_view>
#include <tuple>
#include <utility>

#include "cheatcheck/context.h"
#include "cheatcheck/said_text.h"
#include "core/json_digest.h"
#include "core/json_strict.h"
#include "core/limits.h"

namespace goalcup::cheat {
namespace {

// One item as compared: its role and kind, then its content (each part
// length first, so that no two item lists hash alike).
Digest history_item(std::string_view kind, std::initializer_list<std::string_view> parts) {
  Sha256 h;
  h.update(kind);
  for (std::string_view part : parts) {
    h.update("\n" + std::to_string(part.size()) + ":");
    h.update(part);
  }
  return h.finish();
}

std::string_view without_spaces_around(std::string_view s) {
  constexpr std::string_view kSpace = " \t\r\n";
  const size_t b = s.find_first_not_of(kSpace);
  if (b == std::string_view::npos) return {};
  return s.substr(b, s.find_last_not_of(kSpace) - b + 1);
}

Digest answer_text_item(std::string_view text) { return history_item("assistant-text", {without_spaces_around(text)}); }
Digest thinking_item(std::string_view text) { return history_item("assistant-thinking", {text}); }
Digest call_item(std::string_view id, std::string_view name, const Digest& input) {
  return history_item("assistant-call", {id, name, std::string_view(reinterpret_cast<const char*>(input.data()), input.size())});
}
Digest digest_item(std::string_view kind, std::string_view id, const Digest& value) {
  return history_item(kind, {id, std::string_view(reinterpret_cast<const char*>(value.data()), value.size())});
}
// What the provider gave the model that an answer's line copies (a
// citation, a redacted_thinking block's data), and a provider-run tool's
// result in it: by value, as GC04 compares them with the stream.
Digest copy_item(ProviderCopy::Kind kind, const Digest& value) {
  return digest_item("assistant-copy", std::to_string(static_cast<int>(kind)), value);
}
Digest server_result_item(std::string_view id, const Digest& content) {
  return digest_item("assistant-server-result", id, content);
}
Digest result_item(std::string_view id) { return history_item("user-result", {id}); }
// A user's text as Claude Code may send it: with <system-reminder> blocks
// of its own added, spacing aside. Nullopt when nothing else is left.
std::optional<Digest> user_text_item(std::string_view text) {
  const std::string loose = loose_text(without_reminders(text));
  if (loose.empty()) return std::nullopt;
  return history_item("user-text", {loose});
}

// Codex: a reasoning item by its summary parts (encrypted content is not
// logged by every release); a web search by the strings of its action.
Digest parts_item(std::string_view kind, std::span<const std::string> parts) {
  Sha256 h;
  h.update(kind);
  for (const std::string& part : parts) {
    h.update("\n" + std::to_string(part.size()) + ":");
    h.update(part);
  }
  return h.finish();
}
Digest reasoning_item(std::span<const std::string> parts) { return parts_item("assistant-reasoning", parts); }
Digest search_item(std::span<const std::string> strings) { return parts_item("assistant-search", strings); }

std::string_view string_member(simdjson::dom::object o, std::string_view key) {
  std::string_view s;
  return json::string(o, key, &s) == json::Get::ok ? s : std::string_view();
}

// A compaction's summary as Claude Code writes it: a user line marked
// isCompactSummary whose text opens with its fixed words (every release
// since 1.0: "This session is being continued from a previous
// conversation"). A mark on another prompt claims no compaction (red-team
// 104 #03: a real prompt marked so, after a boundary of the cheater's).
bool claude_compact_summary(const NativeInfo& n) {
  constexpr std::string_view kOpening = "This session is being continued from a previous conversation";
  return n.user && n.compact_summary && !n.user_texts.empty() &&
         without_spaces_around(n.user_texts.front()).starts_with(kOpening);
}

bool is_call(std::string_view type) { return type == "tool_use" || type == "server_tool_use" || type == "mcp_tool_use"; }

// What one message of a request carries, as items in the order sent. An
// assistant message's text blocks, and its thinking blocks, count also
// joined (a log of one line per answer joins them), placed at the last.
class SentReader {
 public:
  explicit SentReader(ResumedHistory::Sent& out) : out_(out) {}

  // A Responses input item as Codex sends its history: each item as its
  // rollout logs it (one message per item).
  void codex_item(simdjson::dom::object item, StrictJsonParser& arguments) {
    std::string_view type = string_member(item, "type"), role = string_member(item, "role"), text;
    ++message_;
    simdjson::dom::array parts;
    if (type == "message" && json::array(item, "content", &parts) == json::Get::ok) {
      std::string answer;
      for (auto part : parts) {
        simdjson::dom::object p;
        if (part.get(p)) continue;
        const std::string_view kind = string_member(p, "type");
        if (role == "assistant" && kind == "output_text") answer += string_member(p, "text");
        if (role != "assistant" && (kind == "input_text" || kind == "text") && json::string(p, "text", &text) == json::Get::ok) add_user(text);
      }
      if (role == "assistant" && !without_spaces_around(answer).empty()) add(answer_text_item(answer));
    } else if (type == "function_call" || type == "custom_tool_call") {
      (void)json::string(item, type == "function_call" ? "arguments" : "input", &text);
      add(call_item(string_member(item, "call_id"), string_member(item, "name"), json::text_value_digest(text, arguments)));
    } else if (type == "local_shell_call") {
      simdjson::dom::element action;
      const Digest digest = item.at_key("action").get(action) ? json::empty_object_digest() : json::value_digest(action);
      add(call_item(string_member(item, "call_id"), "local_shell", digest));
    } else if (type.ends_with("_output")) {
      add(result_item(string_member(item, "call_id")));
    } else if (type == "reasoning") {
      std::vector<std::string> summary;
      if (json::array(item, "summary", &parts) == json::Get::ok) {
        for (auto part : parts) {
          simdjson::dom::object p;
          if (!part.get(p)) summary.emplace_back(string_member(p, "text"));
        }
      }
      add(reasoning_item(summary));
    } else if (type == "web_search_call") {
      simdjson::dom::object action;
      if (json::object(item, "action", &action) == json::Get::ok) add(search_item(action_strings(action)));
    } else if (type == "code_interpreter_call") {
      const auto kind = ProviderCopy::Kind::code_interpreter;
      add(copy_item(kind, copy_digest(kind, item, kCodeInterpreterMembers)));
    }
  }

  void message(simdjson::dom::object m) {
    std::string_view role, text;
    ++message_;
    if (json::string(m, "role", &role) != json::Get::ok || (role != "user" && role != "assistant")) return;
    const bool assistant = role == "assistant";
    if (json::string(m, "content", &text) == json::Get::ok) return assistant ? add(answer_text_item(text)) : add_user(text);
    simdjson::dom::array blocks;
    if (json::array(m, "content", &blocks) != json::Get::ok) return;
    std::string texts, thinking;
    size_t text_blocks = 0, thinking_blocks = 0;
    for (auto block : blocks) {
      simdjson::dom::object b;
      std::string_view type;
      if (block.get(b) || json::string(b, "type", &type) != json::Get::ok) continue;
      simdjson::dom::element value;
      simdjson::dom::array citations;
      if (assistant && type == "text" && json::array(b, "citations", &citations) == json::Get::ok) {
        for (auto citation : citations) add(copy_item(ProviderCopy::Kind::citation, copy_digest(ProviderCopy::Kind::citation, citation)));
      }
      if (assistant && type == "text" && json::string(b, "text", &text) == json::Get::ok) {
        add(answer_text_item(text));
        texts += text;
        ++text_blocks;
      } else if (assistant && type == "redacted_thinking" && !b.at_key("data").get(value)) {
        const auto kind = ProviderCopy::Kind::redacted_thinking;
        add(copy_item(kind, copy_digest(kind, value)));
      } else if (assistant && type.ends_with("_tool_result")) {
        const Digest content = b.at_key("content").get(value) ? json::empty_object_digest() : json::value_digest(value);
        add(server_result_item(string_member(b, "tool_use_id"), content));
      } else if (assistant && type == "thinking" && json::string(b, "thinking", &text) == json::Get::ok) {
        add(thinking_item(text));
        thinking += text;
        ++thinking_blocks;
        out_.with_thinking.insert(message_);
      } else if (assistant && is_call(type)) {
        simdjson::dom::element input;
        const Digest digest = b.at_key("input").get(input) ? json::empty_object_digest() : json::value_digest(input);
        add(call_item(string_member(b, "id"), string_member(b, "name"), digest));
      } else if (!assistant && type == "tool_result" && json::string(b, "tool_use_id", &text) == json::Get::ok) {
        add(result_item(text));
      } else if (!assistant && type == "text" && json::string(b, "text", &text) == json::Get::ok) {
        add_user(text);
      }
    }
    if (text_blocks > 1) add(answer_text_item(texts));
    if (thinking_blocks > 1) add(thinking_item(thinking));
  }

 private:
  void add(const Digest& item) {
    if (out_.message_of.size() >= ResumedHistory::kMaxItems) return;
    out_.places[item].push_back(static_cast<uint32_t>(out_.message_of.size()));
    out_.message_of.push_back(message_);
  }
  void add_user(std::string_view text) {
    if (const auto item = user_text_item(text)) add(*item);
  }

  ResumedHistory::Sent& out_;
  uint32_t message_ = 0;
};

// Whether a request is Claude Code's compaction: its last user message
// asks, in its own text (not a tool result, not a <system-reminder>), for
// "a detailed summary of the conversation so far" (its compact prompt).
// Only such a request leaves the history's tail unsent for the compaction
// to keep (red-team 104 #09: a plain resume's boundary of a cheater's).
bool asks_for_compaction(simdjson::dom::array messages) {
  constexpr std::string_view kAsk = "detailed summary of the conversation so far";
  std::optional<simdjson::dom::object> last;
  for (auto m : messages) {
    simdjson::dom::object o;
    if (!m.get(o) && string_member(o, "role") == "user") last = o;
  }
  if (!last) return false;
  auto asks = [&](std::string_view text) { return without_reminders(text).find(kAsk) != std::string::npos; };
  std::string_view text;
  if (json::string(*last, "content", &text) == json::Get::ok) return asks(text);
  simdjson::dom::array blocks;
  if (json::array(*last, "content", &blocks) != json::Get::ok) return false;
  return std::any_of(blocks.begin(), blocks.end(), [&](simdjson::dom::element b) {
    simdjson::dom::object block;
    return !b.get(block) && string_member(block, "type") == "text" && asks(string_member(block, "text"));
  });
}

bool carries_answer(simdjson::dom::array messages) {
  return std::any_of(messages.begin(), messages.end(), [](simdjson::dom::element m) {
    simdjson::dom::object o;
    std::string_view role;
    return !m.get(o) && json::string(o, "role", &role) == json::Get::ok && role == "assistant";
  });
}

// A Codex request's input holding an item of the model's (history).
bool carries_codex_answer(simdjson::dom::array input) {
  return std::any_of(input.begin(), input.end(), [](simdjson::dom::element e) {
    simdjson::dom::object o;
    if (e.get(o)) return false;
    const std::string_view type = string_member(o, "type");
    return (type == "message" && string_member(o, "role") == "assistant") || type == "function_call" ||
           type == "custom_tool_call" || type == "local_shell_call" || type == "reasoning";
  });
}

// What a Codex line says, as items: an answer's text and calls, a
// reasoning summary, a web search; a user's texts and tool outputs.
std::vector<Digest> codex_line_items(const NativeInfo& n) {
  std::vector<Digest> items;
  if (n.type == "reasoning") items.push_back(reasoning_item(n.reasoning_parts));
  if (n.type == "web_search_call" && !n.searched.empty()) items.push_back(search_item(n.searched));
  for (const ProviderCopy& c : n.provider_copies) {
    if (c.kind == ProviderCopy::Kind::code_interpreter) items.push_back(copy_item(c.kind, c.value));
  }
  if (n.assistant) {
    if (!without_spaces_around(n.text).empty()) items.push_back(answer_text_item(n.text));
    for (const NativeCall& c : n.calls) items.push_back(call_item(c.id, c.name, c.input));
  } else if (n.user) {
    for (const std::string& text : n.user_texts) {
      if (const auto item = user_text_item(text)) items.push_back(*item);
    }
    for (const std::string& id : n.results) items.push_back(result_item(id));
  }
  return items;
}

// What a Claude Code line says, as items: an answer's thinking, text and
// calls; a user's texts and tool results.
std::vector<Digest> line_items(const NativeInfo& n) {
  if (n.harness == NativeInfo::Harness::codex) return codex_line_items(n);
  std::vector<Digest> items;
  if (n.assistant) {
    if (n.has_thinking) items.push_back(thinking_item(n.thinking));
    if (!without_spaces_around(n.text).empty()) items.push_back(answer_text_item(n.text));
    for (const NativeCall& c : n.calls) items.push_back(call_item(c.id, c.name, c.input));
    for (const ProviderCopy& c : n.provider_copies) items.push_back(copy_item(c.kind, c.value));
    for (const ServerResult& s : n.server_results) items.push_back(server_result_item(s.id, s.content));
  } else if (n.user) {
    for (const std::string& text : n.user_texts) {
      if (const auto item = user_text_item(text)) items.push_back(*item);
    }
    for (const std::string& id : n.results) items.push_back(result_item(id));
  }
  return items;
}

}  // namespace

namespace {

// Codex's options that take a value in the next argument (the CLI's and
// `exec`'s): a value is never the subcommand.
bool codex_option_takes_value(std::string_view a) {
  static constexpr std::array<std::string_view, 19> kValued = {
      "-c", "--config", "-m", "--model", "-p", "--profile", "-s", "--sandbox", "-a", "--ask-for-approval", "-C",
      "--cd", "-i", "--image", "--add-dir", "--local-provider", "--enable", "--disable", "--output-last-message"};
  return std::find(kValued.begin(), kValued.end(), a) != kValued.end() || a == "-o" || a == "--color" ||
         a == "--output-schema";
}

// The first argument from `from` on that is no option nor an option's
// value (a subcommand, or a prompt): its index, or none past a `--`
// (what follows is a prompt) or the end.
std::optional<size_t> codex_positional(const std::vector<std::string_view>& args, size_t from) {
  for (size_t i = from; i < args.size(); ++i) {
    const std::string_view a = args[i];
    if (a == "--") return std::nullopt;
    if (!a.starts_with("-")) return i;
    if (a.find('=') == std::string_view::npos && codex_option_takes_value(a)) ++i;
  }
  return std::nullopt;
}

// `codex resume ...`, `codex exec resume ...` (or `codex e resume`), and
// `codex fork ...` (the CLI's only: a new rollout whose first lines after
// its session_meta are a copy of the parent's, re-sent as history).
bool codex_argv_resumes(const std::vector<std::string_view>& args) {
  const std::optional<size_t> first = codex_positional(args, 0);
  if (!first) return false;
  if (args[*first] == "resume" || args[*first] == "fork") return true;
  if (args[*first] != "exec" && args[*first] != "e") return false;  // a prompt, or another subcommand
  const std::optional<size_t> second = codex_positional(args, *first + 1);
  return second && args[*second] == "resume";
}

// Codex's `exec` (or `e`) and `review` run without the TUI, which alone
// can resume a session from inside the run (its /resume picker).
bool codex_argv_runs_without_tui(const std::vector<std::string_view>& args) {
  const std::optional<size_t> first = codex_positional(args, 0);
  return first && (args[*first] == "exec" || args[*first] == "e" || args[*first] == "review");
}

std::vector<std::string_view> launch_args(simdjson::dom::object launch) {
  simdjson::dom::array argv;
  std::vector<std::string_view> args;
  if (json::array(launch, "argv", &argv) != json::Get::ok) return args;
  bool first = true;
  for (auto arg : argv) {
    std::string_view a;
    if (arg.get(a)) continue;
    if (std::exchange(first, false)) continue;  // the program
    if (args.size() >= 4096) break;
    args.push_back(a);
  }
  return args;
}

bool launches(simdjson::dom::object launch, std::string_view harness_id) {
  simdjson::dom::object harness;
  std::string_view id;
  return json::object(launch, "harness", &harness) == json::Get::ok && json::string(harness, "id", &id) == json::Get::ok &&
         id == harness_id;
}
bool launches_codex(simdjson::dom::object launch) { return launches(launch, "codex"); }

// Claude Code's `-c`/`--continue`, `-r`/`--resume` (with or without a
// session id) before any `--`.
bool claude_argv_resumes(const std::vector<std::string_view>& args) {
  for (std::string_view a : args) {
    if (a == "--") return false;  // what follows is not an option
    if (a == "-c" || a == "--continue" || a == "-r" || a == "--resume" || a.starts_with("--resume=")) return true;
  }
  return false;
}

// Claude Code's `-p`/`--print` (before any `--`): one prompt, no TUI.
bool claude_argv_prints(const std::vector<std::string_view>& args) {
  for (std::string_view a : args) {
    if (a == "--") return false;
    if (a == "-p" || a == "--print") return true;
  }
  return false;
}

}  // namespace

bool argv_resumes_inside(simdjson::dom::object launch) {
  const std::vector<std::string_view> args = launch_args(launch);
  if (launches_codex(launch)) return !codex_argv_resumes(args) && !codex_argv_runs_without_tui(args);
  return launches(launch, "claude-code") && !claude_argv_resumes(args) && !claude_argv_prints(args);
}

bool argv_resumes(simdjson::dom::object launch) {
  const std::vector<std::string_view> args = launch_args(launch);
  return launches_codex(launch) ? codex_argv_resumes(args) : claude_argv_resumes(args);
}

bool ResumedHistory::pre_run(const NativeInfo& n) const {
  return !requested_ && n.harness != NativeInfo::Harness::other && n.time && run_start_ && *n.time < *run_start_;
}

void ResumedHistory::on_native(uint64_t seq, const NativeInfo& n) {
  if (state_ != State::gathering || n.harness == NativeInfo::Harness::other) return;
  // Past the bounds a line is judged as it stands.
  if (lines_.size() >= kMaxLines || items_ >= kMaxItems) return;
  const Digest file = sha256(n.file);
  if (!files_.contains(file)) {
    if (files_.size() >= kMaxLines) return;
    files_.insert(file);
    if (!n.has_line_no || n.line_no != 1) refused_.insert(file);
  }
  // Only pre-run lines, but every file from its first line (Claude Code's
  // first lines carry no timestamp).
  if (pre_run_only_ && !pre_run(n)) return;
  // A resumed session's copy is its main chain: a sidechain's line is
  // never history a request re-sends.
  // Codex's session is the id its rollout's session_meta names.
  if (n.harness == NativeInfo::Harness::codex && !n.session_id.empty()) codex_sessions_[file] = clip_text(n.session_id);
  if (n.harness == NativeInfo::Harness::claude_code && n.compact_boundary && !refused_.contains(file) && !n.sidechain) {
    boundaries_[file] = seq;
  }
  // A Codex reasoning item or web search is the model's as its answers are.
  const bool model_said = n.assistant || (n.harness == NativeInfo::Harness::codex && (n.type == "reasoning" || n.type == "web_search_call" || n.type == "code_interpreter_call"));
  if (refused_.contains(file) || n.sidechain || (!model_said && !n.user)) return;
  std::vector<Digest> items = line_items(n);
  // Claude Code 2.1 logs an answer's leading "\n\n" text block as a line
  // of its own; the API takes no text of only white space, so it is never
  // sent again.
  const bool blank = n.assistant && items.empty() && !n.message_id.empty();
  if ((items.empty() && !blank) || items_ + items.size() > kMaxItems) return;
  items_ += items.size();
  const bool thinking_only = n.assistant && n.has_thinking && items.size() == 1 && !n.message_id.empty();
  const auto session = codex_sessions_.find(file);
  std::pair<std::string, std::string> named(clip_text(n.file), session != codex_sessions_.end() ? session->second : clip_text(n.session_id));
  if (names_.empty() || names_.back() != named) names_.push_back(std::move(named));
  if (model_said && !blank && !first_answer_) first_answer_ = lines_.size();
  lines_.push_back({seq, file, model_said, thinking_only, blank, sha256(n.message_id),
                    n.uuid.empty() ? Digest{} : sha256(n.uuid), std::move(items),
                    static_cast<uint32_t>(names_.size() - 1), claude_compact_summary(n)});
}

// Whether `sent` carries every item of the first answer gathered: one
// line's items, so each request costs only its own size.
bool ResumedHistory::resends_first_answer(const Sent& sent) const {
  if (!first_answer_) return false;
  const Line& line = lines_[*first_answer_];
  return std::all_of(line.items.begin(), line.items.end(), [&](const Digest& item) { return sent.places.contains(item); });
}

void ResumedHistory::on_request(uint64_t seq, simdjson::dom::object request, StrictJsonParser& arguments) {
  if (state_ != State::gathering) return;
  simdjson::dom::array messages, input;
  const bool has_messages = json::array(request, "messages", &messages) == json::Get::ok;
  bool anthropic = has_messages && carries_answer(messages);
  const bool responses = !anthropic && json::array(request, "input", &input) == json::Get::ok && carries_codex_answer(input);
  // A session resumed from a compaction's summary: its first request may
  // carry no answer, only the summary and the new prompt.
  const bool summarized = has_messages && !anthropic && !boundaries_.empty();
  if (!anthropic && !responses && !summarized) return;
  Sent sent;
  SentReader reader(sent);
  for (auto m : anthropic || summarized ? messages : input) {
    simdjson::dom::object o;
    if (m.get(o)) continue;
    if (anthropic || summarized) reader.message(o);
    else reader.codex_item(o, arguments);
  }
  if (summarized && !summary_sent(sent)) return;
  // Another thread's request, before the one that resumes the pre-run lines.
  if (pre_run_only_ && first_answer_ && !resends_first_answer(sent)) return;
  state_ = State::done;
  request_seq_ = seq;
  match(sent);
  if (anthropic && asks_for_compaction(messages)) await_boundary();
  lines_ = {};
  if (state_ == State::done) names_ = {};
}

// Keeps the Claude Code answers' lines the request did not send, by uuid,
// for the boundary of a partial compaction to name.
// Only the tail of a file's history, after every line the request re-sent
// (red-team 104 #09: a boundary naming an edited answer the request had
// re-sent as it was, earlier in the file, held it).
void ResumedHistory::await_boundary() {
  for (Line& line : lines_) {
    if (!line.assistant || line.uuid == Digest{} || history_.contains(line.seq) || superseded_.contains(line.seq)) {
      continue;
    }
    if (const auto resent = last_resent_.find(line.file); resent != last_resent_.end() && line.seq < resent->second) continue;
    unsent_[{line.file, line.uuid}].push_back(std::move(line));
  }
  if (!unsent_.empty()) state_ = State::awaiting_boundary;
}

void ResumedHistory::on_later_native(const NativeInfo& n) {
  if (state_ != State::awaiting_boundary || n.harness != NativeInfo::Harness::claude_code || !n.compact_boundary ||
      n.sidechain) {
    return;
  }
  const Digest file = sha256(n.file);
  for (const std::string& uuid : n.preserved_uuids) {
    const auto kept = unsent_.find(std::pair(file, sha256(uuid)));
    if (kept == unsent_.end()) continue;
    for (const Line& line : kept->second) hold(line);
    unsent_.erase(kept);
  }
  state_ = State::done;
  unsent_ = {};
  names_ = {};
}

// Whether `line` is a summary after its file's last boundary that the
// request sent, each of its items (Claude Code sends the summary first,
// before the tail of the conversation it keeps: not in file order).
// The summary is what the request sends first (red-team 104 #03): a
// request that re-sent history before it did not resume from it.
bool ResumedHistory::sent_summary(const Line& line, const Sent& sent) const {
  const auto boundary = boundaries_.find(line.file);
  if (!line.summary || boundary == boundaries_.end() || line.seq <= boundary->second || line.items.empty()) return false;
  const bool all_sent = std::all_of(line.items.begin(), line.items.end(), [&](const Digest& item) { return sent.places.contains(item); });
  if (!all_sent || sent.message_of.empty()) return false;
  const std::vector<uint32_t>& first = sent.places.at(line.items.front());
  return std::any_of(first.begin(), first.end(), [&](uint32_t place) { return sent.message_of[place] == sent.message_of.front(); });
}

bool ResumedHistory::summary_sent(const Sent& sent) const {
  return std::any_of(lines_.begin(), lines_.end(), [&](const Line& line) { return sent_summary(line, sent); });
}

// Each file's lines against the items sent, in order: a line is re-sent
// when every item it holds was sent after what the line before it that
// was re-sent matched. A line that was not re-sent moves nothing.
void ResumedHistory::match(const Sent& sent) {
  absl::flat_hash_map<Digest, uint32_t> next;  // per file: the first place its next line may match
  // (file, answer) of lines re-sent, and of those in a message that holds no thinking
  absl::flat_hash_set<std::pair<Digest, Digest>> resent_answers, bare;
  for (const Line& line : lines_) {
    if (line.blank) continue;
    uint32_t& from = next[line.file];
    uint32_t after = from;
    bool in_bare_message = false;
    const bool resent = std::all_of(line.items.begin(), line.items.end(), [&](const Digest& item) {
      const auto places = sent.places.find(item);
      if (places == sent.places.end()) return false;
      const auto at = std::lower_bound(places->second.begin(), places->second.end(), from);
      if (at == places->second.end()) return false;
      after = std::max(after, *at + 1);
      in_bare_message |= !sent.with_thinking.contains(sent.message_of[*at]);
      return true;
    });
    if (!resent) continue;
    from = after;
    last_resent_[line.file] = std::max(last_resent_[line.file], line.seq);
    if (!line.assistant) continue;
    hold(line);
    resent_answers.emplace(line.file, line.answer);
    if (in_bare_message && !line.thinking_only) bare.emplace(line.file, line.answer);
  }
  unsent_parts(bare, resent_answers);
  hold_superseded(sent);
}

// The lines of a file before its last compact_boundary, when a summary
// after that boundary was re-sent: the session was resumed from it.
void ResumedHistory::hold_superseded(const Sent& sent) {
  absl::flat_hash_set<Digest> resumed_files;
  for (const Line& line : lines_) {
    if (sent_summary(line, sent)) resumed_files.insert(line.file);
  }
  for (const Line& line : lines_) {
    if (!resumed_files.contains(line.file) || line.seq > boundaries_.at(line.file) || history_.contains(line.seq)) continue;
    superseded_.insert(line.seq);
    if (file_.empty()) std::tie(file_, session_) = names_[line.named];
  }
}

// An answer the request re-sent without its thinking (a harness may leave
// thinking out of the history it sends) cannot show that thinking: a line
// of the answer, in the same file, that holds only thinking is history with
// the rest of it. So is a line of a re-sent answer that holds only white
// space, which no request can carry.
void ResumedHistory::unsent_parts(const absl::flat_hash_set<std::pair<Digest, Digest>>& bare,
                                  const absl::flat_hash_set<std::pair<Digest, Digest>>& resent) {
  for (const Line& line : lines_) {
    if (history_.contains(line.seq)) continue;
    const std::pair key(line.file, line.answer);
    if ((line.thinking_only && bare.contains(key)) || (line.blank && resent.contains(key))) hold(line);
  }
}

void ResumedHistory::hold(const Line& line) {
  history_.insert(line.seq);
  if (file_.empty()) std::tie(file_, session_) = names_[line.named];
}

void follow_resumed_history(const Record& r, Context& ctx) {
  ResumedHistory& history = ctx.resumed_history();
  const LaunchFacts& launch = ctx.facts().launch;
  if (!launch.resumes && !launch.may_resume_inside) return;
  if (history.awaiting_boundary() && r.kind == Kind::native) return history.on_later_native(ctx.native());
  if (!history.deciding()) return;
  // A TUI may resume a session inside the run (its /resume): pre-run lines only.
  if (launch.may_resume_inside && r.kind == Kind::launch) history.only_pre_run(ctx.facts().start_at);
  if (r.kind == Kind::native) return history.on_native(r.seq, ctx.native());
  std::string_view dir;
  if (r.kind != Kind::wire || json::string(r.body, "dir", &dir) != json::Get::ok || dir != "request") return;
  history.saw_request();
  const WireBody& body = ctx.wire_body();
  if (!body.present || !body.content_readable() || body.content().empty() || body.content().front() != '{') return;
  const Result<simdjson::dom::element>& root = ctx.request_json();
  simdjson::dom::object o;
  if (root && !root->get(o)) history.on_request(r.seq, o, ctx.body_parser());
}

}  // namespace goalcup::cheat
