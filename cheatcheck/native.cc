#include "cheatcheck/native.h"

#include "cheatcheck/attachment_text.h"
#include "cheatcheck/codex_instructions.h"
#include "cheatcheck/said_text.h"

#include <algorithm>
#include <array>
#include <cstring>

namespace goalcup::cheat {
namespace {

// The members an Edit or Write call names (input) and its result's copy
// (toolUseResult) repeats, in the same order.
constexpr std::array<std::string_view, 3> kEditCallKeys = {"file_path", "old_string", "new_string"};
constexpr std::array<std::string_view, 3> kEditCopyKeys = {"filePath", "oldString", "newString"};
constexpr std::array<std::string_view, 2> kWriteCallKeys = {"file_path", "content"};
constexpr std::array<std::string_view, 2> kWriteCopyKeys = {"filePath", "content"};

std::string str(simdjson::dom::object o, std::string_view key) {
  std::string_view v;
  return json::string(o, key, &v) == json::Get::ok ? std::string(v) : std::string();
}

// A version as a harness writes one ("2.0.14", "0.59.0-alpha.3"); a longer
// string is no version, and is not copied.
std::string version_str(simdjson::dom::object o, std::string_view key) {
  std::string_view v;
  return json::string(o, key, &v) == json::Get::ok && v.size() <= 64 ? std::string(v) : std::string();
}

bool one_of(std::string_view s, std::initializer_list<std::string_view> names) {
  return std::find(names.begin(), names.end(), s) != names.end();
}

// The Anthropic content blocks that call a tool: the client's own, and the
// ones the provider runs (web search, code execution, MCP servers).
bool is_call_block(std::string_view type) { return one_of(type, {"tool_use", "server_tool_use", "mcp_tool_use"}); }

// A call's input member as a JSON value; an absent one as {}.
Digest member_digest(simdjson::dom::object o, std::string_view key) {
  simdjson::dom::element v;
  if (o.at_key(key).get(v)) return json::empty_object_digest();
  return json::value_digest(v);
}

// A user's text as a prompt (and, whatever its prefix, among the line's
// user_texts). Claude Code's records of local commands and
// of its bash mode (`<command-name>`, `<local-command-stdout>`,
// `<bash-input>`, `<bash-stdout>`) are the harness's own and not always
// sent as logged, so they are not held to the wire.
// Claude Code's own context (hook output, attachments) is a text made only
// of <system-reminder> blocks; a compaction agent's file logs some as
// isMeta lines that the main file never shows. Not held to the wire as a
// prompt either: the unsent-record warning still covers it.
bool only_reminders(std::string_view text, const NativeInfo& n) {
  if (n.harness != NativeInfo::Harness::claude_code || text.find("<system-reminder>") == std::string_view::npos) {
    return false;
  }
  return without_reminders(text).find_first_not_of(" \t\r\n") == std::string::npos;
}

// Claude Code's own marker of a turn the user interrupted. It is sent
// with the next request of the conversation, but a conversation the user
// then clears (plan mode's "clear context", /clear) never sends it, and it
// says nothing a judge would read as the user's words: neither a prompt
// nor a user text to hold (red-team 19 #1).
bool interrupt_marker(const NativeInfo& n, std::string_view text) {
  return n.harness == NativeInfo::Harness::claude_code && claude_interrupt_marker(text);
}

// Codex (0.171) writes a review's outcome into the reviewing thread as a
// user message of its own, "<user_action>...<action>review</action>
// <results>...</results></user_action>": no prompt of the user's (it
// reaches a model only with a later turn; the verdict it renders is held
// as the ExitedReviewMode item).
bool codex_review_record(std::string_view text) {
  return text.starts_with("<user_action>") && text.find("<action>review</action>") != std::string_view::npos;
}

void add_prompt(std::string_view text, NativeInfo& n) {
  if (interrupt_marker(n, text)) return;
  if (!text.empty()) n.user_texts.emplace_back(text);
  if (text.empty() || text.starts_with("<command-") || text.starts_with("<local-command-") || text.starts_with("<bash-") ||
      codex_review_record(text) || only_reminders(text, n)) {
    return;
  }
  n.prompts.emplace_back(text);
}

void add_copy(ProviderCopy::Kind kind, simdjson::dom::element value, NativeInfo& n) {
  n.provider_copies.push_back({kind, copy_digest(kind, value), simdjson::minify(value)});
}

// A file's text as Claude Code compares it: curly quotes read as straight
// ones (it matches and keeps a file's quote style) and CRLF as LF.
std::string plain_text(std::string_view s) {
  std::string plain;
  plain.reserve(s.size());
  for (size_t at = 0; at < s.size(); ++at) {
    const std::string_view rest = s.substr(at);
    if (rest.starts_with("\xE2\x80") && rest.size() > 2 && rest[2] >= '\x98' && rest[2] <= '\x9D' && rest[2] != '\x9A' &&
        rest[2] != '\x9B') {
      plain += rest[2] >= '\x9C' ? '"' : '\'';  // U+2018, U+2019 and U+201C, U+201D
      at += 2;
    } else if (!rest.starts_with("\r\n")) {
      plain += rest.front();
    }
  }
  return plain;
}

// glibc's memmem is linear in both lengths; string_view::find is not.
bool contains(std::string_view haystack, std::string_view needle) {
  return needle.empty() || memmem(haystack.data(), haystack.size(), needle.data(), needle.size()) != nullptr;
}

std::string_view trimmed(std::string_view s) {
  const size_t begin = s.find_first_not_of(" \t\r");
  if (begin == std::string_view::npos) return {};
  return s.substr(begin, s.find_last_not_of(" \t\r") - begin + 1);
}

// The largest original file whose patch is applied (Claude Code reads
// files of up to 256 KiB whole), and the largest file an edit may make of
// it: the lines of each are held, so the check's memory stays within a few
// times this whatever the line holds.
constexpr size_t kMaxPatchedFile = 1 << 20;
constexpr size_t kMaxEditedFile = 2 * kMaxPatchedFile;

// A text's lines as a patch shows them, compared: plain (plain_text),
// trimmed (the patch shows leading tabs as spaces, and some releases strip
// trailing white space from what they write); no last empty line after a
// final line end.
std::vector<std::string> patch_lines(std::string_view text) {
  const std::string plain = plain_text(text);
  std::vector<std::string> lines;
  for (size_t at = 0, end = 0; at < plain.size(); at = end + 1) {
    end = std::min(plain.find('\n', at), plain.size());
    lines.emplace_back(trimmed(std::string_view(plain).substr(at, end - at)));
  }
  return lines;
}

// `text` with `from` replaced by `to`, once or everywhere; nullopt past
// kMaxEditedFile.
std::optional<std::string> replaced(std::string_view text, std::string_view from, std::string_view to, bool everywhere) {
  std::string out;
  size_t at = 0;
  for (const char* hit; !from.empty() && at <= text.size() &&
                        (hit = static_cast<const char*>(memmem(text.data() + at, text.size() - at, from.data(), from.size())));) {
    const size_t found = static_cast<size_t>(hit - text.data());
    if (out.size() + (found - at) + to.size() > kMaxEditedFile) return std::nullopt;
    out.append(text.substr(at, found - at)).append(to);
    at = found + from.size();
    if (!everywhere) break;
  }
  out.append(text.substr(std::min(at, text.size())));
  if (out.size() > kMaxEditedFile) return std::nullopt;
  return out;
}

// What a Claude Code patch (structuredPatch hunks: oldStart, oldLines,
// lines " kept", "-removed", "+added") makes of `original` (patch_lines).
struct Patched {
  enum class Is { made, not_applied, too_long } is = Is::made;
  std::vector<std::string> lines;
};

// Its kept and removed lines must be the file's where the hunk says; a
// file of more than `max_lines` lines is too long for any edit.
Patched patched(const std::vector<std::string>& original, simdjson::dom::array hunks, size_t max_lines) {
  Patched out;
  size_t at = 0;
  auto copy_until = [&](size_t end) {
    out.lines.insert(out.lines.end(), original.begin() + static_cast<ptrdiff_t>(at), original.begin() + static_cast<ptrdiff_t>(end));
    at = end;
  };
  for (auto hunk : hunks) {
    simdjson::dom::object h;
    simdjson::dom::array lines;
    uint64_t start = 0;
    uint64_t count = 0;
    if (hunk.get(h) || json::array(h, "lines", &lines) != json::Get::ok || json::uint(h, "oldStart", &start) != json::Get::ok ||
        json::uint(h, "oldLines", &count) != json::Get::ok) {
      return {Patched::Is::not_applied, {}};
    }
    // A hunk that removes nothing (an insertion) starts after line oldStart.
    const uint64_t from = start - (count > 0 && start > 0 ? 1 : 0);
    if (from < at || from > original.size()) return {Patched::Is::not_applied, {}};
    copy_until(from);
    for (auto item : lines) {
      std::string_view line;
      if (item.get(line) || line.empty() || line.front() == '\\') continue;  // "\ No newline at end of file"
      std::string body(trimmed(plain_text(line.substr(1))));
      if (line.front() != '+' && (at >= original.size() || original[at] != body)) return {Patched::Is::not_applied, {}};
      if (line.front() != '-') out.lines.push_back(std::move(body));
      if (line.front() != '+') ++at;
      if (out.lines.size() > max_lines) return {Patched::Is::too_long, {}};
    }
  }
  if (out.lines.size() + (original.size() - at) > max_lines) return {Patched::Is::too_long, {}};
  copy_until(original.size());
  return out;
}

// Whether an Edit or Write copy's structuredPatch, applied to its
// originalFile (the file before it, as Claude Code logs it), makes another
// file than the call's change does (`files`: those it can have made of
// it, each at most kMaxEditedFile). Not judged (false) without an original
// file, past kMaxPatchedFile, without a file the call can have made, or
// where the patch's kept and removed lines are not that file's (so a
// release that logs the file cut or otherwise is no edit).
template <typename Files>
bool patch_differs(simdjson::dom::object copy, Files files, std::string_view original_member = "originalFile") {
  std::string_view original;
  simdjson::dom::array hunks;
  if (json::string(copy, original_member, &original) != json::Get::ok || original.size() > kMaxPatchedFile ||
      json::array(copy, "structuredPatch", &hunks) != json::Get::ok || hunks.size() == 0) {
    return false;
  }
  const std::vector<std::string> made_by_call = files(plain_text(original));
  if (made_by_call.empty()) return false;
  const Patched made = patched(patch_lines(original), hunks, kMaxEditedFile);
  if (made.is != Patched::Is::made) return made.is == Patched::Is::too_long;
  return std::none_of(made_by_call.begin(), made_by_call.end(), [&](const std::string& f) { return patch_lines(f) == made.lines; });
}

// The files an Edit can make of `original` (plain): old replaced by new,
// once or everywhere (replace_all); when new is empty, old with the line
// end after it, as Claude Code deletes a line. None when old is empty or
// not in the file (not judged: the file as logged is not the one edited),
// or when one of them is past kMaxEditedFile.
std::vector<std::string> edited(const std::string& original, std::string_view old_text, std::string_view new_text) {
  const std::string from = plain_text(old_text);
  const std::string to = plain_text(new_text);
  if (from.empty() || !contains(original, from)) return {};
  std::vector<std::string> out;
  bool whole = true;
  auto add = [&](std::string_view what, bool everywhere) {
    auto file = replaced(original, what, to, everywhere);
    whole = whole && file.has_value();
    if (file) out.push_back(std::move(*file));
  };
  for (const bool everywhere : {false, true}) {
    add(from, everywhere);
    if (to.empty() && !from.ends_with('\n') && contains(original, from + "\n")) add(from + "\n", everywhere);
  }
  return whole ? out : std::vector<std::string>();
}

// A MultiEdit's edits as its copy must repeat them: the count, and each
// edit's old and new strings (edit_digest) and replace_all (absent:
// false, as the copy writes it). Nullopt when an edit is not of that shape.
std::optional<Digest> multi_edit_digest(simdjson::dom::array edits) {
  static constexpr std::array<std::string_view, 2> kStrings = {"old_string", "new_string"};
  Sha256 h;
  h.update("edits:" + std::to_string(edits.size()) + ";");
  for (auto item : edits) {
    simdjson::dom::object edit;
    if (item.get(edit)) return std::nullopt;
    const std::optional<Digest> strings = edit_digest(edit, kStrings);
    if (!strings) return std::nullopt;
    bool everywhere = false;
    simdjson::dom::element v;
    if (!edit.at_key("replace_all").get(v) && !v.is_null() && v.get(everywhere)) return std::nullopt;
    h.update(std::string_view(reinterpret_cast<const char*>(strings->data()), strings->size()));
    h.update(everywhere ? "+" : "-");
  }
  return h.finish();
}

// The files a MultiEdit's edits, applied in turn, can make of `original`
// (plain): each edit as an Edit makes it (edited()), its replace_all
// deciding once or everywhere. None when an edit's old string is empty or
// not in the file, or when the ways of deleting a line would make more
// than kMaxMultiEditFiles files (not judged).
constexpr size_t kMaxMultiEditFiles = 4;
std::vector<std::string> multi_edited(const std::string& original, simdjson::dom::array edits) {
  std::vector<std::string> files{original};
  for (auto item : edits) {
    simdjson::dom::object edit;
    std::string_view old_text, new_text;
    bool everywhere = false;
    if (item.get(edit) || json::string(edit, "old_string", &old_text) != json::Get::ok ||
        json::string(edit, "new_string", &new_text) != json::Get::ok) {
      return {};
    }
    (void)json::boolean(edit, "replace_all", &everywhere);
    const std::string from = plain_text(old_text), to = plain_text(new_text);
    std::vector<std::string> next;
    for (const std::string& file : files) {
      if (from.empty() || !contains(file, from)) return {};
      std::vector<std::string_view> ways{from};
      const std::string line = from + "\n";
      if (to.empty() && !from.ends_with('\n') && contains(file, line)) ways.emplace_back(line);
      for (std::string_view way : ways) {
        auto made = replaced(file, way, to, everywhere);
        if (!made || next.size() >= kMaxMultiEditFiles) return {};
        next.push_back(std::move(*made));
      }
    }
    files = std::move(next);
  }
  return files;
}

// A MultiEdit's copy (filePath, edits, originalFileContents,
// structuredPatch): its edits as compared with the call's, and whether its
// patch makes another file of the original than those edits do.
void read_multi_edit_copy(simdjson::dom::object t, NativeInfo& n, bool user_modified) {
  simdjson::dom::array edits;
  if (user_modified || json::array(t, "edits", &edits) != json::Get::ok) return;
  const std::optional<Digest> digest = multi_edit_digest(edits);
  if (!digest) return;
  if (!n.copy_claims) n.copy_claims = CopyClaims{};
  n.copy_claims->edits = digest;
  n.copy_claims->edits_patch_differs =
      patch_differs(t, [&](const std::string& original) { return multi_edited(original, edits); }, "originalFileContents") ||
      patch_differs(t, [&](const std::string& original) { return multi_edited(original, edits); });
}

// Whether the user changed an edit before accepting it: Claude Code then
// tells the model so in the result it sends ("... The user modified your
// proposed changes before accepting them"). The log's flag alone, which a
// cheater writes as easily as the copy, does not switch the comparison off
// (red-team 16a #8).
bool user_modified_edit(simdjson::dom::object t, const NativeInfo& n) {
  bool modified = false;
  return json::boolean(t, "userModified", &modified) == json::Get::ok && modified &&
         std::any_of(n.result_texts.begin(), n.result_texts.end(),
                     [](const std::string& text) { return text.find("user modified your proposed changes") != std::string::npos; });
}

// A result's object copy read as an Edit's (filePath, oldString,
// newString) and as a Write's (filePath, content), whatever else it holds
// (its `type`, other members): the call it answers decides which shape it
// must have (GC04).
void read_edit_copy(simdjson::dom::object t, NativeInfo& n) {
  // An edit the user changed before accepting it is not the call's.
  if (user_modified_edit(t, n)) return;
  EditResultCopy copy;
  std::string_view old_text;
  std::string_view new_text;
  std::string_view content;
  const bool has_old = json::string(t, "oldString", &old_text) == json::Get::ok;
  const bool has_new = json::string(t, "newString", &new_text) == json::Get::ok;
  const bool has_content = json::string(t, "content", &content) == json::Get::ok;
  copy.text = has_old || has_new || has_content;
  if (!copy.text) return;
  copy.as_edit = edit_digest(t, kEditCopyKeys);
  copy.as_write = edit_digest(t, kWriteCopyKeys);
  if (copy.as_edit) {
    copy.edit_patch_differs = patch_differs(t, [&](const std::string& original) { return edited(original, old_text, new_text); });
  }
  if (copy.as_write) {
    copy.write_patch_differs = patch_differs(t, [&](const std::string&) {
      return content.size() > kMaxEditedFile ? std::vector<std::string>() : std::vector<std::string>{std::string(content)};
    });
  }
  n.edit_copy = copy;
}

}  // namespace

std::optional<Digest> edit_digest(simdjson::dom::object o, std::span<const std::string_view> keys) {
  Sha256 h;
  h.update(std::to_string(keys.size()) + ";");
  for (std::string_view key : keys) {
    std::string_view v;
    if (json::string(o, key, &v) != json::Get::ok) return std::nullopt;
    const std::string plain = plain_text(v);
    h.update(std::to_string(plain.size()) + ":");
    h.update(plain);
  }
  return h.finish();
}

bool codex_compaction_type(std::string_view type) { return type == "compaction" || type == "compaction_summary"; }

bool codex_context_output(simdjson::dom::object item) {
  return str(item, "type") == "function_call_output" && str(item, "call_id").empty() && !str(item, "name").empty();
}

int8_t error_flag(simdjson::dom::object block) {
  simdjson::dom::element v;
  if (block.at_key("is_error").get(v) || v.is_null()) return kErrorFalse;
  bool flag = false;
  if (v.get(flag)) return kErrorOther;
  return flag ? kErrorTrue : kErrorFalse;
}

namespace {

// Text, tool calls and tool results of a message's content (Anthropic
// blocks or Responses output items' content).
void read_content(simdjson::dom::object message, std::string_view text_type, NativeInfo& n) {
  simdjson::dom::array content;
  if (json::array(message, "content", &content) != json::Get::ok) {
    std::string_view s;
    if (json::string(message, "content", &s) == json::Get::ok && n.assistant) n.text = s;
    if (json::string(message, "content", &s) == json::Get::ok && n.user) add_prompt(s, n);
    return;
  }
  for (auto item : content) {
    simdjson::dom::object b;
    if (item.get(b)) continue;
    const std::string t = str(b, "type");
    if (t == text_type && n.assistant) n.text += str(b, "text");
    if (t == "thinking" && n.assistant) {
      n.thinking += str(b, "thinking");
      n.has_thinking = true;
    }
    simdjson::dom::array citations;
    if (t == text_type && n.assistant && json::array(b, "citations", &citations) == json::Get::ok) {
      for (auto citation : citations) add_copy(ProviderCopy::Kind::citation, citation, n);
    }
    simdjson::dom::element data;
    if (t == "redacted_thinking" && n.assistant && !b.at_key("data").get(data)) {
      add_copy(ProviderCopy::Kind::redacted_thinking, data, n);
    }

    if (is_call_block(t) && n.assistant) {
      simdjson::dom::element input;
      n.calls.push_back({str(b, "id"), str(b, "name"), member_digest(b, "input"),
                         b.at_key("input").get(input) ? std::string("{}") : simdjson::minify(input)});
      if (!b.at_key("input").get(input)) n.calls.back().input_unflagged = json::value_digest_without_false_members(input);
      simdjson::dom::object in;
      const std::string& name = n.calls.back().name;
      if ((name == "Edit" || name == "Write") && json::object(b, "input", &in) == json::Get::ok) {
        n.calls.back().edit = edit_digest(in, name == "Edit" ? std::span<const std::string_view>(kEditCallKeys) : std::span<const std::string_view>(kWriteCallKeys));
      }
      if (json::object(b, "input", &in) == json::Get::ok) n.calls.back().copy_key = call_copy_key(copied_tool(name), in);
      simdjson::dom::array edits;
      if (name == "MultiEdit" && json::object(b, "input", &in) == json::Get::ok && json::array(in, "edits", &edits) == json::Get::ok) {
        n.calls.back().copy_key = multi_edit_digest(edits);
      }
    }
    // A provider-run tool's result (web_search_tool_result, ...): what the
    // model was given, which the answer's stream carried whole.
    simdjson::dom::element result;
    if (t.ends_with("_tool_result") && n.assistant) {
      n.server_results.push_back({str(b, "tool_use_id"), member_digest(b, "content"),
                                  b.at_key("content").get(result) ? std::string("{}") : simdjson::minify(result)});
    }
    if (t == "tool_result" && n.user) {
      n.results.push_back(str(b, "tool_use_id"));
      simdjson::dom::element c;
      n.result_texts.push_back(b.at_key("content").get(c) ? std::string() : content_text(c));
      n.result_errors.push_back(error_flag(b));
    }
    std::string_view said;
    if (n.user && (t == "text" || t == "input_text") && json::string(b, "text", &said) == json::Get::ok) add_prompt(said, n);
  }
}

// Claude Code's line types (1.x and 2.x): the conversation's own, and the
// bookkeeping entries its transcript union names (titles, tags, agent
// settings, snapshots, queue operations, modes, context-collapse commits).
constexpr std::array<std::string_view, 25> kClaudeTypes = {
    "user", "assistant", "system", "attachment", "progress", "summary", "custom-title", "ai-title",
    "last-prompt", "task-summary", "tag", "agent-name", "agent-color", "agent-setting", "pr-link",
    "file-history-snapshot", "attribution-snapshot", "queue-operation", "speculation-accept", "mode",
    "permission-mode", "worktree-state", "content-replacement", "marble-origami-commit", "marble-origami-snapshot"};

// A type name as harnesses spell theirs: lower case, digits, '-' and '_'.
bool is_type_name(std::string_view s) {
  return !s.empty() && s.size() <= 64 && std::all_of(s.begin(), s.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
  });
}

// {"type":"content-replacement","replacements":[{"toolUseId","replacement"},...]}
void read_replacements(simdjson::dom::object o, NativeInfo& n) {
  simdjson::dom::array list;
  if (json::array(o, "replacements", &list) != json::Get::ok) return;
  for (auto item : list) {
    simdjson::dom::object r;
    if (!item.get(r) && !str(r, "toolUseId").empty()) n.replacements.emplace_back(str(r, "toolUseId"), str(r, "replacement"));
  }
}

// {"type":"system","subtype":"compact_boundary","compactMetadata":{"preservedMessages":
//   {"uuids":[...],"allUuids":[...]}}}: Claude Code 2.1's partial compaction
// keeps the conversation's tail as it stands after the summary.
void read_preserved(simdjson::dom::object o, NativeInfo& n) {
  simdjson::dom::object metadata, preserved;
  if (json::object(o, "compactMetadata", &metadata) != json::Get::ok ||
      json::object(metadata, "preservedMessages", &preserved) != json::Get::ok) {
    return;
  }
  for (const char* key : {"uuids", "allUuids"}) {
    simdjson::dom::array list;
    if (json::array(preserved, key, &list) != json::Get::ok) continue;
    for (auto item : list) {
      std::string_view uuid;
      if (n.preserved_uuids.size() >= NativeInfo::kMaxPreserved) return;
      if (!item.get(uuid) && !uuid.empty()) n.preserved_uuids.emplace_back(uuid);
    }
  }
}

// The texts of a toolUseResult that Claude Code sends the model as they
// are (found in every release seen, 1.0.98 to 2.1): an error's message
// ("Error: " + what was sent, maybe inside <tool_use_error>), a command's
// stdout and stderr (Bash, BashOutput), a subagent's text blocks (Task), an
// MCP tool's (its whole copy, an array of blocks), a file's content as read
// (Read, sent with line numbers). Edits, todos, a subagent's prompt and
// status, file lists and shells' status tags are read as each tool's copy
// (edit_copy, copy_claims), held to the call or the result by GC04.
void read_result_copy(simdjson::dom::object o, NativeInfo& n) {
  simdjson::dom::element copy;
  if (n.results.size() != 1 || o.at_key("toolUseResult").get(copy)) return;
  std::string_view s;
  if (!copy.get(s)) {
    // Only listed: hooks and permission prompts word some errors apart.
    if (s.starts_with("Error: ")) n.result_copies.push_back({std::string(s.substr(7)), false, false});
    return;
  }
  simdjson::dom::array blocks;
  if (!copy.get(blocks)) {
    // An MCP tool's copy: the content blocks it returned, sent as they are.
    for (std::string& text : block_texts(blocks)) n.result_copies.push_back({std::move(text), false, true});
    return;
  }
  simdjson::dom::object t;
  if (copy.get(t)) return;
  read_edit_copy(t, n);
  n.copy_claims = read_copy_claims(t, n.result_texts.empty() ? std::string_view() : std::string_view(n.result_texts.front()));
  read_multi_edit_copy(t, n, user_modified_edit(t, n));
  // A Bash output that is an image is not text to compare; the flag alone,
  // which a cheater writes as easily as the copy, does not say so (red-team
  // 16a #8): the output must be image data too.
  bool image = false;
  const bool is_image = json::boolean(t, "isImage", &image) == json::Get::ok && image &&
                        json::string(t, "stdout", &s) == json::Get::ok && s.starts_with("data:image/");
  if (!is_image && json::string(t, "stdout", &s) == json::Get::ok) {
    n.result_copies.push_back({std::string(s), false, true});
    if (json::string(t, "stderr", &s) == json::Get::ok) n.result_copies.push_back({std::string(s), false, false});
  }
  if (json::array(t, "content", &blocks) == json::Get::ok) {
    for (std::string& text : block_texts(blocks)) n.result_copies.push_back({std::move(text), false, true});
  }
  simdjson::dom::object file;
  if (json::object(t, "file", &file) == json::Get::ok && json::string(file, "content", &s) == json::Get::ok) {
    // Judged always, whatever the copy's `type` says (Read's other kinds,
    // images, notebooks and PDFs, hold no file.content): Read's cut of a
    // line over 2000 characters is applied when it is compared
    // (copy_within_cut_lines), not decided here on the copy, which a
    // cheater writes (red-team 16a #8, 18b #6).
    n.result_copies.push_back({std::string(s), true, true});
  }
}

// What a line written again says (NativeInfo::copy_key): its members but
// the ones Claude Code's transcript writer stamps around each message.
// `--fork-session` (2.1.3xx) copies the history into the new session's
// file with each prompt's promptId drawn anew and the answers stamped with
// the requestSessionId they were asked under: bookkeeping, not what was said.
// The TUI's /fork (2.1.332) copies it so too, each line also stamped with
// the new session's kind (sessionKind "bg").
Digest copy_key(simdjson::dom::object o) {
  static constexpr std::array<std::string_view, 12> kStamped = {
      "sessionId", "parentUuid", "timestamp", "cwd", "version", "gitBranch", "userType", "entrypoint", "slug",
      "promptId", "requestSessionId", "sessionKind"};
  std::vector<std::pair<std::string_view, Digest>> members;
  for (auto field : o) {
    if (std::find(kStamped.begin(), kStamped.end(), field.key) == kStamped.end()) {
      members.emplace_back(field.key, json::value_digest(field.value));
    }
  }
  std::sort(members.begin(), members.end());
  Sha256 h;
  for (const auto& [key, digest] : members) {
    h.update(std::to_string(key.size()) + ":");
    h.update(key);
    h.update(std::string_view(reinterpret_cast<const char*>(digest.data()), digest.size()));
  }
  return h.finish();
}

// A string, or the strings and text blocks of an array, each apart.
void add_strings(simdjson::dom::element e, std::vector<std::string>& out) {
  std::string_view s;
  if (!e.get(s)) {
    if (!s.empty()) out.emplace_back(s);
    return;
  }
  simdjson::dom::array parts;
  if (e.get(parts)) return;
  for (auto part : parts) {
    simdjson::dom::object block;
    if (!part.get(s)) {
      if (!s.empty()) out.emplace_back(s);
    } else if (!part.get(block) && str(block, "type") == "text" && json::string(block, "text", &s) == json::Get::ok && !s.empty()) {
      out.emplace_back(s);
    }
  }
}

// A queued_command line's `rendered` content as Claude Code 2.1.332 sends it
// mid-turn: "<system-reminder>\n" + one line of its own + "\n" + the prompt
// + "\n\n" + one last line + "\n</system-reminder>", sent without the tags.
// Only a rendering whose middle is the prompt whole binds the prompt: one
// where a part of it, or a word of the harness's lines, stood for it would
// let a changed prompt pass (its wording of the other lines is not held).
std::optional<std::string> queued_rendering(simdjson::dom::object o, std::string_view prompt) {
  constexpr std::string_view kOpen = "<system-reminder>\n", kClose = "\n</system-reminder>";
  simdjson::dom::array rendered;
  if (prompt.empty() || json::array(o, "rendered", &rendered) != json::Get::ok || rendered.size() != 1) return std::nullopt;
  simdjson::dom::object part;
  std::string_view content;
  if (rendered.at(0).get(part) || json::string(part, "content", &content) != json::Get::ok ||
      !content.starts_with(kOpen) || !content.ends_with(kClose) || content.size() < kOpen.size() + kClose.size()) {
    return std::nullopt;
  }
  const std::string_view bare = content.substr(kOpen.size(), content.size() - kOpen.size() - kClose.size());
  const size_t first_end = bare.find('\n');
  if (first_end == std::string_view::npos) return std::nullopt;
  const std::string_view rest = bare.substr(first_end + 1);
  if (!rest.starts_with(prompt) || !rest.substr(prompt.size()).starts_with("\n\n")) return std::nullopt;
  const std::string_view last = rest.substr(prompt.size() + 2);
  if (last.empty() || last.find('\n') != std::string_view::npos) return std::nullopt;
  return std::string(bare);
}

// Claude Code 2.x attachment lines whose text the model is sent with the
// next request: a queued message (queued_command: its prompt) and a hook's
// additional context (hook_additional_context: its content), other hooks'
// output, and the texts Claude Code sends as they stand (attachment_text.h).
// Other types are rendered for the model in words of the harness's own, or
// not sent.
void read_attachment(simdjson::dom::object o, NativeInfo& n) {
  simdjson::dom::object a;
  if (json::object(o, "attachment", &a) != json::Get::ok) return;
  const std::string type = str(a, "type");
  simdjson::dom::element said;
  if (type == "queued_command" && !a.at_key("prompt").get(said)) {
    add_strings(said, n.attachment_texts);
    // Graded by its text, not by commandMode (the log's word): only a
    // background task's notification is the harness's; any other text
    // (bash mode too) is what the user typed. Pastes: attachment_sent().
    n.attachment_prompt = std::none_of(n.attachment_texts.begin(), n.attachment_texts.end(), [](const std::string& t) {
      return trimmed(t).starts_with("<task-notification>");
    });
    // Some releases may send it as a user text of its own: a request carrying it is logged here.
    n.user_texts.insert(n.user_texts.end(), n.attachment_texts.begin(), n.attachment_texts.end());
    std::string_view prompt;
    if (n.attachment_texts.size() == 1 && !said.get(prompt)) {
      n.queued_rendering = queued_rendering(o, prompt);
      if (n.queued_rendering) n.user_texts.push_back(*n.queued_rendering);
    }
  } else if (type == "hook_additional_context" && !a.at_key("content").get(said)) {
    add_strings(said, n.attachment_texts);
  } else if (!hook_attachment_texts(a, n.attachment_texts)) {
    n.attachment_certain = verbatim_attachment_texts(a, n.attachment_texts);
  }
}

// The texts Claude Code writes itself as <synthetic> assistant lines (its
// AssistantTextMessage renders each as a notice, not as the model's words):
// an API error ("API Error..."), "No response requested.", the context,
// credit, login, time-out and load notices, an interruption marker, and a
// usage or rate limit ("You've hit your ...", "Claude AI usage limit
// reached|..."), short and on one line.
bool harness_notice(std::string_view text) {
  const size_t begin = text.find_first_not_of(" \t\r\n");
  text = begin == std::string_view::npos ? std::string_view() : text.substr(begin, text.find_last_not_of(" \t\r\n") - begin + 1);
  static constexpr std::array<std::string_view, 15> kNotices = {
      "API Error", "No response requested.", "Prompt is too long", "Credit balance is too low", "Invalid API key",
      "Not logged in", "Please run /login", "OAuth token", "Request timed out", "Opus is experiencing high load",
      "We are experiencing high demand", "Your ANTHROPIC_API_KEY belongs to a disabled organization",
      "[Request interrupted by user", "Claude AI usage limit reached", "Claude usage limit reached"};
  if (text.empty() || std::any_of(kNotices.begin(), kNotices.end(), [&](std::string_view notice) { return text.starts_with(notice); })) {
    return true;
  }
  const bool limit = text.find("limit") != std::string_view::npos || text.find("usage") != std::string_view::npos;
  return limit && text.size() <= 300 && text.find('\n') == std::string_view::npos &&
         (text.starts_with("You've ") || text.starts_with("You're ") || text.find("limit reached") != std::string_view::npos);
}

// The text blocks of a message's content (or its string content).
std::string message_text(simdjson::dom::object message) {
  std::string_view s;
  if (json::string(message, "content", &s) == json::Get::ok) return std::string(s);
  simdjson::dom::array content;
  std::string text;
  if (json::array(message, "content", &content) != json::Get::ok) return text;
  for (auto item : content) {
    simdjson::dom::object b;
    if (!item.get(b) && str(b, "type") == "text") text += str(b, "text");
  }
  return text;
}

// Claude Code 2.1 `progress` lines of a running Task (data.type
// "agent_progress") copy each message of the subagent as it comes:
// data.message holds the subagent line's type, uuid and message.
void read_agent_progress(simdjson::dom::object o, NativeInfo& n) {
  simdjson::dom::object data, line, message;
  if (json::object(o, "data", &data) != json::Get::ok || str(data, "type") != "agent_progress" ||
      json::object(data, "message", &line) != json::Get::ok || json::object(line, "message", &message) != json::Get::ok) {
    return;
  }
  NativeInfo copy;
  copy.harness = NativeInfo::Harness::claude_code;
  copy.parsed = copy.understood = true;
  copy.file = n.file;
  copy.type = str(line, "type");
  copy.uuid = str(line, "uuid");
  copy.sidechain = true;
  copy.message_id = str(message, "id");
  copy.model = str(message, "model");
  copy.synthetic = copy.type == "assistant" && copy.model == "<synthetic>";
  copy.assistant = copy.type == "assistant" && !copy.synthetic;
  copy.user = copy.type == "user";
  read_content(message, "text", copy);
  copy.message_value = message_value(message);
  n.agent_copies.push_back(std::move(copy));
}

// Claude Code 2.x `progress` lines of a running Bash command (data.type
// "bash_progress") show its output so far, as a viewer replays it.
void read_bash_progress(simdjson::dom::object o, NativeInfo& n) {
  simdjson::dom::object data;
  if (json::object(o, "data", &data) != json::Get::ok || str(data, "type") != "bash_progress") return;
  NativeInfo::ShellProgress shown;
  shown.call = str(o, "parentToolUseID");
  for (const char* member : {"output", "fullOutput"}) {
    std::string text = str(data, member);
    if (!text.empty()) shown.outputs.push_back(std::move(text));
  }
  if (!shown.call.empty() && !shown.outputs.empty()) n.shell_progress = std::move(shown);
}

// Claude Code's copy of a message it sends (api-request-blob): understood
// when it holds one message object, held to the requests by GC04.
void read_request_blob(simdjson::dom::object o, NativeInfo& n) {
  simdjson::dom::element message;
  simdjson::dom::object shape;
  if (o.at_key("message").get(message) || message.get(shape)) return;
  n.understood = true;
  n.request_blob = json::value_digest_without(message, "cache_control");
}

void read_claude(simdjson::dom::object o, NativeInfo& n) {
  n.type = str(o, "type");
  n.understood = std::find(kClaudeTypes.begin(), kClaudeTypes.end(), n.type) != kClaudeTypes.end();
  // A newer bookkeeping type: no message, so nothing the model said.
  if (!n.understood && is_type_name(n.type) && o.at_key("message").error() == simdjson::NO_SUCH_FIELD) {
    n.understood = n.unfamiliar = true;
  }
  if (n.type == "api-request-blob") return read_request_blob(o, n);
  n.uuid = str(o, "uuid");
  n.parent_uuid = str(o, "parentUuid");
  n.session_id = str(o, "sessionId");
  n.version = version_str(o, "version");
  if (!n.uuid.empty()) n.copy_key = copy_key(o);
  bool side = false;
  n.sidechain = json::boolean(o, "isSidechain", &side) == json::Get::ok && side;
  if (n.type == "summary") n.summary = str(o, "summary");
  if (n.type == "content-replacement") read_replacements(o, n);
  if (n.type == "attachment") read_attachment(o, n);
  if (n.type == "progress") read_agent_progress(o, n);
  if (n.type == "progress") read_bash_progress(o, n);
  n.compact_boundary = n.type == "system" && str(o, "subtype") == "compact_boundary";
  if (n.compact_boundary) read_preserved(o, n);
  bool compact = false;
  n.compact_summary = json::boolean(o, "isCompactSummary", &compact) == json::Get::ok && compact;
  simdjson::dom::object message;
  if (json::object(o, "message", &message) != json::Get::ok) return;
  n.message_id = str(message, "id");
  n.model = str(message, "model");
  n.synthetic = n.type == "assistant" && n.model == "<synthetic>";
  n.synthetic_notice = n.synthetic && harness_notice(message_text(message));
  n.assistant = n.type == "assistant" && !n.synthetic;
  n.user = n.type == "user";
  read_content(message, "text", n);
  if (n.sidechain) n.message_value = message_value(message);
  if (n.user) read_result_copy(o, n);
  // A line shown only in the transcript is never sent to the model.
  bool transcript_only = false;
  if (json::boolean(o, "isVisibleInTranscriptOnly", &transcript_only) == json::Get::ok && transcript_only) {
    n.prompts.clear();
  }
}

}  // namespace

Digest message_value(simdjson::dom::object message) {
  std::vector<std::pair<std::string_view, Digest>> members;
  for (auto field : message) {
    if (field.value.is_null()) continue;
    if (field.key != "content") {
      members.emplace_back(field.key, json::value_digest(field.value));
      continue;
    }
    // The content as its blocks: a string as one text block.
    Sha256 content;
    auto text_block = [&](std::string_view text) {
      content.update("text:" + std::to_string(text.size()) + ":");
      content.update(text);
    };
    std::string_view s;
    simdjson::dom::array blocks;
    if (!field.value.get(s)) text_block(s);
    if (!field.value.get(blocks)) {
      for (auto block : blocks) {
        simdjson::dom::object b;
        size_t named = 0;
        if (!block.get(b)) {
          for (auto member : b) named += member.value.is_null() ? 0 : 1;
        }
        if (named == 2 && str(b, "type") == "text" && json::string(b, "text", &s) == json::Get::ok) {
          text_block(s);
        } else {
          content.update("block:");
          content.update(to_hex(copy_digest(ProviderCopy::Kind::citation, block)));  // null members dropped
        }
      }
    } else if (field.value.get(s)) {
      content.update("value:");
      content.update(to_hex(json::value_digest(field.value)));
    }
    members.emplace_back(field.key, content.finish());
  }
  std::sort(members.begin(), members.end());
  Sha256 h;
  for (const auto& [key, digest] : members) {
    h.update(std::to_string(key.size()) + ":");
    h.update(key);
    h.update(to_hex(digest));
  }
  return h.finish();
}

Digest copy_digest(ProviderCopy::Kind kind, simdjson::dom::element value) {
  simdjson::dom::object o;
  if (!value.get(o)) return copy_digest(kind, o, {});
  Sha256 h;
  h.update(std::to_string(static_cast<int>(kind)) + ":");
  h.update(to_hex(json::value_digest(value)));
  return h.finish();
}

Digest copy_digest(ProviderCopy::Kind kind, simdjson::dom::object o, std::span<const std::string_view> only) {
  Sha256 h;
  h.update(std::to_string(static_cast<int>(kind)) + ":");
  // Members in key order, each its key (length first) and value's digest;
  // null ones left out, and those `only` does not name when it names any.
  std::vector<std::pair<std::string_view, Digest>> members;
  for (auto field : o) {
    if (!only.empty() && std::find(only.begin(), only.end(), field.key) == only.end()) continue;
    if (!field.value.is_null()) members.emplace_back(field.key, json::value_digest(field.value));
  }
  std::sort(members.begin(), members.end());
  for (const auto& [key, d] : members) {
    h.update(std::to_string(key.size()) + ":");
    h.update(key);
    h.update(to_hex(d));
  }
  return h.finish();
}

std::string copy_text(simdjson::dom::object o, std::span<const std::string_view> only) {
  std::string out;
  for (std::string_view key : only) {
    simdjson::dom::element v;
    out += o.at_key(key).get(v) ? std::string("null") : simdjson::minify(v);
    out += '\n';
  }
  return out;
}

std::vector<std::string> action_strings(simdjson::dom::object action) {
  std::vector<std::string> out;
  for (auto field : action) {
    std::string_view s;
    simdjson::dom::array list;
    if (field.key == "type") continue;
    if (!field.value.get(s) && !s.empty()) out.emplace_back(s);
    if (!field.value.get(list)) {
      for (auto v : list) {
        if (!v.get(s) && !s.empty()) out.emplace_back(s);
      }
    }
  }
  return out;
}

std::vector<std::string> search_details(simdjson::dom::object action) {
  std::vector<std::string> out = action_strings(action);
  simdjson::dom::array queries;
  if (json::array(action, "queries", &queries) == json::Get::ok && queries.size() > 1) {
    std::string first, joined;
    for (auto q : queries) {
      std::string_view s;
      if (q.get(s)) continue;
      if (joined.empty() && first.empty()) first = std::string(s);
      joined += (joined.empty() ? "" : ", ") + std::string(s);
    }
    if (!first.empty()) out.push_back(first + " ...");
    out.push_back(std::move(joined));
  }
  const std::string pattern = str(action, "pattern"), url = str(action, "url");
  if (!pattern.empty()) out.push_back("'" + pattern + "'" + (url.empty() ? "" : " in " + url));
  return out;
}

namespace {

// A Responses item, as Codex logs it (inside response_item, or bare in a
// legacy rollout). Returns false for an item type it does not know.
bool read_codex_item(simdjson::dom::object item, NativeInfo& n, StrictJsonParser& input_parser) {
  const std::string type = str(item, "type");
  const std::string role = str(item, "role");
  n.type = type;
  if (type == "message") {
    n.assistant = role == "assistant";
    n.user = !n.assistant;
    // Developer messages (permissions, collaboration modes, a model's
    // instructions) are sent as logged, like the user's.
    if (n.assistant || role == "user" || role == "developer") read_content(item, "output_text", n);
    return true;
  }
  if (one_of(type, {"function_call", "custom_tool_call"})) {
    n.assistant = true;
    std::string_view input;
    (void)json::string(item, type == "function_call" ? "arguments" : "input", &input);
    n.calls.push_back({str(item, "call_id"), str(item, "name"), json::text_value_digest(input, input_parser), std::string(input)});
    return true;
  }
  if (type == "local_shell_call") {
    n.assistant = true;
    n.calls.push_back({str(item, "call_id"), "local_shell", member_digest(item, "action"), std::string()});
    // Codex names a local shell call without a call_id by its item id in its events.
    if (str(item, "call_id").empty() && !str(item, "id").empty()) n.event_call_aliases.push_back(str(item, "id"));
    return true;
  }
  if (one_of(type, {"function_call_output", "custom_tool_call_output", "local_shell_call_output"})) {
    n.user = true;
    // Held to the wire as a prompt is.
    if (codex_context_output(item)) {
      add_prompt(str(item, "output"), n);
      return true;
    }
    n.results.push_back(str(item, "call_id"));
    simdjson::dom::element output;
    n.result_texts.push_back(item.at_key("output").get(output) ? std::string() : content_text(output));
    n.result_errors.push_back(kErrorUnknown);
    return true;
  }
  if (type == "web_search_call") {
    simdjson::dom::object action;
    simdjson::dom::array sources;
    if (json::object(item, "action", &action) == json::Get::ok) n.searched = action_strings(action);
    // Codex's own type for the action drops its sources; a log that holds
    // them holds what the search streamed.
    if (json::object(item, "action", &action) == json::Get::ok && json::array(action, "sources", &sources) == json::Get::ok) {
      for (auto source : sources) add_copy(ProviderCopy::Kind::search_source, source, n);
    }
    return true;
  }
  // A code interpreter the provider ran (no Codex release is known to log
  // one: its own item types have none): what it ran and what it printed.
  if (type == "code_interpreter_call") {
    if (item.at_key("code").error() == simdjson::SUCCESS || item.at_key("outputs").error() == simdjson::SUCCESS) {
      const ProviderCopy::Kind kind = ProviderCopy::Kind::code_interpreter;
      n.provider_copies.push_back({kind, copy_digest(kind, item, kCodeInterpreterMembers), copy_text(item, kCodeInterpreterMembers)});
    }
    return true;
  }
  if (type == "reasoning") {
    simdjson::dom::array summary, content;
    if (json::array(item, "summary", &summary) == json::Get::ok) {
      for (auto part : summary) {
        simdjson::dom::object p;
        if (!part.get(p)) n.reasoning_parts.push_back(str(p, "text"));
      }
    }
    if (json::array(item, "content", &content) == json::Get::ok) {
      for (auto part : content) {
        simdjson::dom::object p;
        if (!part.get(p) && one_of(str(p, "type"), {"reasoning_text", "text"})) n.raw_reasoning_parts.push_back(str(p, "text"));
      }
    }
    return true;
  }
  // Another agent's message to this one (multi-agent Codex): input.
  if (type == "agent_message") {
    n.user = true;
    return true;
  }
  // The model's reasoning, tools the provider runs (and tool search, which
  // the wire too holds as the provider's), and the harness's own controls
  // and checkpoints (tools offered, settings, compaction): nothing the
  // harness could have been given by anyone else to log.
  return one_of(type, {"reasoning", "web_search_call", "code_interpreter_call", "tool_search_call", "tool_search_output",
                       "image_generation_call", "file_search_call", "mcp_call", "mcp_list_tools",
                       "ghost_snapshot", "compaction", "compaction_summary", "context_compaction",
                       "compaction_trigger", "configuration_update", "additional_tools", "other"});
}

// The text blocks of an MCP call's result ({"content": [...]}).
std::string mcp_text(simdjson::dom::object result) {
  simdjson::dom::array content;
  if (json::array(result, "content", &content) != json::Get::ok) return {};
  std::string text;
  for (auto block : content) {
    simdjson::dom::object b;
    if (!block.get(b) && str(b, "type") == "text") text += str(b, "text");
  }
  return text;
}

// The text blocks of an MCP call's result, one by one.
std::vector<std::string> mcp_blocks(simdjson::dom::object result) {
  std::vector<std::string> blocks;
  simdjson::dom::array content;
  if (json::array(result, "content", &content) != json::Get::ok) return blocks;
  for (auto block : content) {
    simdjson::dom::object b;
    if (!block.get(b) && str(b, "type") == "text") blocks.push_back(str(b, "text"));
  }
  return blocks;
}

// mcp_tool_call_end's result: {"Ok": result} or {"Err": message}.
void read_mcp_result(simdjson::dom::object payload, EventOutput& out) {
  simdjson::dom::object result, ok;
  if (json::object(payload, "result", &result) != json::Get::ok) return;
  if (json::object(result, "Ok", &ok) == json::Get::ok) {
    out.mcp_ok = true;
    out.text = mcp_text(ok);
    out.blocks = mcp_blocks(ok);
  } else if (result.at_key("Err").error() == simdjson::SUCCESS) {
    out.mcp_ok = false;
  }
}

// A member Codex has written in snake_case (its rollouts) and may write in
// camelCase (the same item as its app server serializes it).
std::string either(simdjson::dom::object o, std::string_view snake, std::string_view camel) {
  std::string v = str(o, snake);
  return v.empty() ? str(o, camel) : v;
}

// A command's end as Codex reports it (exec_command_end, or Codex 0.149's
// CommandExecution item): its output, the exit code, and the other members
// that repeat the output.
EventOutput command_output(simdjson::dom::object o, std::string call_id) {
  EventOutput out{std::move(call_id), either(o, "aggregated_output", "aggregatedOutput"), std::nullopt, true};
  const std::string stdout_text = str(o, "stdout"), formatted = either(o, "formatted_output", "formattedOutput");
  // Releases that keep it clear stdout; others may keep only stdout. Its
  // stdout alone is part of the aggregated output (stderr apart), but
  // unified exec writes the aggregated output as its stdout.
  const bool aggregated = !out.text.empty();
  if (out.text.empty()) out.text = stdout_text;
  const bool unified = str(o, "source").starts_with("unified_exec");
  const std::string stderr_text = str(o, "stderr");
  // One stream alone is the aggregated output's bytes; two may interleave mid-line.
  out.streams_exact = aggregated && (trimmed(stdout_text).empty() || trimmed(stderr_text).empty());
  out.both_streams = aggregated && !unified && !out.streams_exact;
  for (const std::string* stream : {&stdout_text, &stderr_text}) {
    if (!unified && !trimmed(*stream).empty() && (out.both_streams || *stream != out.text)) out.streams.push_back(*stream);
  }
  if (!formatted.empty() && formatted != out.text) out.also.push_back(formatted);
  if (unified && !stdout_text.empty() && stdout_text != out.text &&
      stdout_text != formatted) {
    out.also.push_back(stdout_text);
  }
  int64_t code = 0;
  if (json::integer(o, "exit_code", &code) == json::Get::ok || json::integer(o, "exitCode", &code) == json::Get::ok) {
    out.exit_code = code;
  }
  out.blank = trimmed(out.text).empty() && trimmed(stderr_text).empty();
  return out;
}

// Whether an argv's first word runs a shell (its last word the script).
bool is_shell(std::string_view word) {
  const std::string_view name = word.substr(word.find_last_of("/\\") + 1);
  return one_of(name, {"bash", "sh", "zsh", "dash", "ksh", "fish", "bash.exe", "sh.exe", "cmd", "cmd.exe"});
}

bool is_powershell(std::string_view word) {
  const std::string_view name = word.substr(word.find_last_of("/\\") + 1);
  return name.starts_with("pwsh") || name.starts_with("powershell") || name.starts_with("PowerShell");
}

// The command an event names: `command` as an argv (a shell's flags and
// script: the script) or as one string (Codex's app server joins the argv:
// a leading shell and its flags dropped alike).
std::string event_command(simdjson::dom::object o) {
  std::vector<std::string_view> argv;
  simdjson::dom::array parts;
  std::string_view whole;
  if (json::array(o, "command", &parts) == json::Get::ok) {
    for (auto part : parts) {
      std::string_view w;
      if (!part.get(w)) argv.push_back(w);
    }
  } else if (json::string(o, "command", &whole) == json::Get::ok) {
    for (size_t at = 0; at < whole.size() && argv.size() < 3;) {
      const size_t end = std::min(whole.find(' ', at), whole.size());
      argv.push_back(argv.size() < 2 ? whole.substr(at, end - at) : whole.substr(at));
      at = end + 1;
    }
    if (argv.empty() || !is_shell(argv.front())) argv = {whole};
  }
  if (argv.empty() || is_powershell(argv.front())) return {};
  if (argv.size() >= 2 && is_shell(argv.front()) && argv[argv.size() - 2].starts_with("-")) return std::string(argv.back());
  std::string joined;
  for (std::string_view w : argv) joined.append(joined.empty() ? "" : " ").append(w);
  return joined;
}

// A command event's command and parsed_cmd (exec_command_begin/end, a
// CommandExecution item).
void read_command_action(simdjson::dom::object o, std::string call_id, NativeInfo& n) {
  EventAction a{std::move(call_id), event_command(o)};
  simdjson::dom::array parsed;
  if (json::array(o, "parsed_cmd", &parsed) == json::Get::ok) {
    for (auto part : parsed) {
      simdjson::dom::object p;
      if (!part.get(p) && !str(p, "cmd").empty()) a.parsed.push_back(str(p, "cmd"));
    }
  }
  if (!a.call_id.empty() && (!a.command.empty() || !a.parsed.empty())) n.event_action = std::move(a);
}

// The lines a change holds: an update's diff lines marked + or - (not its
// file headers), an added file's every line. A deleted file's content is
// the file's, which the patch does not hold. A file's last line that only
// gained its line end ("-x", "\ No newline at end of file", "+x": Codex
// ends every patched file with one, and its diff shows the last line so
// even where the patch never named it) is no changed line.
void add_changed_lines(std::string_view kind, std::string_view text, EventAction& a) {
  if (kind != "update" && kind != "add") return;
  constexpr std::string_view kNoLineEnd = "\\ No newline at end of file";
  const auto next_line = [&text](size_t at) { return text.substr(at, std::min(text.find('\n', at), text.size()) - at); };
  for (size_t at = 0; at < text.size();) {
    const std::string_view line = next_line(at);
    at += line.size() + 1;
    if (kind == "add") {
      a.lines.emplace_back(line);
      continue;
    }
    if (!(line.starts_with("+") || line.starts_with("-")) || line.starts_with("+++ ") || line.starts_with("--- ")) continue;
    if (line.starts_with("-") && at < text.size() && next_line(at) == kNoLineEnd) {
      const size_t after = at + kNoLineEnd.size() + 1;
      if (after < text.size() && next_line(after) == "+" + std::string(line.substr(1))) {
        at = after + line.size() + 1;
        continue;
      }
    }
    a.lines.emplace_back(line.substr(1));
  }
}

// One file's change: {"type": kind, "unified_diff"|"content", "move_path"},
// the older {kind: {...}}, or a FileChange item's {"path", "kind", "diff"}.
void add_change(std::string_view path, simdjson::dom::object change, EventAction& a) {
  a.paths.emplace_back(path);
  std::string kind = str(change, "type");
  simdjson::dom::object inner = change, kind_object;
  if (kind.empty() && json::object(change, "kind", &kind_object) == json::Get::ok) {
    kind = str(kind_object, "type");
    if (!str(kind_object, "move_path").empty()) a.paths.push_back(str(kind_object, "move_path"));
  }
  if (kind.empty()) kind = str(change, "kind");
  for (std::string_view k : {"add", "delete", "update"}) {
    if (kind.empty() && json::object(change, k, &inner) == json::Get::ok) kind = k;
  }
  if (!str(inner, "move_path").empty()) a.paths.push_back(str(inner, "move_path"));
  const std::string diff = str(change, "diff");
  add_changed_lines(kind, diff.empty() ? str(inner, kind == "add" ? "content" : "unified_diff") : diff, a);
}

// A patch event's `changes` (patch_apply_begin/end: by path; a FileChange
// item: a list).
void read_patch_action(simdjson::dom::object o, std::string call_id, NativeInfo& n) {
  EventAction a{std::move(call_id)};
  simdjson::dom::object by_path;
  simdjson::dom::array list;
  if (json::object(o, "changes", &by_path) == json::Get::ok) {
    for (auto [path, change] : by_path) {
      simdjson::dom::object c;
      if (!change.get(c)) add_change(path, c, a);
    }
  } else if (json::array(o, "changes", &list) == json::Get::ok) {
    for (auto change : list) {
      simdjson::dom::object c;
      if (!change.get(c)) add_change(str(c, "path"), c, a);
    }
  }
  if (!a.call_id.empty() && !a.paths.empty()) n.event_action = std::move(a);
}

// Events that repeat a tool's output (persisted by Codex releases that
// keep an extended history): what the tool returned, by call id.
void read_event_output(simdjson::dom::object payload, const std::string& type, NativeInfo& n) {
  EventOutput out{str(payload, "call_id"), {}, std::nullopt, false};
  if (type == "exec_command_end") {
    out = command_output(payload, out.call_id);
  } else if (type == "patch_apply_end") {
    out.text = str(payload, "stdout");
    bool success = false;
    if (json::boolean(payload, "success", &success) == json::Get::ok) out.succeeded = success;
  } else if (type == "mcp_tool_call_end") {
    read_mcp_result(payload, out);
  } else {
    return;
  }
  // A command's end is kept whatever it holds: one emptied is held too.
  if (!out.call_id.empty() && (!out.text.empty() || out.certain || out.succeeded || out.mcp_ok)) n.event_output = std::move(out);
}

// An MCP event's invocation ({server, tool, arguments}): its arguments,
// which the call's (held to the wire) must hold.
void read_mcp_action(simdjson::dom::object payload, NativeInfo& n) {
  simdjson::dom::object invocation;
  simdjson::dom::element arguments;
  if (json::object(payload, "invocation", &invocation) != json::Get::ok || invocation.at_key("arguments").get(arguments)) return;
  if (arguments.is_null()) return;
  EventAction a{str(payload, "call_id")};
  a.arguments = simdjson::minify(arguments);
  if (!a.call_id.empty()) n.event_action = std::move(a);
}

// The call an event names, and whether it is a command the user ran in
// Codex's own shell (no model call: `source` user_shell, or the older
// is_user_shell_command).
void read_event_call(simdjson::dom::object o, std::string call_id, EventCall::Kind kind, NativeInfo& n) {
  if (call_id.empty()) return;
  bool user = false;
  const bool flagged = json::boolean(o, "is_user_shell_command", &user) == json::Get::ok && user;
  n.event_call = EventCall{std::move(call_id), kind, flagged || str(o, "source") == "user_shell" || str(o, "source") == "userShell"};
}

// A UserMessage, AgentMessage or Reasoning item's texts, as the events
// Codex would have written for it.
void read_item_texts(simdjson::dom::object item, const std::string& type, NativeInfo& n) {
  simdjson::dom::array parts, raw;
  // A Reasoning item's raw parts, as its agent_reasoning_raw_content events.
  if (type == "Reasoning" && json::array(item, "raw_content", &raw) == json::Get::ok) {
    for (auto part : raw) {
      std::string_view text;
      if (!part.get(text)) n.event_reasoning.emplace_back(text);
    }
  }
  if (json::array(item, type == "Reasoning" ? "summary_text" : "content", &parts) != json::Get::ok) return;
  std::string said;  // a user message: its text inputs joined, as user_message's `message`
  for (auto part : parts) {
    simdjson::dom::object p;
    std::string_view text;
    if (type == "Reasoning" && !part.get(text)) n.event_reasoning.emplace_back(text);
    if (part.get(p) || json::string(p, "text", &text) != json::Get::ok) continue;
    if (type == "UserMessage" && str(p, "type") == "text") said += text;
    if (type == "AgentMessage") n.event_answers.emplace_back(text);
  }
  if (type == "UserMessage") add_prompt(said, n);
}

void read_review_output(simdjson::dom::object payload, NativeInfo& n);

// Codex 0.149 records what the screen drew as item_completed events, one
// item each, where older releases wrote one event per kind: each item is
// read as the events it stands for (Codex's own as_legacy_events), so that
// it is held to the wire as they are. The others (plans, hook prompts,
// dynamic tools, images, sub-agents) repeat nothing an older event did.
void read_completed_item(simdjson::dom::object payload, NativeInfo& n) {
  simdjson::dom::object item;
  if (json::object(payload, "item", &item) != json::Get::ok) return;
  const std::string type = str(item, "type");
  if (type == "UserMessage" || type == "AgentMessage" || type == "Reasoning") read_item_texts(item, type, n);
  if (type == "ExitedReviewMode") read_review_output(item, n);
  std::string id = str(item, "id");
  if (type == "CommandExecution") read_event_call(item, id, EventCall::Kind::command, n);
  if (type == "FileChange") read_event_call(item, id, EventCall::Kind::patch, n);
  if (type == "McpToolCall") read_event_call(item, id, EventCall::Kind::mcp, n);
  if (type == "CommandExecution") read_command_action(item, id, n);
  if (type == "FileChange") read_patch_action(item, id, n);
  if (type == "CommandExecution") {
    n.event_output = command_output(item, std::move(id));
    // Codex's item has no streams of its own (only the aggregated output): a
    // stdout or stderr member is not held line by line as an end event's are.
    n.event_output->streams.clear();
    n.event_output->both_streams = false;
    // Codex sets it from the exit code: completed for 0, failed otherwise.
    const std::string status = str(item, "status");
    const auto code = n.event_output->exit_code;
    n.event_output->status_contradicts = code && ((status == "completed" && *code != 0) || (status == "failed" && *code == 0));
  } else if (type == "FileChange") {
    n.event_output = EventOutput{std::move(id), str(item, "stdout"), std::nullopt, false};
    const std::string status = str(item, "status");
    if (status == "completed" || status == "failed") n.event_output->succeeded = status == "completed";
  } else if (type == "McpToolCall") {
    // The item holds the call's result as mcp_tool_call_end holds {"Ok": result}.
    simdjson::dom::object result;
    const std::string text = json::object(item, "result", &result) == json::Get::ok ? mcp_text(result) : std::string();
    n.event_output = EventOutput{std::move(id), text, std::nullopt, false};
  } else if (type == "WebSearch") {
    n.search_detail = str(item, "query");
    simdjson::dom::object action;
    if (json::object(item, "action", &action) == json::Get::ok) n.searched = action_strings(action);
  }
  if (n.event_output && (n.event_output->call_id.empty() ||
                         (n.event_output->text.empty() && !n.event_output->certain && !n.event_output->succeeded))) {
    n.event_output.reset();
  }
}

// A review verdict as Codex renders it for the thread (its
// render_review_output_text): the explanation trimmed, then "Review
// comment:" (one finding) or "Full review comments:" and, for each finding,
// "- <title> — <path>:<start>-<end>" and its body's lines indented by two
// spaces; sections a blank line apart; "" for a verdict not in that form.
std::string render_review(simdjson::dom::object output) {
  std::vector<std::string> sections;
  const std::string explanation = str(output, "overall_explanation");
  if (!trimmed(explanation).empty()) sections.emplace_back(trimmed(explanation));
  simdjson::dom::array findings;
  if (json::array(output, "findings", &findings) == json::Get::ok && findings.size() > 0) {
    std::string block = findings.size() > 1 ? "Full review comments:" : "Review comment:";
    for (auto finding : findings) {
      simdjson::dom::object f, location, range;
      std::string_view title, body, path;
      int64_t start = 0, end = 0;
      if (finding.get(f) || json::string(f, "title", &title) != json::Get::ok ||
          json::string(f, "body", &body) != json::Get::ok || json::object(f, "code_location", &location) != json::Get::ok ||
          json::string(location, "absolute_file_path", &path) != json::Get::ok ||
          json::object(location, "line_range", &range) != json::Get::ok || range["start"].get(start) || range["end"].get(end)) {
        return "";
      }
      block += "\n\n- " + std::string(title) + " \u2014 " + std::string(path) + ":" + std::to_string(start) + "-" +
               std::to_string(end);
      for (size_t at = 0; at < body.size();) {
        size_t stop = body.find('\n', at);
        if (stop == std::string_view::npos) stop = body.size();
        std::string_view body_line = body.substr(at, stop - at);
        if (body_line.ends_with('\r')) body_line.remove_suffix(1);
        block += "\n  " + std::string(body_line);
        at = stop + 1;
      }
    }
    sections.push_back(std::move(block));
  }
  if (sections.empty()) return "Reviewer failed to output a response.";
  std::string text = sections[0];
  for (size_t i = 1; i < sections.size(); ++i) text += "\n\n" + sections[i];
  return text;
}

// A review's verdict (exited_review_mode's review_output): the texts the
// reviewer model wrote, its explanation and correctness (empty when Codex
// took a plain answer as the explanation) and each finding's title and body.
void read_review_output(simdjson::dom::object payload, NativeInfo& n) {
  simdjson::dom::object output;
  simdjson::dom::array findings;
  if (json::object(payload, "review_output", &output) != json::Get::ok) return;
  n.review_render = render_review(output);
  n.review_texts.push_back(str(output, "overall_explanation"));
  n.review_texts.push_back(str(output, "overall_correctness"));
  if (json::array(output, "findings", &findings) != json::Get::ok) return;
  for (auto finding : findings) {
    simdjson::dom::object f;
    if (finding.get(f)) continue;
    n.review_texts.push_back(str(f, "title"));
    n.review_texts.push_back(str(f, "body"));
  }
  std::erase_if(n.review_texts, [](const std::string& text) { return trimmed(text).empty(); });
}

// The events that repeat what was said (the UI replays them on resume).
void read_codex_event(simdjson::dom::object payload, NativeInfo& n) {
  const std::string type = str(payload, "type");
  read_event_output(payload, type, n);
  if (type == "item_completed") read_completed_item(payload, n);
  if (type == "exec_command_begin" || type == "exec_command_end") read_command_action(payload, str(payload, "call_id"), n);
  if (type == "patch_apply_begin" || type == "patch_apply_end") read_patch_action(payload, str(payload, "call_id"), n);
  if (type == "mcp_tool_call_begin" || type == "mcp_tool_call_end") read_mcp_action(payload, n);
  using Kind = EventCall::Kind;
  for (auto [prefix, kind] : {std::pair{std::string_view("exec_command_"), Kind::command},
                              std::pair{std::string_view("patch_apply_"), Kind::patch},
                              std::pair{std::string_view("mcp_tool_call_"), Kind::mcp}}) {
    if (type == std::string(prefix) + "begin" || type == std::string(prefix) + "end") read_event_call(payload, str(payload, "call_id"), kind, n);
  }
  if (type == "user_message") add_prompt(str(payload, "message"), n);
  if (type == "agent_message") n.event_answers.push_back(str(payload, "message"));
  // The turn's last answer, repeated (null when the turn ended without one).
  if (type == "task_complete") n.event_answers.push_back(str(payload, "last_agent_message"));
  if (type == "agent_reasoning" || type == "agent_reasoning_raw_content") n.event_reasoning.push_back(str(payload, "text"));
  if (type == "exited_review_mode") read_review_output(payload, n);
  // A provider-run web search as the UI shows it: its query in Codex's
  // words, and (in releases that add it) the action it repeats.
  if (type == "web_search_end") {
    n.search_detail = str(payload, "query");
    simdjson::dom::object action;
    if (json::object(payload, "action", &action) == json::Get::ok) n.searched = action_strings(action);
  }
}

// The compaction items of a Codex `compacted` line's replacement_history:
// their encrypted_content, hashed. A remote compaction's answer is such an
// item, which Codex logs nowhere else. Bounded: a history holds one or two.
std::vector<Digest> codex_compaction_items(simdjson::dom::array history) {
  constexpr size_t kMaxCompactionItems = 16;
  std::vector<Digest> items;
  for (auto element : history) {
    simdjson::dom::object item;
    std::string_view content;
    if (element.get(item) || !codex_compaction_type(str(item, "type"))) continue;
    if (json::string(item, "encrypted_content", &content) != json::Get::ok || content.empty()) continue;
    items.push_back(sha256(content));
    if (items.size() >= kMaxCompactionItems) break;
  }
  return items;
}

void read_codex(simdjson::dom::object o, NativeInfo& n, StrictJsonParser& input_parser) {
  simdjson::dom::object payload;
  n.type = str(o, "type");
  if (json::object(o, "payload", &payload) == json::Get::ok) {
    if (n.type == "response_item") {
      n.understood = read_codex_item(payload, n, input_parser);
    } else {
      simdjson::dom::array history;
      if (n.type == "compacted") {
        n.summary = str(payload, "message");
        n.replaced_history = json::array(payload, "replacement_history", &history) == json::Get::ok && history.size() > 0;
        if (n.replaced_history) n.compaction_items = codex_compaction_items(history);
      }
      if (n.type == "event_msg") read_codex_event(payload, n);
      if (n.type == "turn_context") n.turn_model = str(payload, "model");
      if (n.type == "session_meta") {
        n.version = version_str(payload, "cli_version");
        n.session_id = str(payload, "id");
      }
      if (n.type == "session_meta" || n.type == "turn_context") n.instructions = codex_base_instructions(payload);
      n.understood = one_of(n.type, {"session_meta", "turn_context", "event_msg", "compacted", "world_state",
                                     "inter_agent_communication", "inter_agent_communication_metadata"});
      // A newer rollout item: the model's output comes only in response items.
      if (!n.understood && is_type_name(n.type)) n.understood = n.unfamiliar = true;
    }
    return;
  }
  // The legacy rollout: a first object {id, timestamp, instructions}, then
  // {"record_type":"state"} lines and bare response items.
  std::string_view record_type;
  if (json::string(o, "record_type", &record_type) == json::Get::ok) {
    n.type = record_type;
    n.understood = true;
  } else if (!n.type.empty()) {
    n.understood = read_codex_item(o, n, input_parser);
  } else {
    n.type = "session";
    n.session_id = str(o, "id");
    n.understood = !n.session_id.empty() && o.at_key("timestamp").error() == simdjson::SUCCESS;
  }
}

}  // namespace

NativeInfo read_native(const Record& r, StrictJsonParser& parser, StrictJsonParser& input_parser,
                       std::optional<simdjson::dom::element>* parsed_text) {
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
  if (!root) n.parse_error = root.error().code;
  if (root && parsed_text) *parsed_text = *root;
  simdjson::dom::object o;
  if (!root || root->get(o)) return n;
  n.parsed = true;
  std::string_view ts;
  if (json::string(o, "timestamp", &ts) == json::Get::ok) n.time = parse_time(ts);
  if (n.harness == NativeInfo::Harness::claude_code) read_claude(o, n);
  else if (n.harness == NativeInfo::Harness::codex) read_codex(o, n, input_parser);
  return n;
}

}  // namespace goalcup::cheat
