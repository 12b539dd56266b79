#include "inspect/exchange.h"

#include <absl/cleanup/cleanup.h>
#include <absl/hash/hash.h>

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <functional>

#include "cli/term.h"
#include "core/bodies.h"
#include "core/json_strict.h"
#include "core/keyring.h"
#include "core/statement.h"

namespace goalcup::inspect {
namespace {

std::string str(simdjson::dom::element e, std::string_view key) {
  simdjson::dom::object o;
  std::string_view v;
  if (e.get(o) || json::string(o, key, &v) != json::Get::ok) return {};
  return std::string(v);
}

std::string content_text(simdjson::dom::element content);

// The size of base64 data once decoded (a data: URL's part after its comma).
uint64_t decoded_size(std::string_view base64) {
  if (const size_t comma = base64.find(','); base64.starts_with("data:") && comma != std::string_view::npos) {
    base64.remove_prefix(comma + 1);
  }
  while (base64.ends_with('=')) base64.remove_suffix(1);
  return base64.size() / 4 * 3 + (base64.size() % 4 == 0 ? 0 : base64.size() % 4 - 1);
}

// A document or file sent beside the text (an Anthropic document block, a
// Responses input_file), which the model reads: a line naming it, then a
// plain-text document's own text; a PDF or other file by name and size.
// "" for any other block.
std::string attachment_text(simdjson::dom::element b, std::string_view type) {
  if (type == "input_file") {
    std::string name = str(b, "filename");
    if (name.empty()) name = str(b, "file_id");
    if (name.empty()) name = str(b, "file_url");
    const std::string data = str(b, "file_data");
    return "[file" + (name.empty() ? "" : " \"" + clip_text(name, 200) + "\"") +
           (data.empty() ? "" : ", " + human_bytes(decoded_size(data))) + "]";
  }
  if (type != "document") return {};
  const std::string title = str(b, "title");
  std::string head = "[document" + (title.empty() ? "" : " \"" + clip_text(title, 200) + "\"");
  simdjson::dom::element source, inner;
  if (b.at_key("source").get(source)) return head + "]";
  const std::string kind = str(source, "type"), media = str(source, "media_type");
  if (!media.empty()) head += " " + clip_text(media, 100);
  if (kind == "text") return head + "]\n" + str(source, "data");
  if (kind == "content" && !source.at_key("content").get(inner)) return head + "]\n" + content_text(inner);
  if (kind == "base64") head += ", " + human_bytes(decoded_size(str(source, "data")));
  if (kind == "url") head += " " + clip_text(str(source, "url"), 500);
  if (kind == "file") head += " " + clip_text(str(source, "file_id"), 200);
  return head + "]";
}

// The text of a content value: a string, or blocks with text.
std::string content_text(simdjson::dom::element content) {
  std::string_view s;
  if (!content.get(s)) return std::string(s);
  simdjson::dom::array blocks;
  std::string out;
  if (content.get(blocks)) return out;
  for (auto b : blocks) {
    std::string t = str(b, "text");
    if (t.empty()) {
      simdjson::dom::element inner;
      if (!b.at_key("content").get(inner)) t = content_text(inner);
    }
    // An image sent beside the text (a screenshot, a view_image result):
    // the page cannot show it, but a judge should see that one was sent.
    const std::string type = str(b, "type");
    if (t.empty() && (type == "image" || type == "input_image")) t = "[image]";
    if (t.empty()) t = attachment_text(b, type);
    if (!t.empty()) out += (out.empty() ? "" : "\n") + t;
  }
  return out;
}

// Inputs kept per request: a body of a million tiny messages must not cost
// a million entries. The rest are counted in one note.
constexpr size_t kMaxInputs = 1000;

void add_input(RequestInfo& info, NewInput in) {
  if (info.inputs.size() < kMaxInputs) {
    info.inputs.push_back(std::move(in));
    return;
  }
  if (info.inputs.size() == kMaxInputs) info.inputs.push_back({"omitted", "", "", 0, false});
  NewInput& note = info.inputs.back();
  note.text = std::to_string(++info.inputs_omitted) + " more inputs not shown";
  note.bytes = note.text.size();
}

// Codex's tool output: a string, or (code mode, view_image) a list of
// input_text and input_image items.
std::string output_text(simdjson::dom::element item) {
  simdjson::dom::element output;
  return item.at_key("output").get(output) ? std::string() : content_text(output);
}

// Anthropic marks a failed tool run (a test that failed, a command that
// could not run) with is_error; the views say so beside the result.
bool is_error(simdjson::dom::element block) {
  bool error = false;
  return !block.at_key("is_error").get(error) && error;
}

void add_blocks(simdjson::dom::element content, const std::string& role, RequestInfo& info, size_t max_text) {
  simdjson::dom::array blocks;
  if (content.get(blocks)) {
    const std::string text = content_text(content);
    add_input(info, {role, clip_text(text, max_text, ClipNote::more_bytes), "", text.size(), false});
    return;
  }
  for (auto b : blocks) {
    const std::string type = str(b, "type");
    simdjson::dom::element inner;
    if (type == "tool_result" || type == "function_call_output") {
      std::string text = !b.at_key("content").get(inner) ? content_text(inner) : output_text(b);
      std::string id = str(b, "tool_use_id");
      if (id.empty()) id = str(b, "call_id");
      add_input(info, {"tool_result", clip_text(text, max_text, ClipNote::more_bytes), id, text.size(), is_error(b)});
    } else if (!str(b, "text").empty()) {
      const std::string text = str(b, "text");
      add_input(info, {role, clip_text(text, max_text, ClipNote::more_bytes), "", text.size(), false});
    } else if (type == "image" || type == "input_image") {
      add_input(info, {role, "[image]", "", 0, false});
    } else if (const std::string attached = attachment_text(b, type); !attached.empty()) {
      add_input(info, {role, clip_text(attached, max_text, ClipNote::more_bytes), "", attached.size(), false});
    }
  }
}

// ---- Turns of a request's history, hashed so that a later request can be
// compared with what the wire carried before without keeping it.

std::string_view trimmed(std::string_view s) {
  constexpr std::string_view kSpace = " \t\r\n";
  const size_t a = s.find_first_not_of(kSpace);
  if (a == std::string_view::npos) return {};
  return s.substr(a, s.find_last_not_of(kSpace) - a + 1);
}

// A JSON value in one spelling: strings decoded, numbers as numbers (1.0
// and 1 alike), no white space. What a harness sends back for a tool call
// is its own re-serialisation of what the model streamed.
void canonical(simdjson::dom::element e, std::string& out) {
  switch (e.type()) {
    case simdjson::dom::element_type::OBJECT: {
      // Keys sorted: a harness in Python may send them back in its own order.
      std::vector<std::pair<std::string_view, simdjson::dom::element>> members;
      for (auto [k, v] : simdjson::dom::object(e)) members.emplace_back(k, v);
      std::sort(members.begin(), members.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
      out += '{';
      for (const auto& [k, v] : members) {
        out += std::to_string(k.size()) + ':' + std::string(k);
        canonical(v, out);
      }
      out += '}';
      return;
    }
    case simdjson::dom::element_type::ARRAY:
      out += '[';
      for (auto v : simdjson::dom::array(e)) canonical(v, out);
      out += ']';
      return;
    case simdjson::dom::element_type::STRING: {
      const std::string_view v = e.get_string().value_unsafe();
      out += 's' + std::to_string(v.size()) + ':' + std::string(v);
      return;
    }
    case simdjson::dom::element_type::BOOL: out += e.get_bool().value_unsafe() ? 'T' : 'F'; return;
    case simdjson::dom::element_type::NULL_VALUE: out += 'N'; return;
    default: {
      double d = 0;
      if (e.get_double().get(d)) d = 0;
      char buf[40];
      std::snprintf(buf, sizeof buf, "n%.17g", d);
      out += buf;
    }
  }
}

// A tool call's input as canonical JSON (its text when it is not JSON: a
// custom tool's free text).
std::string canonical_input(std::string_view input, StrictJsonParser& parser) {
  if (trimmed(input).empty()) return "{}";
  auto root = parser.parse_copy(input, -1);
  if (!root) return std::string(input);
  std::string out;
  canonical(*root, out);
  return out;
}

uint64_t call_turn_hash(std::string_view id, std::string_view name, std::string_view canonical_input) {
  return absl::HashOf(std::string_view("call"), id, name, canonical_input);
}

uint64_t result_turn_hash(std::string_view id, std::string_view text) {
  return absl::HashOf(std::string_view("result"), id, trimmed(text));
}

// One turn of a request: a text, a tool call or a tool result.
struct Turn {
  std::string kind;  // as NewInput::kind
  std::string owned;  // the text as shown, when made here...
  std::string id;
  bool is_error = false;
  uint64_t hash = 0;
  // ... else a view of it in the request's parse: a long prompt is hashed
  // without a copy of it (the views' memory bound counts the body's bytes).
  std::string_view view = {};
  bool viewed = false;
  std::string_view text() const { return viewed ? view : std::string_view(owned); }
};

Turn viewed_turn(std::string kind, std::string_view text, uint64_t hash) {
  return {std::move(kind), {}, {}, false, hash, text, true};
}

// A member's string as a view of the parse ("" when absent or not a string).
std::string_view str_view(simdjson::dom::element e, std::string_view key) {
  std::string_view v;
  simdjson::dom::element m;
  if (e.at_key(key).get(m) || m.get(v)) return {};
  return v;
}

using TurnSink = std::function<void(Turn&&)>;

void assistant_call(std::string_view id, std::string_view name, std::string input_text, std::string canon, const TurnSink& sink) {
  const uint64_t h = call_turn_hash(id, name, canon);
  sink({"assistant", "-> " + std::string(name) + " " + input_text, std::string(id), false, h});
}

void assistant_turns(simdjson::dom::element item, StrictJsonParser& parser, const TurnSink& sink) {
  simdjson::dom::element content;
  if (!item.at_key("content").get(content)) {
    std::string_view s;
    simdjson::dom::array blocks;
    if (!content.get(s) && !trimmed(s).empty()) sink(viewed_turn("assistant", s, text_turn_hash("assistant", s)));
    if (!content.get(blocks)) {
      for (auto b : blocks) {
        const std::string type = str(b, "type");
        const std::string_view text = str_view(b, "text");
        simdjson::dom::element input;
        if (!trimmed(text).empty()) {
          sink(viewed_turn("assistant", text, text_turn_hash("assistant", text)));
        } else if ((type == "tool_use" || type == "server_tool_use" || type == "mcp_tool_use") && !b.at_key("input").get(input)) {
          std::string canon;
          canonical(input, canon);
          assistant_call(str(b, "id"), str(b, "name"), simdjson::minify(input), canon, sink);
        }
      }
    }
  }
  simdjson::dom::array calls;  // Chat Completions
  if (!item.at_key("tool_calls").get(calls)) {
    for (auto c : calls) {
      simdjson::dom::element fn;
      if (c.at_key("function").get(fn)) continue;
      const std::string args = str(fn, "arguments");
      assistant_call(str(c, "id"), str(fn, "name"), args, canonical_input(args, parser), sink);
    }
  }
}

// Each turn an item of messages[] / input[] carries, in order. Thinking and
// reasoning are left out: harnesses drop them from older turns, and send
// them back encrypted or signed (the provider refuses a changed one).
void item_turns(simdjson::dom::element item, StrictJsonParser& parser, const TurnSink& sink) {
  const std::string type = str(item, "type"), role = str(item, "role");
  if (type == "function_call" || type == "custom_tool_call") {
    const std::string input = str(item, type == "function_call" ? "arguments" : "input");
    return assistant_call(str(item, "call_id"), str(item, "name"), input, canonical_input(input, parser), sink);
  }
  if (type == "function_call_output" || type == "custom_tool_call_output") {
    const std::string out = output_text(item), id = str(item, "call_id");
    return sink({"tool_result", out, id, false, result_turn_hash(id, out)});
  }
  if (role == "assistant") return assistant_turns(item, parser, sink);
  simdjson::dom::element content;
  if (item.at_key("content").get(content)) return;
  if (role == "tool") {  // Chat Completions
    const std::string out = content_text(content), id = str(item, "tool_call_id");
    return sink({"tool_result", out, id, false, result_turn_hash(id, out)});
  }
  const std::string who = role.empty() ? "user" : role;
  simdjson::dom::array blocks;
  std::string_view plain;
  if (!content.get(plain)) {
    if (!trimmed(plain).empty()) sink(viewed_turn(who, plain, text_turn_hash(who, plain)));
    return;
  }
  if (content.get(blocks)) return;
  for (auto b : blocks) {
    const std::string btype = str(b, "type");
    const std::string_view text = str_view(b, "text");
    simdjson::dom::element inner;
    if (btype == "tool_result" || btype == "function_call_output") {
      const std::string out = !b.at_key("content").get(inner) ? content_text(inner) : output_text(b);
      std::string id = str(b, "tool_use_id");
      if (id.empty()) id = str(b, "call_id");
      sink({"tool_result", out, id, is_error(b), result_turn_hash(id, out)});
    } else if (!trimmed(text).empty()) {
      sink(viewed_turn(who, text, text_turn_hash(who, text)));
    } else if (btype == "image" || btype == "input_image") {
      std::string_view data;
      simdjson::dom::element e;
      if ((!b.at_pointer("/source/data").get(e) || !b.at_key("image_url").get(e)) && e.get(data)) data = {};
      sink({who, "[image]", "", false, absl::HashOf(std::string_view("image"), data)});
    }
  }
}

// Turns of the history past this many are counted, not shown: the first
// request of a resumed session may carry thousands.
constexpr size_t kMaxHistoryShown = 500;

// The turns before the request's new input that `memory` does not hold.
void add_history(const std::vector<simdjson::dom::element>& history, const TurnMemory& memory, StrictJsonParser& parser,
                 RequestInfo& info, size_t max_text) {
  bool continues = false;  // some turn was seen before: the request re-sends a known conversation
  std::vector<Turn> unseen;
  for (auto item : history) {
    item_turns(item, parser, [&](Turn&& t) {
      info.turn_hashes.push_back(t.hash);
      if (memory.seen(t.hash)) {
        continues = true;
      } else if (!memory.full()) {
        if (unseen.size() < kMaxHistoryShown) unseen.push_back(std::move(t));
        else ++info.history_omitted;
      }
    });
  }
  for (auto& t : unseen) {
    const std::string note = t.kind == "assistant" ? "not_answered" : continues ? "rewritten" : "earlier";
    const uint64_t size = t.text().size();
    add_input(info, {t.kind, clip_text(t.text(), max_text, ClipNote::more_bytes), t.id, size, t.is_error, note});
  }
  if (info.history_omitted) {
    add_input(info, {"omitted", std::to_string(info.history_omitted) + " more earlier turns not shown", "", 0, false, "earlier"});
  }
}

// Anthropic `system` (a string or text blocks), OpenAI Responses `instructions`.
void read_system(simdjson::dom::element root, RequestInfo& info, size_t max_text) {
  simdjson::dom::element system;
  if (root.at_key("system").get(system) && root.at_key("instructions").get(system)) return;
  const std::string text = content_text(system);
  if (trimmed(text).empty()) return;
  info.system_bytes = text.size();
  info.system_hash = absl::HashOf(std::string_view("system"), std::string_view(text));
  info.system = clip_text(text, max_text, ClipNote::more_bytes);
}

}  // namespace

uint64_t text_turn_hash(std::string_view role, std::string_view text) {
  return absl::HashOf(std::string_view("text"), role, trimmed(text));
}

void TurnMemory::add_answer(const RebuiltAnswer& a, StrictJsonParser& parser) {
  for (const auto& b : a.blocks) {
    if (b.kind == RebuiltBlock::Kind::text) add(text_turn_hash("assistant", b.text));
  }
  if (!a.text.empty()) add(text_turn_hash("assistant", a.text));  // the blocks as one message (Chat Completions)
  for (const auto& c : a.tool_calls) add(call_turn_hash(c.id, c.name, canonical_input(c.input, parser)));
}

RequestInfo read_request(std::string_view body, uint64_t seq, size_t max_text, BodyParsers& parsers, const TurnMemory* memory) {
  RequestInfo info;
  info.seq = seq;
  info.body_bytes = body.size();
  auto root = parsers.request.parse_copy(body, static_cast<int64_t>(seq));
  // What is kept is copied out: a huge body's parse goes at once, so that
  // views sharing a walk (html: summary and conversation) hold one at a time.
  const absl::Cleanup release = [&] { parsers.request.release_if_large(body.size()); };
  if (!root) {
    if (code_class(root.error().code) == ErrorClass::limit) info.unread = code_name(root.error().code);
    return info;
  }
  info.model = str(*root, "model");
  if (memory) read_system(*root, info, max_text);
  simdjson::dom::array items;
  // Anthropic: messages[]; OpenAI Responses: input[] (or a plain string).
  if (root->at_key("messages").get(items) && root->at_key("input").get(items)) {
    std::string_view s;
    if (root->at_key("input").get(s)) return info;
    add_input(info, {"user", clip_text(s, max_text, ClipNote::more_bytes), "", s.size(), false});
    if (memory) info.first_texts.push_back(text_turn_hash("user", s)), info.turn_hashes.push_back(text_turn_hash("user", s));
    return info;
  }
  // The new input is what follows the last assistant turn.
  std::vector<simdjson::dom::element> history, tail;
  for (auto item : items) {
    const std::string role = str(item, "role");
    if (role == "assistant" || str(item, "type") == "function_call") {
      if (memory) history.insert(history.end(), tail.begin(), tail.end()), history.push_back(item);
      tail.clear();
    } else {
      tail.push_back(item);
    }
  }
  if (memory) {
    if (items.size() > 0) {
      item_turns(items.at(0).value_unsafe(), parsers.native, [&](Turn&& t) {
        if (t.kind != "assistant" && t.kind != "tool_result") info.first_texts.push_back(t.hash);
      });
    }
    add_history(history, *memory, parsers.native, info, max_text);
    for (auto item : tail) item_turns(item, parsers.native, [&](Turn&& t) { info.turn_hashes.push_back(t.hash); });
  }
  for (auto item : tail) {
    const std::string type = str(item, "type");
    // function_call_output, custom_tool_call_output, local_shell_call_output...
    if (type.ends_with("_call_output")) {
      const std::string output = output_text(item);
      add_input(info, {"tool_result", clip_text(output, max_text, ClipNote::more_bytes), str(item, "call_id"), output.size(), false});
      continue;
    }
    simdjson::dom::element tool_content;
    if (str(item, "role") == "tool" && !item.at_key("content").get(tool_content)) {  // Chat Completions
      const std::string output = content_text(tool_content);
      add_input(info, {"tool_result", clip_text(output, max_text, ClipNote::more_bytes), str(item, "tool_call_id"), output.size(), false});
      continue;
    }
    simdjson::dom::element content;
    if (!item.at_key("content").get(content)) add_blocks(content, str(item, "role").empty() ? "user" : str(item, "role"), info, max_text);
  }
  return info;
}

std::string_view wire_body(const Record& r, std::string* decoded, size_t max) {
  WireBody body = read_wire_body(r.body, max);
  if (!body.content_encoding.empty()) {
    *decoded = std::move(body.inflated);  // the content the message carried, not its compressed bytes
    return *decoded;
  }
  if (!body.base64) return body.stored;
  *decoded = std::move(body.decoded);
  return *decoded;
}

RebuiltAnswer read_answer(std::string_view body, BodyParsers& parsers) {
  if (looks_like_sse(body)) return rebuild_answer(body, parsers.limits);
  return rebuild_message(body, parsers.limits);  // a Message returned whole
}

RebuiltAnswer read_response(const Record& r, std::string_view body, BodyParsers& parsers) {
  RebuiltAnswer a = read_answer(body, parsers);
  int64_t status = 0;
  if (json::integer(r.body, "status", &status) == json::Get::ok && status >= 400) {
    a.error = "HTTP " + std::to_string(status) + (a.error.empty() ? "" : " " + a.error);
  }
  return a;
}

bool answer_failed(const RebuiltAnswer& a) { return !a.error.empty(); }

std::string describe(const Record& r, BodyParsers& parsers) {
  std::string_view s;
  auto get = [&](std::string_view key) {
    s = {};
    (void)json::string(r.body, key, &s);
    return std::string(s);
  };
  switch (r.kind) {
    case Kind::wire: {
      uint64_t size = 0;
      (void)json::uint(r.body, "size", &size);
      if (get("dir") == "request") return get("method") + " " + get("host") + get("path") + " " + human_bytes(size);
      int64_t status = 0;
      (void)json::integer(r.body, "status", &status);
      std::string out = std::to_string(status);
      std::string decoded;
      const std::string_view body = wire_body(r, &decoded);
      if (looks_like_sse(body)) {
        RebuiltAnswer a = rebuild_answer(body, parsers.limits);
        out += " SSE " + (a.message_id.size() > 14 ? a.message_id.substr(0, 14) + "\u2026" : a.message_id);
        if (!a.stop_reason.empty()) out += " " + a.stop_reason;
        for (const auto& c : a.tool_calls) out += " " + c.name;
      } else {
        out += " " + human_bytes(size);
      }
      bool complete = true;
      (void)json::boolean(r.body, "complete", &complete);
      if (!complete) out += " CUT";  // the recorder did not get the whole response
      return out;
    }
    case Kind::native: {
      std::string_view text;
      (void)json::string(r.body, "text", &text);
      auto root = parsers.native.parse_copy(text, -1);
      if (!root) return "native (not JSON)";
      std::string type = str(*root, "type");
      simdjson::dom::element payload;
      if (!root->at_key("payload").get(payload)) {
        const std::string ptype = str(payload, "type"), role = str(payload, "role");
        return "native " + (ptype.empty() ? type : ptype) + (role.empty() ? "" : " " + role);
      }
      simdjson::dom::element message, content;
      std::string what;
      if (!root->at_key("message").get(message) && !message.at_key("content").get(content)) {
        simdjson::dom::array blocks;
        if (!content.get(blocks)) {
          for (auto b : blocks) {
            const std::string t = str(b, "type");
            what += " " + (t == "tool_use" ? "tool_use " + str(b, "name") : t);
          }
        } else {
          what = " text";
        }
      }
      return "native " + type + what;
    }
    case Kind::gap: return "gap " + get("gap");
    case Kind::tunnel: return "tunnel " + get("host");
    case Kind::exit: {
      int64_t code = 0;
      return json::integer(r.body, "code", &code) == json::Get::ok ? "exit code " + std::to_string(code) : "exit (signal)";
    }
    case Kind::seal: return "seal " + get("reason");
    case Kind::header: return "header " + get("entry_id");
    case Kind::launch: {
      std::string_view id;
      simdjson::dom::element e;
      if (r.body.at_pointer("/harness/id").get(e) || e.get(id)) id = "?";
      return "launch " + std::string(id);
    }
    case Kind::start_receipt:
    case Kind::ack:
    case Kind::seal_ack: {
      auto env = decode_envelope(r.body, static_cast<int64_t>(r.seq));
      auto st = env ? parse_statement(env->payload, parsers.statement, -1) : Result<Statement>(Error{Code::statement_payload, -1, ""});
      if (!st) return std::string(kind_name(r.kind)) + " (unreadable)";
      return std::string(kind_name(r.kind)) + " covers seq " + std::to_string(st->seq) + ", server " + st->at_text;
    }
    default: return std::string(kind_name(r.kind)) + (r.kind == Kind::unknown ? " " + std::string(r.kind_text) : "");
  }
}

}  // namespace goalcup::inspect
