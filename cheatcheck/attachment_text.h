// The texts of a Claude Code 2.x `attachment` line that the harness sends
// the model with its next request, inside a <system-reminder> block of its
// own wording (normalizeAttachmentForAPI, alike in 2.0.57 and 2.1.88). Only
// texts the block holds as they stand in the line are named here: the
// harness's wording around them, and the types it words all by itself
// (plan mode, diagnostics, a todo list as JSON, a file read as a tool
// result), are not held.
#pragma once

#include <simdjson.h>

#include <string>
#include <vector>

namespace goalcup::cheat {

// The texts of the `attachment` object that Claude Code puts as they are
// into what it sends, for the types it renders unconditionally once the
// line is written: a file changed outside the agent (edited_text_file: its
// filename and snippet), a file or a selection in the IDE
// (opened_file_in_ide, selected_lines_in_ide: the first 2,000 UTF-16 code
// units of the selection), a memory file (nested_memory), a critical
// reminder, a plan file (plan_file_reference), the todo items of a
// todo_reminder, invoked skills and an MCP resource's texts. False when the
// type is none of these (`out` is then untouched). Not held: relevant
// memories (2.1 finds them while the model answers, and when it writes the
// line is not known here).
bool verbatim_attachment_texts(simdjson::dom::object attachment, std::vector<std::string>& out);

// The texts hooks gave that Claude Code sends as they are, for types some
// releases have logged without sending (a hook's output is held to the wire
// but, unsent, only warned about): a SessionStart or UserPromptSubmit
// hook's hook_success content, a hook_blocking_error's error, a
// hook_stopped_continuation's message, an async_hook_response's
// systemMessage and additionalContext. False for other types.
bool hook_attachment_texts(simdjson::dom::object attachment, std::vector<std::string>& out);

// The longest start of `text` (UTF-8) that is at most `units` UTF-16 code
// units and ends on a whole code point: what JavaScript's substring(0,
// units) keeps of it, short of a surrogate pair it would split.
std::string utf16_prefix(const std::string& text, size_t units);

}  // namespace goalcup::cheat
