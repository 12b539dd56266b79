// What a native log line says, read once per record and shared by the
// checks: Claude Code session lines (1.x and 2.x) and Codex rollout lines
// (current, and the legacy format of bare items and state lines).
#pragma once

#include <array>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "cheatcheck/result_copies.h"
#include "core/json_digest.h"
#include "core/json_strict.h"
#include "core/record.h"
#include "core/sha256.h"
#include "core/timefmt.h"

namespace goalcup::cheat {

// A tool call as the harness logged it: the input is kept as the digest of
// its JSON value (json::value_digest), so that spelling does not matter.
struct NativeCall {
  std::string id;
  std::string name;
  Digest input{};
  // The input as text: minified JSON (Claude Code), the arguments or free
  // text as logged (Codex). For a wire form the recorder stored redacted.
  std::string input_text;
  // Claude Code's Edit (file_path, old_string, new_string) or Write
  // (file_path, content): edit_digest of those.
  std::optional<Digest> edit = std::nullopt;
  // What its result's structured copy must repeat of the input
  // (call_copy_key: TodoWrite's todos, a subagent's prompt).
  std::optional<Digest> copy_key = std::nullopt;
  // Claude Code: the input's digest with its false members left out
  // (json::value_digest_without_false_members), as it logs schema defaults.
  std::optional<Digest> input_unflagged = std::nullopt;
};

// A text of a tool result as the harness's structured copy of it holds it
// (Claude Code's toolUseResult), of a kind the harness sends the model as
// it is: found in the result logged beside it when the log is honest.
struct ResultCopy {
  std::string text;
  bool numbered = false;  // a file's content as read: sent with line numbers
  bool certain = true;    // a difference is an edit (stderr, error messages: only listed, their wording varies)
};

// A result of a tool the provider ran (Anthropic web search, web fetch,
// code execution, MCP), as an answer's content block holds it: the model's
// own output, streamed whole in its block's start.
struct ServerResult {
  std::string id;    // the call's id (tool_use_id)
  Digest content{};  // json::value_digest of the block's content
  std::string text;  // the content minified: for a wire form the recorder stored redacted
};

// What the provider gave the model that a log copies from the stream as it
// came, compared by value (copy_digest): a citation of an answer's text
// (Anthropic, streamed in citations_delta or whole in its block), the data
// of a redacted_thinking block (whole in its block's start); a web search's
// sources (Responses: its action's `sources`, in the item done); a code
// interpreter call's code and outputs (in the item done).
struct ProviderCopy {
  enum class Kind : uint8_t { citation, redacted_thinking, search_source, code_interpreter };
  Kind kind = Kind::citation;
  Digest value{};
  std::string text;  // the value minified: for a wire form the recorder stored redacted
};

// A copy's value as compared: an object by its members that are not null
// (a serializer may drop those or write them out), each as a JSON value;
// anything else as its JSON value. Tagged with its kind.
Digest copy_digest(ProviderCopy::Kind kind, simdjson::dom::element value);
// An object by the members named `only` (all when empty), those that are
// not null; and the text compared with a redacted wire form: those members'
// values minified, in the order `only` names them.
Digest copy_digest(ProviderCopy::Kind kind, simdjson::dom::object o, std::span<const std::string_view> only);
std::string copy_text(simdjson::dom::object o, std::span<const std::string_view> only);
// What of a code interpreter call is compared: its code and outputs (not
// its id, which Codex may not log, status or container).
inline constexpr std::array<std::string_view, 2> kCodeInterpreterMembers = {"code", "outputs"};

// What a Codex event says a tool returned (the UI's copy of a call's
// output): exec_command_end's aggregated output, patch_apply_end's stdout,
// mcp_tool_call_end's text content.
struct EventOutput {
  std::string call_id;
  std::string text;
  std::optional<int64_t> exit_code;  // exec_command_end
  // exec_command_end: Codex sends the model the same output it reports.
  // Other events report in their own words (only listed when they differ).
  bool certain = false;
  // Other members of the same event that repeat the output and are held to
  // it alike: a command's formatted_output, and unified exec's stdout (which
  // Codex writes as the aggregated output).
  std::vector<std::string> also = {};
  // A command whose status is not the one Codex derives from its exit code
  // (completed for 0, failed otherwise): the event contradicts itself.
  bool status_contradicts = false;
  // A command's end that reports no output at all (aggregated output,
  // stdout and stderr blank): kept, so that it is held to what was sent.
  bool blank = false;
  // patch_apply_end's `success`, a FileChange item's status (completed or
  // failed): what Codex derives from the patch's exit code.
  std::optional<bool> succeeded = std::nullopt;
  // mcp_tool_call_end's result (Ok or Err), and an Ok result's text blocks
  // one by one (the output sent is the JSON of the very same blocks).
  std::optional<bool> mcp_ok = std::nullopt;
  std::vector<std::string> blocks = {};
  // exec_command_end (not unified exec): its stdout and stderr, when not
  // blank. Codex's aggregated output is the bytes of both as they came, so
  // each of their lines is one of it (or of the output sent); Codex's
  // persistence clears them.
  std::vector<std::string> streams = {};
  // The event holds an aggregated output and only one of its streams is
  // not blank: that stream's lines are lines of it, none pieced with the
  // other's.
  bool streams_exact = false;
  // The event holds an aggregated output and both streams printed:
  // `streams` is stdout then stderr, which the aggregated output gathers.
  bool both_streams = false;
};

// A Codex event that names a call (exec_command_*, patch_apply_*,
// mcp_tool_call_*, an item_completed CommandExecution, FileChange or
// McpToolCall item): the call must be one the log or the wire holds
// (red-team 19b #01), save a command the user ran in Codex's own shell.
struct EventCall {
  enum class Kind { command, patch, mcp };
  std::string call_id;
  Kind kind = Kind::command;
  bool user_shell = false;
};

// What a Codex event says was run or changed for a call (review-18b #04):
// the command (exec_command_begin/end, a CommandExecution item) or the files
// and lines a patch changed (patch_apply_begin/end, a FileChange item). The
// call's arguments, held to the wire, must name each.
struct EventAction {
  std::string call_id;
  // The command as the event states it: a shell's script (`bash -lc S`:
  // S) or the argv joined; empty when the event names none or runs it in
  // PowerShell (which Codex prefixes with its own setup).
  std::string command = {};
  std::vector<std::string> parsed = {};  // parsed_cmd's `cmd` each (Codex's reading of the command)
  std::vector<std::string> paths = {};   // a patch's files, and the files it moved them to
  std::vector<std::string> lines = {};   // the lines a patch's diff says it added or removed, or an added file's
  std::string arguments = {};            // an MCP call's invocation.arguments, as JSON
};

// An object copy of a tool result (toolUseResult) read as an Edit's
// result (filePath, oldString, newString) and as a Write's (filePath,
// content): edit_digest of each (nullopt when a member is not a string),
// and whether its structuredPatch, applied to its originalFile, makes
// another file than that change does. `text`: it holds an oldString,
// newString or content string, the text a viewer shows as written.
struct EditResultCopy {
  std::optional<Digest> as_edit, as_write;
  bool edit_patch_differs = false, write_patch_differs = false;
  bool text = false;
};

// A tool_result's is_error as compared: absent or false, true, or a value
// of another type (which no harness writes).
inline constexpr int8_t kErrorUnknown = -1, kErrorFalse = 0, kErrorTrue = 1, kErrorOther = 2;

struct NativeInfo {
  enum class Harness { claude_code, codex, other };
  Harness harness = Harness::other;
  bool parsed = false;          // the text is a JSON object
  // Why the text did not parse as strict JSON, when it did not. A member
  // named twice (JSON.parse keeps the last, other readers the first) or
  // nesting past every bound is no line a harness writes.
  std::optional<Code> parse_error;
  // The line has a shape this reader knows for its harness; a log of lines
  // it does not know cannot be judged and must say so.
  bool understood = false;
  // Understood as bookkeeping of a type this reader has not seen: a line
  // without a message (Claude Code) or a rollout item other than a response
  // item (Codex). Harnesses add such types often (titles, modes, snapshots);
  // none carries what the model said, so they are listed, not warned about.
  bool unfamiliar = false;
  // Claude Code 2.1.3xx `api-request-blob`: a copy of one message of a
  // request it sends (a user message, a mid-conversation system turn),
  // written once per distinct message before the request. Its message's
  // digest (json::value_digest_without cache_control): some request must
  // have sent that message.
  std::optional<Digest> request_blob = std::nullopt;
  std::string file;
  uint64_t line_no = 0;
  bool has_line_no = false;
  std::string type;             // Claude: type; Codex: payload.type (or type)
  bool assistant = false;       // an assistant turn (text or tool call)
  bool user = false;            // a user turn: prompt or tool result
  // Claude: an assistant line with model "<synthetic>", which the harness
  // writes itself (an API error, "No response requested."): not model
  // output, so not `assistant`.
  bool synthetic = false;
  // Its text is one of Claude Code's own notices (harness_notice()).
  bool synthetic_notice = false;
  bool sidechain = false;       // Claude: isSidechain (a Task subagent's line)
  std::string message_id;       // Claude: message.id
  std::string model;            // Claude: message.model
  std::string turn_model;       // Codex: a turn_context line's model (what its turn's requests name)
  // Codex: a session_meta's (or turn_context's) base_instructions, the
  // system instructions its requests carry (codex_instructions.h).
  std::string instructions;
  std::string uuid, parent_uuid;
  std::string session_id;       // Claude: sessionId; Codex: its session_meta's id (the legacy first line's id)
  // The harness's build as the line names it: Claude Code's `version`, a
  // Codex session_meta's `cli_version` (GC07 holds it to the launch).
  std::string version;
  // Claude Code: the line's value without the members Claude Code stamps
  // anew when it writes a line again (json::value_digest, without
  // sessionId, parentUuid, timestamp, cwd, version, gitBranch, userType,
  // entrypoint, slug). `--resume`/`--continue` start a new file with a copy
  // of the conversation (same uuids, a new sessionId), and some releases
  // append the history to the same file again: such a line says nothing
  // its first copy did not.
  Digest copy_key{};
  std::optional<Timestamp> time;
  std::string text;             // assistant text in this line
  std::vector<NativeCall> calls;     // tool calls the model made, as logged
  std::vector<std::string> results;  // ids of the calls whose results this line logs
  std::vector<std::string> result_texts;  // each result's content as text (content_text), in that order
  // Each result's is_error (Anthropic tool_result: kErrorFalse when absent),
  // in that order; kErrorUnknown where the format has none (Codex).
  std::vector<int8_t> result_errors;
  // Claude Code: the texts of the structured copy (toolUseResult) of the
  // line's result, when the line logs exactly one.
  std::vector<ResultCopy> result_copies;
  // Claude Code: the structured copy (toolUseResult) of an Edit's or a
  // Write's result, unless the user modified the edit. Read as both shapes:
  // which one it must hold is decided by the call it answers (GC04), never
  // by the copy's own members, which a cheater writes (red-team 18b #6).
  std::optional<EditResultCopy> edit_copy;
  // Claude Code: the same copy read as the other tools' whose members GC04
  // holds to their call or their result (result_copies.h); which reading
  // applies is decided by the call, as for edit_copy.
  std::optional<CopyClaims> copy_claims;
  // What the user (or the harness on the user's behalf) said, as logged:
  // Claude Code user text; Codex user message parts and user_message events.
  std::vector<std::string> prompts;
  // Every user text the line logs, whatever its flags or prefix (transcript
  // only, local commands): what a request sent the model must be among
  // these, so no flag a cheater adds hides a prompt that was replaced.
  std::vector<std::string> user_texts;
  // Claude Code 2.x: the texts of an `attachment` line that the harness
  // sends the model with its next request (inside a <system-reminder>):
  // a queued_command's prompt (a message the user typed while the agent
  // worked, or a background task's notification), a hook_additional_context's
  // content. `attachment_prompt`: the queued_command is the user's own
  // message (commandMode "prompt" or none), judged as a prompt.
  // `attachment_certain`: texts Claude Code puts as they stand into what it
  // sends whenever it writes the line (verbatim_attachment_texts()), so
  // that one no request carried was changed in the log.
  std::vector<std::string> attachment_texts;
  bool attachment_prompt = false;
  bool attachment_certain = false;
  // Claude Code 2.1.332 (TUI): a message queued while a tool ran is sent
  // with that tool's result as a bare user text, the line's `rendered`
  // content without its <system-reminder> tags: that text, when it frames
  // the queued prompt whole (queued_rendering()).
  std::optional<std::string> queued_rendering;
  // Claude Code: a system line marking a compaction (compact_boundary):
  // what came before it may have gone to the model only in its summary.
  bool compact_boundary = false;
  // Its compactMetadata.preservedMessages (uuids and allUuids): the lines
  // a partial compaction keeps as they stand after the summary, which its
  // request therefore did not send (at most kMaxPreserved of them).
  std::vector<std::string> preserved_uuids;
  static constexpr size_t kMaxPreserved = 4096;
  // Claude Code: the text of the line's thinking blocks (the model's
  // reasoning, streamed as thinking_delta).
  std::string thinking;
  bool has_thinking = false;
  // Codex: a reasoning item's summary parts, and an agent_reasoning event's
  // text (the UI's copy of one part).
  std::vector<std::string> reasoning_parts;
  // Codex: a reasoning item's raw reasoning (its `content` parts of type
  // reasoning_text or text), which a model streaming raw reasoning
  // (response.reasoning_text.delta) fills.
  std::vector<std::string> raw_reasoning_parts;
  // Codex: agent_reasoning and agent_reasoning_raw_content events' texts
  // (the UI's copy of a summary part or a raw part; Codex 0.149's
  // item_completed Reasoning item holds every part).
  std::vector<std::string> event_reasoning;
  // Codex: an exited_review_mode event's review_output texts (its
  // overall_explanation, each finding's title and body): the reviewer
  // model's words, which it streamed as its answer.
  std::vector<std::string> review_texts;
  // Codex: that verdict as Codex renders it into the reviewing thread (its
  // explanation, then "Review comment:" and each finding); empty when the
  // verdict is not in the form Codex renders.
  std::string review_render;
  // Codex: an agent_message event's text (the UI's copy of an answer), a
  // task_complete event's last_agent_message, or the text parts of an
  // item_completed AgentMessage item (each as an agent_message event).
  std::vector<std::string> event_answers;
  // Codex: the strings of a web_search_call's action (its query, queries,
  // url or pattern), which Codex logs without the item's id; and of a
  // web_search_end event's action.
  std::vector<std::string> searched;
  // Codex: a web_search_end event's query, the UI's wording of the search
  // (search_details()).
  std::string search_detail;
  // Codex: an event repeating a tool's output.
  std::optional<EventOutput> event_output;
  // Codex: an event saying what a call ran or changed.
  std::optional<EventAction> event_action;
  // Codex: the call an event names.
  std::optional<EventCall> event_call;
  // Codex: ids its events may name a call by other than its call_id.
  std::vector<std::string> event_call_aliases;
  // Claude Code: the results of provider-run tools an answer's line holds.
  std::vector<ServerResult> server_results;
  // What the line copies of what the provider streamed (citations,
  // redacted thinking, search sources, code interpreter calls).
  std::vector<ProviderCopy> provider_copies;
  // Claude Code: content-replacement lines, the harness's note that it sent
  // a tool result in a shorter form (id, the form sent when it says).
  std::vector<std::pair<std::string, std::string>> replacements;
  // Text a harness wrote from a side call's answer: a Claude Code
  // `summary` line's title, a Codex `compacted` line's summary.
  std::string summary;
  // Codex: a `compacted` line holding the history it replaced the
  // conversation with (replacement_history, remote compaction).
  bool replaced_history = false;
  // Codex: the encrypted_content (sha256) of each compaction item that
  // history holds: the answer of the remote compaction request, which Codex
  // logs only there (a few per line at most; kMaxCompactionItems).
  std::vector<Digest> compaction_items;
  // Claude Code: the user line holding a compaction's summary
  // (isCompactSummary). Versions that keep no compaction agent file log the
  // summarising answer nowhere else, and reworded.
  bool compact_summary = false;
  // Claude Code: a subagent's line (isSidechain) and a copy of one: the
  // value of its message as message_value() reads it.
  std::optional<Digest> message_value = std::nullopt;
  // Claude Code 2.1: the subagent's message a `progress` line of a running
  // Task copies (data.type "agent_progress", data.message): read as the
  // subagent's line (its type, uuid and message), a sidechain's.
  std::vector<NativeInfo> agent_copies = {};
  // Claude Code 2.x: what a `progress` line of a running Bash command shows
  // of its output (data.type "bash_progress": data.output, its last lines,
  // and data.fullOutput), for the call parentToolUseID.
  struct ShellProgress {
    std::string call;
    std::vector<std::string> outputs;
  };
  std::optional<ShellProgress> shell_progress = std::nullopt;
};

// A Claude Code message's value as its copies must hold it: its members
// that are not null (a copy writes some out as null), the content's text
// blocks that hold only a text as that text (a prompt is logged as a string
// in one place and as a text block in another).
Digest message_value(simdjson::dom::object message);

// The strings of a web search's action (Responses web_search_call: query,
// queries, url, pattern), as a native line and a stream both hold them.
std::vector<std::string> action_strings(simdjson::dom::object action);
// The ways Codex words a search's action for its web_search_end event (the
// event's query): each string of the action, the first of several queries
// followed by " ..." (or all of them joined by ", "), "'pattern' in url"
// and "'pattern'".
std::vector<std::string> search_details(simdjson::dom::object action);

// The digest of an edit's file path, old and new strings, the members
// `keys` names in `o` (all strings, or none), curly quotes read as straight
// ones (Claude Code matches and keeps a file's quote style).
std::optional<Digest> edit_digest(simdjson::dom::object o, std::span<const std::string_view> keys);

// An Anthropic tool_result block's is_error (kErrorFalse when absent or null).
int8_t error_flag(simdjson::dom::object block);

// A Codex item type that holds a compaction (its encrypted_content).
bool codex_compaction_type(std::string_view type);
// Context Codex gives the model in a tool output's form, named and with no
// call_id (0.171's goals: "goal_objective" in namespace "agent"), as its
// rollout logs it and its requests send it: no tool's result.
bool codex_context_output(simdjson::dom::object item);

// Reads a native record's body. `parser` is reused between calls;
// `input_parser` reads a call's arguments (JSON in a string) while the
// line's document is in use. Both carry the run's limits. `parsed_text`,
// when given, receives the line's document (valid until `parser`'s next
// use) when its text parsed.
NativeInfo read_native(const Record& r, StrictJsonParser& parser, StrictJsonParser& input_parser,
                       std::optional<simdjson::dom::element>* parsed_text = nullptr);

}  // namespace goalcup::cheat
