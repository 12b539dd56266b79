#include "cheatcheck/codex_titles.h"

#include <algorithm>
#include <optional>
#include <string_view>

namespace goalcup::cheat {
namespace codex_titles_detail {

using simdjson::dom::array;
using simdjson::dom::object;
constexpr json::Get kOk = json::Get::ok;

// How Codex's title instructions open (thread_title_instructions()).
constexpr std::string_view kTitleInstructions = "Generate a concise, single-line task title";
// A title's JSON: kMaxTitleChars characters each escaped (\uXXXX), and
// room for the member name and white space.
constexpr size_t kMaxTitleAnswerBytes = kMaxTitleChars * 6 + 64;

// text.format: a JSON schema whose only property is a string `title`
// (thread_title_output_schema()).
bool asks_for_title(object request) {
  object text, format, schema, properties, title;
  std::string_view type;
  if (json::object(request, "text", &text) != kOk || json::object(text, "format", &format) != kOk) return false;
  if (json::string(format, "type", &type) != kOk || type != "json_schema") return false;
  if (json::object(format, "schema", &schema) != kOk || json::object(schema, "properties", &properties) != kOk) return false;
  if (properties.size() != 1 || json::object(properties, "title", &title) != kOk) return false;
  return json::string(title, "type", &type) == kOk && type == "string";
}

// The temporary thread disables every tool: `tools` absent or empty.
bool offers_no_tools(object request) {
  array tools;
  const json::Get got = json::array(request, "tools", &tools);
  return got == json::Get::absent || (got == kOk && tools.size() == 0);
}

// The text of a message's string content or first input_text part.
std::optional<std::string_view> first_text(object message) {
  std::string_view text;
  if (json::string(message, "content", &text) == kOk) return text;
  array parts;
  if (json::array(message, "content", &parts) != kOk) return std::nullopt;
  for (auto part : parts) {
    object p;
    std::string_view type;
    if (part.get(p) || json::string(p, "type", &type) != kOk || type != "input_text") continue;
    if (json::string(p, "text", &text) == kOk) return text;
  }
  return std::nullopt;
}

// A new thread's only turn: messages of Codex's own (developer, system)
// and the user's (context, the title instructions last), no answer, call,
// output or reasoning of an earlier turn.
bool fresh_title_turn(object request) {
  array input;
  if (json::array(request, "input", &input) != kOk) return false;
  std::optional<object> last;
  for (auto item : input) {
    object o;
    std::string_view type, role;
    if (item.get(o) || json::string(o, "role", &role) != kOk) return false;
    const json::Get typed = json::string(o, "type", &type);
    if (typed == json::Get::wrong_type || (typed == kOk && type != "message")) return false;
    if (role != "user" && role != "developer" && role != "system") return false;
    last = o;
  }
  std::string_view role;
  if (!last || json::string(*last, "role", &role) != kOk || role != "user") return false;
  const std::optional<std::string_view> text = first_text(*last);
  return text && text->starts_with(kTitleInstructions);
}

// One line of at most kMaxTitleChars characters (valid UTF-8: simdjson
// checked it).
bool short_single_line(std::string_view title) {
  if (title.find_first_of("\r\n") != std::string_view::npos) return false;
  const auto chars = std::count_if(title.begin(), title.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; });
  return static_cast<size_t>(chars) <= kMaxTitleChars;
}

// A finished answer of one text item beside reasoning at most.
bool one_text_item(const RebuiltAnswer& a) {
  if (!a.finished || !a.error.empty() || !a.tool_calls.empty() || a.stop_reason == "incomplete" ||
      a.stop_reason == "max_tokens") {
    return false;
  }
  size_t texts = 0;
  for (const RebuiltBlock& b : a.blocks) {
    if (b.kind == RebuiltBlock::Kind::text && b.type != "refusal") {
      ++texts;
    } else if (b.kind != RebuiltBlock::Kind::reasoning && b.kind != RebuiltBlock::Kind::thinking) {
      return false;
    }
  }
  return texts == 1;
}

}  // namespace codex_titles_detail

bool codex_title_request(simdjson::dom::object request) {
  using namespace codex_titles_detail;
  return asks_for_title(request) && offers_no_tools(request) && fresh_title_turn(request);
}

bool codex_title_answer(const RebuiltAnswer& answer, StrictJsonParser& parser) {
  using namespace codex_titles_detail;
  if (!one_text_item(answer) || answer.text.size() > kMaxTitleAnswerBytes) return false;
  const auto root = parser.parse_copy(answer.text, 0);
  object o;
  std::string_view title;
  if (!root || root->get(o) || o.size() != 1 || json::string(o, "title", &title) != kOk) return false;
  return short_single_line(title);
}

}  // namespace goalcup::cheat
