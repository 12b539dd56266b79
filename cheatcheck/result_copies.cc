#include "cheatcheck/result_copies.h"

#include <absl/container/flat_hash_set.h>

#include "cheatcheck/held_copies.h"
#include "core/json_digest.h"

namespace goalcup::cheat {
namespace result_copy_detail {

bool is_string_member(simdjson::dom::object o, std::string_view key, std::string_view* out) {
  return json::string(o, key, out) == json::Get::ok;
}

// A todo list as TodoWrite's copy must repeat it: the count, and each
// item's content, status and activeForm as JSON values (absent apart).
Digest todo_list_digest(simdjson::dom::array todos) {
  static constexpr std::string_view kMembers[] = {"content", "status", "activeForm"};
  Sha256 h;
  h.update("todos:" + std::to_string(todos.size()) + ";");
  for (auto item : todos) {
    simdjson::dom::object todo;
    if (item.get(todo)) {
      const Digest d = json::value_digest(item);
      h.update("v");
      h.update(std::string_view(reinterpret_cast<const char*>(d.data()), d.size()));
      continue;
    }
    for (std::string_view key : kMembers) {
      simdjson::dom::element v;
      if (todo.at_key(key).get(v)) {
        h.update("-");
        continue;
      }
      const Digest d = json::value_digest(v);
      h.update("+");
      h.update(std::string_view(reinterpret_cast<const char*>(d.data()), d.size()));
    }
  }
  return h.finish();
}

std::string_view trimmed_line(std::string_view s) {
  const size_t begin = s.find_first_not_of(" \t\r");
  if (begin == std::string_view::npos) return {};
  return s.substr(begin, s.find_last_not_of(" \t\r") - begin + 1);
}

// A file name is listed when a line of the result is the name, or the
// name's tail after one of its first kMaxSuffixes '/' or '\\' (a release
// that lists paths relative to the working directory): a crafted name of
// many of them costs at most that many times its length.
constexpr size_t kMaxSuffixes = 64;
bool listed(std::string_view name, const absl::flat_hash_set<std::string_view>& lines) {
  if (lines.contains(name)) return true;
  size_t tried = 0;
  for (size_t slash = name.find_first_of("/\\"); slash != std::string_view::npos && tried < kMaxSuffixes;
       slash = name.find_first_of("/\\", slash + 1), ++tried) {
    if (lines.contains(name.substr(slash + 1))) return true;
  }
  return false;
}

// Glob's result lists its file names one a line (then, when cut, a note);
// a persisted output's preview may hold only some of them: not judged.
bool filenames_differ(simdjson::dom::array names, std::string_view result) {
  if (result.find("<persisted-output>") != std::string_view::npos) return false;
  absl::flat_hash_set<std::string_view> lines;
  for (size_t at = 0; at <= result.size();) {
    const size_t end = std::min(result.find('\n', at), result.size());
    lines.insert(trimmed_line(result.substr(at, end - at)));
    at = end + 1;
  }
  for (auto item : names) {
    std::string_view name;
    if (!item.get(name) && !listed(trimmed_line(name), lines)) return true;
  }
  return false;
}

// The <name>value</name> tags a result starts with (BashOutput's status
// and exit code; TaskOutput's retrieval status, task, status and exit
// code), one a line, before the output they introduce: a tag of the
// output's own text is never read.
using Tags = std::vector<std::pair<std::string_view, std::string_view>>;
Tags leading_tags(std::string_view text) {
  constexpr size_t kMaxTags = 16, kMaxName = 32, kMaxValue = 256;
  Tags tags;
  size_t at = text.find_first_not_of(" \t\r\n");
  while (at != std::string_view::npos && at < text.size() && text[at] == '<' && tags.size() < kMaxTags) {
    const size_t name_end = text.find('>', at);
    if (name_end == std::string_view::npos || name_end - at - 1 > kMaxName) break;
    const std::string_view name = text.substr(at + 1, name_end - at - 1);
    if (name.empty() || name.find_first_not_of("abcdefghijklmnopqrstuvwxyz_") != std::string_view::npos) break;
    const std::string close = "</" + std::string(name) + ">";
    const std::string_view rest = text.substr(name_end + 1, kMaxValue + close.size());
    const size_t value_end = rest.find(close);
    if (value_end == std::string_view::npos || rest.substr(0, value_end).find('\n') != std::string_view::npos) break;
    tags.emplace_back(name, rest.substr(0, value_end));
    at = text.find_first_not_of(" \t\r\n", name_end + 1 + value_end + close.size());
  }
  return tags;
}

std::optional<std::string_view> tag(const Tags& tags, std::string_view name) {
  for (const auto& [n, v] : tags) {
    if (n == name) return v;
  }
  return std::nullopt;
}

// A shell's status and exit code against the tags the result was sent
// with: Claude Code writes <status> always, <exit_code> when the code is
// known (0 included). `code_when_untagged`: a code the copy holds while
// the result has no <exit_code> tag differs too (BashOutput).
bool status_differs(simdjson::dom::object shell, const Tags& tags, bool code_when_untagged) {
  const auto status_tag = tag(tags, "status");
  if (!status_tag) return false;
  std::string_view status;
  if (is_string_member(shell, "status", &status) && status != *status_tag) return true;
  int64_t code = 0;
  const bool has_code = json::integer(shell, "exitCode", &code) == json::Get::ok;
  if (const auto code_tag = tag(tags, "exit_code")) return !has_code || std::to_string(code) != *code_tag;
  return code_when_untagged && has_code;
}

}  // namespace result_copy_detail

namespace rcd = result_copy_detail;

CopiedTool copied_tool(std::string_view name) {
  if (name == "TodoWrite") return CopiedTool::todo_write;
  if (name == "Task" || name == "Agent") return CopiedTool::subagent;
  if (name == "Glob") return CopiedTool::glob;
  if (name == "BashOutput") return CopiedTool::bash_output;
  if (name == "TaskOutput") return CopiedTool::task_output;
  if (name == "MultiEdit") return CopiedTool::multi_edit;
  return CopiedTool::other;
}

std::optional<Digest> call_copy_key(CopiedTool tool, simdjson::dom::object input) {
  simdjson::dom::array todos;
  std::string_view prompt;
  simdjson::dom::element v;
  if (tool == CopiedTool::todo_write && json::array(input, "todos", &todos) == json::Get::ok) return rcd::todo_list_digest(todos);
  if (tool == CopiedTool::subagent && rcd::is_string_member(input, "prompt", &prompt) && !input.at_key("prompt").get(v)) {
    return json::value_digest(v);
  }
  return std::nullopt;
}

std::optional<CopyClaims> read_copy_claims(simdjson::dom::object copy, std::string_view result_text) {
  CopyClaims claims;
  simdjson::dom::array todos, names;
  simdjson::dom::element prompt;
  std::string_view s;
  if (json::array(copy, "newTodos", &todos) == json::Get::ok) claims.todos = rcd::todo_list_digest(todos);
  if (rcd::is_string_member(copy, "prompt", &s) && !copy.at_key("prompt").get(prompt)) claims.prompt = json::value_digest(prompt);
  // Claude Code sends a background agent's launch, never its result.
  const std::string_view said = result_text.substr(std::min(result_text.size(), result_text.find_first_not_of(" \t\r\n")));
  claims.subagent_status_differs = rcd::is_string_member(copy, "status", &s) && s == "completed" &&
                                   said.starts_with("Async agent launched");
  if (json::array(copy, "filenames", &names) == json::Get::ok) claims.filenames_differ = rcd::filenames_differ(names, result_text);
  const rcd::Tags tags = rcd::leading_tags(result_text);
  if (!tags.empty()) {
    claims.shell_status_differs = rcd::status_differs(copy, tags, true);
    simdjson::dom::object task;
    if (json::object(copy, "task", &task) == json::Get::ok) claims.task_status_differs = rcd::status_differs(task, tags, false);
  }
  if (!claims.any()) return std::nullopt;
  return claims;
}

std::vector<std::string> block_texts(simdjson::dom::array blocks) {
  std::vector<std::string> out;
  for (auto block : blocks) {
    simdjson::dom::object b;
    std::string_view type, text;
    if (!block.get(b) && rcd::is_string_member(b, "type", &type) && type == "text" && rcd::is_string_member(b, "text", &text)) {
      out.emplace_back(text);
    }
  }
  return out;
}

void HeldCopies::call(const Identity& id, std::string_view name, const std::optional<Digest>& key) {
  const CopiedTool tool = copied_tool(name);
  if (tool != CopiedTool::other && calls_.size() < kMaxTracked) calls_.try_emplace(id, HeldCall{tool, key});
}

void HeldCopies::copy(uint64_t seq, const Identity& call, const CopyClaims& claims) {
  if (copies_.size() < kMaxTracked) copies_.push_back({seq, call, claims});
}

void HeldCopies::judge(Context& ctx, std::vector<std::pair<Identity, uint64_t>>& result_differs) const {
  for (const HeldCopy& copy : copies_) {
    auto it = calls_.find(copy.call);
    if (it == calls_.end()) continue;
    const HeldCall& call = it->second;
    const CopyClaims& c = copy.claims;
    const std::optional<Digest>& claimed = call.tool == CopiedTool::todo_write ? c.todos
                                           : call.tool == CopiedTool::subagent ? c.prompt
                                           : call.tool == CopiedTool::multi_edit ? c.edits
                                                                               : std::nullopt;
    if (claimed && call.key && *claimed != *call.key) {
      ctx.emit(finding("GC04", Severity::high, {copy.seq},
                       call.tool == CopiedTool::multi_edit
                           ? "The harness's structured copy of a MultiEdit result (toolUseResult edits) holds other "
                             "edits than the call the model made (old_string, new_string, replace_all): what was "
                             "written was changed in the log."
                       : call.tool == CopiedTool::todo_write
                           ? "The harness's structured copy of a TodoWrite result (toolUseResult newTodos) holds another "
                             "todo list than the call the model made (content, status, activeForm): what the model "
                             "planned or marked done was changed in the log."
                           : "The harness's structured copy of a subagent's result (toolUseResult prompt) holds another "
                             "prompt than the call the model made: what the subagent was asked was changed in the log."),
               "copy-input-differs:" + std::to_string(copy.seq));
      continue;
    }
    // The call's edits, held to the wire, decide the file the patch must make.
    if (call.tool == CopiedTool::multi_edit && claimed && call.key && c.edits_patch_differs) {
      ctx.emit(finding("GC04", Severity::high, {copy.seq},
                       "The patch the harness logged for a MultiEdit result (toolUseResult structuredPatch), applied to "
                       "the file it logs as the one before (originalFileContents), makes another file than the call's "
                       "edits do: what was written was changed in the log."),
               "edit-patch-differs:" + std::to_string(copy.seq));
      continue;
    }
    const bool result_claim_differs = (call.tool == CopiedTool::subagent && c.subagent_status_differs) ||
                                      (call.tool == CopiedTool::glob && c.filenames_differ) ||
                                      (call.tool == CopiedTool::bash_output && c.shell_status_differs) ||
                                      (call.tool == CopiedTool::task_output && c.task_status_differs);
    if (result_claim_differs) result_differs.emplace_back(copy.call, copy.seq);
  }
}

}  // namespace goalcup::cheat
