#include "core/sse.h"

#include <map>
#include <optional>

#include "core/json_strict.h"

namespace goalcup {
namespace {

std::string_view field_value(std::string_view line, size_t colon) {
  std::string_view v = line.substr(colon + 1);
  if (!v.empty() && v.front() == ' ') v.remove_prefix(1);
  return v;
}

std::string get_str(simdjson::dom::element e, std::string_view key) {
  std::string_view v;
  simdjson::dom::object o;
  if (e.get(o) || json::string(o, key, &v) != json::Get::ok) return {};
  return std::string(v);
}

int64_t get_int(simdjson::dom::element e, std::string_view key) {
  simdjson::dom::object o;
  int64_t v = -1;
  if (e.get(o) || json::integer(o, key, &v) != json::Get::ok) return -1;
  return v;
}

// A member that may be absent (a default simdjson element is not usable).
std::optional<simdjson::dom::element> child(simdjson::dom::element e, std::string_view key) {
  simdjson::dom::element c;
  if (e.at_key(key).get(c)) return std::nullopt;
  return c;
}

std::optional<simdjson::dom::element> child(std::optional<simdjson::dom::element> e, std::string_view key) {
  return e ? child(*e, key) : std::nullopt;
}

std::string get_str(std::optional<simdjson::dom::element> e, std::string_view key) {
  return e ? get_str(*e, key) : std::string();
}

int64_t get_int(std::optional<simdjson::dom::element> e, std::string_view key) { return e ? get_int(*e, key) : -1; }

// Blocks by index, kept in index order.
struct Block {
  bool tool = false;
  std::string text;
  RebuiltToolCall call;
};

class Rebuilder {
 public:
  void on_event(std::string_view data) {
    ++out_.events;
    auto root = parser_.parse_copy(data, -1);
    if (!root) {
      ++out_.bad_events;
      return;
    }
    const simdjson::dom::element e = *root;
    const std::string type = get_str(e, "type");
    if (type.starts_with("response.")) {
      out_.provider = RebuiltAnswer::Provider::openai_responses;
      openai(type, e);
    } else {
      if (!type.empty() && type != "error") out_.provider = RebuiltAnswer::Provider::anthropic;
      anthropic(type, e);
    }
  }

  RebuiltAnswer finish() {
    for (auto& [index, b] : blocks_) {
      if (b.tool) {
        out_.tool_calls.push_back(std::move(b.call));
      } else {
        out_.text += b.text;
        out_.text_blocks.push_back(std::move(b.text));
      }
    }
    return std::move(out_);
  }

 private:
  void anthropic(const std::string& type, simdjson::dom::element e) {
    const int64_t index = get_int(e, "index");
    if (type == "message_start") {
      auto m = child(e, "message");
      out_.message_id = get_str(m, "id");
      out_.model = get_str(m, "model");
      if (auto usage = child(m, "usage")) {
        out_.input_tokens = get_int(usage, "input_tokens");
        out_.output_tokens = get_int(usage, "output_tokens");
      }
    } else if (type == "content_block_start") {
      auto cb = child(e, "content_block");
      Block& b = blocks_[index];
      const std::string kind = get_str(cb, "type");
      b.tool = kind == "tool_use" || kind == "server_tool_use";
      if (b.tool) {
        b.call.id = get_str(cb, "id");
        b.call.name = get_str(cb, "name");
      } else {
        b.text = get_str(cb, "text");
      }
    } else if (type == "content_block_delta") {
      auto d = child(e, "delta");
      const std::string kind = get_str(d, "type");
      Block& b = blocks_[index];
      if (kind == "text_delta") b.text += get_str(d, "text");
      else if (kind == "input_json_delta") b.call.input += get_str(d, "partial_json");
    } else if (type == "message_delta") {
      const std::string stop = get_str(child(e, "delta"), "stop_reason");
      if (!stop.empty()) out_.stop_reason = stop;
      if (auto usage = child(e, "usage"); usage && get_int(*usage, "output_tokens") >= 0) {
        out_.output_tokens = get_int(*usage, "output_tokens");
      }
    } else if (type == "message_stop") {
      out_.finished = true;
    }
  }

  void openai(const std::string& type, simdjson::dom::element e) {
    const int64_t index = get_int(e, "output_index");
    if (type == "response.created" || type == "response.completed" || type == "response.in_progress") {
      auto r = child(e, "response");
      if (out_.message_id.empty()) out_.message_id = get_str(r, "id");
      if (out_.model.empty()) out_.model = get_str(r, "model");
      if (auto usage = child(r, "usage")) {
        out_.input_tokens = get_int(usage, "input_tokens");
        out_.output_tokens = get_int(usage, "output_tokens");
      }
      if (type == "response.completed") {
        out_.finished = true;
        out_.stop_reason = get_str(r, "status");
      }
    } else if (type == "response.output_item.added" || type == "response.output_item.done") {
      call_item(type == "response.output_item.done", child(e, "item"), blocks_[index]);
    } else if (type == "response.output_text.delta") {
      blocks_[index].text += get_str(e, "delta");
    } else if (type == "response.function_call_arguments.delta" || type == "response.custom_tool_call_input.delta") {
      Block& b = blocks_[index];
      b.tool = true;
      b.call.input += get_str(e, "delta");
    } else if (type == "response.incomplete" || type == "response.failed") {
      out_.stop_reason = type.substr(9);
    }
  }

  // The output items that call a tool: a function (JSON arguments), a custom
  // tool (free text, as Codex's apply_patch) or the local shell. Their input
  // streams as deltas; an item that streamed none carries it whole when done.
  static void call_item(bool done, std::optional<simdjson::dom::element> item, Block& b) {
    const std::string kind = get_str(item, "type");
    if (kind != "function_call" && kind != "custom_tool_call" && kind != "local_shell_call") return;
    b.tool = true;
    if (b.call.id.empty()) b.call.id = get_str(item, "call_id");
    if (b.call.name.empty()) b.call.name = kind == "local_shell_call" ? "local_shell" : get_str(item, "name");
    if (!done || !b.call.input.empty()) return;
    if (kind == "function_call") b.call.input = get_str(item, "arguments");
    else if (kind == "custom_tool_call") b.call.input = get_str(item, "input");
    else if (auto action = child(item, "action")) b.call.input = simdjson::minify(*action);
  }

  StrictJsonParser parser_{Limits{}};
  RebuiltAnswer out_;
  std::map<int64_t, Block> blocks_;
};

}  // namespace

bool looks_like_sse(std::string_view body) {
  return body.starts_with("event:") || body.starts_with("data:") || body.starts_with(":") ||
         body.starts_with("id:") || body.starts_with("retry:");
}

void for_each_sse_event(std::string_view body,
                        const std::function<bool(std::string_view, std::string_view)>& on_event) {
  std::string_view event;
  std::string data;
  bool has_data = false;
  while (!body.empty()) {
    size_t nl = body.find('\n');
    std::string_view line = body.substr(0, nl);
    body.remove_prefix(nl == std::string_view::npos ? body.size() : nl + 1);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty()) {
      if (has_data && !on_event(event, data)) return;
      event = {};
      data.clear();
      has_data = false;
      continue;
    }
    if (line.front() == ':') continue;  // a comment
    size_t colon = line.find(':');
    std::string_view name = line.substr(0, colon);
    std::string_view value = colon == std::string_view::npos ? std::string_view() : field_value(line, colon);
    if (name == "event") {
      event = value;
    } else if (name == "data") {
      if (has_data) data += '\n';
      data += value;
      has_data = true;
    }
  }
  if (has_data) on_event(event, data);  // a stream cut before its blank line
}

RebuiltAnswer rebuild_answer(std::string_view sse_body) {
  Rebuilder r;
  for_each_sse_event(sse_body, [&](std::string_view, std::string_view data) {
    if (data != "[DONE]") r.on_event(data);
    return true;
  });
  return r.finish();
}

}  // namespace goalcup
