#include "inspect/exchange.h"

#include <absl/cleanup/cleanup.h>

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
    }
  }
}

}  // namespace

RequestInfo read_request(std::string_view body, uint64_t seq, size_t max_text, BodyParsers& parsers) {
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
  simdjson::dom::array items;
  // Anthropic: messages[]; OpenAI Responses: input[] (or a plain string).
  if (root->at_key("messages").get(items) && root->at_key("input").get(items)) {
    std::string_view s;
    if (!root->at_key("input").get(s)) add_input(info, {"user", clip_text(s, max_text, ClipNote::more_bytes), "", s.size(), false});
    return info;
  }
  // The new input is what follows the last assistant turn.
  std::vector<simdjson::dom::element> tail;
  for (auto item : items) {
    const std::string role = str(item, "role");
    if (role == "assistant" || str(item, "type") == "function_call") tail.clear();
    else tail.push_back(item);
  }
  for (auto item : tail) {
    const std::string type = str(item, "type");
    if (type == "function_call_output" || type == "custom_tool_call_output") {
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
