#include "cheatcheck/native.h"

namespace goalcup::cheat {
namespace {

std::string str(simdjson::dom::object o, std::string_view key) {
  std::string_view v;
  return json::string(o, key, &v) == json::Get::ok ? std::string(v) : std::string();
}

// Text of content blocks of one type ("text" or "output_text").
std::string block_text(simdjson::dom::object message, std::string_view block_type, bool* has_tool) {
  simdjson::dom::array content;
  std::string text;
  if (json::array(message, "content", &content) != json::Get::ok) {
    std::string_view s;
    if (json::string(message, "content", &s) == json::Get::ok) text = s;
    return text;
  }
  for (auto item : content) {
    simdjson::dom::object b;
    if (item.get(b)) continue;
    const std::string t = str(b, "type");
    if (t == block_type) text += str(b, "text");
    if (t == "tool_use" || t == "tool_result") *has_tool = true;
  }
  return text;
}

void read_claude(simdjson::dom::object o, NativeInfo& n) {
  n.type = str(o, "type");
  n.uuid = str(o, "uuid");
  n.parent_uuid = str(o, "parentUuid");
  simdjson::dom::object message;
  bool tool = false;
  if (json::object(o, "message", &message) == json::Get::ok) {
    n.message_id = str(message, "id");
    if (n.type == "assistant") n.text = block_text(message, "text", &tool);
    if (n.type == "user") (void)block_text(message, "text", &tool);
    n.synthetic = n.type == "assistant" && str(message, "model") == "<synthetic>";
  }
  n.assistant = n.type == "assistant" && !n.synthetic;
  n.user = n.type == "user";
}

void read_codex(simdjson::dom::object o, NativeInfo& n) {
  simdjson::dom::object payload;
  n.type = str(o, "type");
  if (json::object(o, "payload", &payload) != json::Get::ok) return;
  const std::string ptype = str(payload, "type");
  if (n.type == "response_item") n.type = ptype;
  const std::string role = str(payload, "role");
  bool tool = false;
  if (ptype == "message" && role == "assistant") {
    n.assistant = true;
    n.text = block_text(payload, "output_text", &tool);
  } else if (ptype == "function_call" || ptype == "custom_tool_call" || ptype == "local_shell_call") {
    n.assistant = true;
    n.call_id = str(payload, "call_id");
  } else if ((ptype == "message" && role == "user") || ptype == "function_call_output" ||
             ptype == "custom_tool_call_output") {
    n.user = true;
  }
}

}  // namespace

NativeInfo read_native(const Record& r, StrictJsonParser& parser) {
  NativeInfo n;
  std::string_view source, text;
  (void)json::string(r.body, "source", &source);
  std::string_view file;
  if (json::string(r.body, "file", &file) == json::Get::ok) n.file = file;
  n.has_line_no = json::uint(r.body, "line_no", &n.line_no) == json::Get::ok;
  n.harness = source == "claude-code" ? NativeInfo::Harness::claude_code
              : source == "codex"     ? NativeInfo::Harness::codex
                                      : NativeInfo::Harness::other;
  if (json::string(r.body, "text", &text) != json::Get::ok) return n;
  auto root = parser.parse_copy(text, static_cast<int64_t>(r.seq));
  simdjson::dom::object o;
  if (!root || root->get(o)) return n;
  n.parsed = true;
  std::string_view ts;
  if (json::string(o, "timestamp", &ts) == json::Get::ok) n.time = parse_time(ts);
  if (n.harness == NativeInfo::Harness::claude_code) read_claude(o, n);
  else if (n.harness == NativeInfo::Harness::codex) read_codex(o, n);
  return n;
}

}  // namespace goalcup::cheat
