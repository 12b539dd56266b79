#include "cheatcheck/attachment_text.h"

#include "core/json_strict.h"

#include <string_view>

namespace goalcup::cheat {
namespace attachment_fields {

// Claude Code cuts an IDE selection it sends past this many UTF-16 code
// units (content.substring(0, 2000) + "\n... (truncated)").
constexpr size_t kSelectionUnits = 2000;

void add_member(simdjson::dom::object o, std::string_view key, std::vector<std::string>& out) {
  std::string_view s;
  if (json::string(o, key, &s) == json::Get::ok && !s.empty()) out.emplace_back(s);
}

// `key` of each object of the array `list` names in `o`.
void add_each(simdjson::dom::object o, std::string_view list, std::string_view key, std::vector<std::string>& out) {
  simdjson::dom::array items;
  if (json::array(o, list, &items) != json::Get::ok) return;
  for (auto item : items) {
    simdjson::dom::object io;
    if (!item.get(io)) attachment_fields::add_member(io, key, out);
  }
}

}  // namespace attachment_fields

std::string utf16_prefix(const std::string& text, size_t units) {
  size_t used = 0, at = 0;
  while (at < text.size()) {
    const auto lead = static_cast<unsigned char>(text[at]);
    const size_t bytes = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4;
    const size_t cost = bytes == 4 ? 2 : 1;  // a code point past U+FFFF is a surrogate pair
    if (used + cost > units || at + bytes > text.size()) break;
    used += cost;
    at += bytes;
  }
  return text.substr(0, at);
}

bool verbatim_attachment_texts(simdjson::dom::object a, std::vector<std::string>& out) {
  std::string_view type;
  if (json::string(a, "type", &type) != json::Get::ok) return false;
  simdjson::dom::object inner;
  if (type == "edited_text_file") {
    attachment_fields::add_member(a, "filename", out);
    attachment_fields::add_member(a, "snippet", out);
  } else if (type == "opened_file_in_ide") {
    attachment_fields::add_member(a, "filename", out);
  } else if (type == "selected_lines_in_ide") {
    attachment_fields::add_member(a, "filename", out);
    std::string_view content;
    if (json::string(a, "content", &content) == json::Get::ok && !content.empty()) {
      out.push_back(utf16_prefix(std::string(content), attachment_fields::kSelectionUnits));
    }
  } else if (type == "nested_memory") {
    // Sent as "Contents of {content.path}:\n\n{content.content}".
    if (json::object(a, "content", &inner) != json::Get::ok) return true;
    attachment_fields::add_member(inner, "path", out);
    attachment_fields::add_member(inner, "content", out);
  } else if (type == "critical_system_reminder") {
    attachment_fields::add_member(a, "content", out);
  } else if (type == "plan_file_reference") {
    attachment_fields::add_member(a, "planFilePath", out);
    attachment_fields::add_member(a, "planContent", out);
  } else if (type == "todo_reminder") {
    attachment_fields::add_each(a, "content", "content", out);  // each sent as "N. [status] content"
  } else if (type == "invoked_skills") {
    attachment_fields::add_each(a, "skills", "content", out);
  } else if (type == "mcp_resource") {
    // Each text of the resource's contents, sent as a text block of its own.
    if (json::object(a, "content", &inner) != json::Get::ok) return true;
    attachment_fields::add_each(inner, "contents", "text", out);
  } else {
    return false;
  }
  return true;
}

bool hook_attachment_texts(simdjson::dom::object a, std::vector<std::string>& out) {
  std::string_view type, event;
  if (json::string(a, "type", &type) != json::Get::ok) return false;
  simdjson::dom::object inner;
  if (type == "hook_success") {
    // Only these events' output is sent: "{hookName} hook success: {content}".
    if (json::string(a, "hookEvent", &event) == json::Get::ok && (event == "SessionStart" || event == "UserPromptSubmit")) {
      attachment_fields::add_member(a, "content", out);
    }
  } else if (type == "hook_blocking_error") {
    if (json::object(a, "blockingError", &inner) == json::Get::ok) attachment_fields::add_member(inner, "blockingError", out);
  } else if (type == "hook_stopped_continuation") {
    attachment_fields::add_member(a, "message", out);
  } else if (type == "async_hook_response") {
    if (json::object(a, "response", &inner) != json::Get::ok) return true;
    attachment_fields::add_member(inner, "systemMessage", out);
    simdjson::dom::object specific;
    if (json::object(inner, "hookSpecificOutput", &specific) == json::Get::ok) attachment_fields::add_member(specific, "additionalContext", out);
  } else {
    return false;
  }
  return true;
}

}  // namespace goalcup::cheat
