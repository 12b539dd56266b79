// Claude Code's structured copies of tool results (toolUseResult) that
// repeat what the call asked or what the model was sent, in the shapes
// seen to do so exactly in every release read (1.0.98, 1.0.108, 2.1.14):
// TodoWrite's newTodos (the call's todos), a subagent's prompt (the call's
// prompt) and status, MultiEdit's edits (the call's edits) and patch, Glob's file names, BashOutput's and TaskOutput's
// status and exit code (the tags of the result sent), an MCP tool's
// content blocks (red-team 18b #02). GC04 holds them to the call or the
// result, both held to the wire (held_copies.h).
//
// The call decides which reading of a copy applies, never the copy's own
// members, which a cheater writes (red-team 18b #6). Shapes whose relation
// varies between releases (string copies other than "Error: ...", which
// word a validation error apart from what was sent; KillBash; Grep) are
// not read: a false high disqualifies an honest entrant.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/json_strict.h"
#include "core/sha256.h"

namespace goalcup::cheat {

// The tools whose copies are held here, by the call's name.
enum class CopiedTool : uint8_t { other, todo_write, subagent, glob, bash_output, task_output, multi_edit };
CopiedTool copied_tool(std::string_view call_name);

// What a call's copy must repeat of its input, when it has that member:
// TodoWrite's todos, a subagent's prompt (a string).
std::optional<Digest> call_copy_key(CopiedTool tool, simdjson::dom::object input);

// A toolUseResult object read as each held tool's copy, against the text
// of the result logged beside it.
struct CopyClaims {
  std::optional<Digest> todos;   // newTodos, as TodoWrite's
  std::optional<Digest> prompt;  // prompt, as a subagent's
  // status "completed" while the result says the agent was launched in
  // the background (Task, Agent)
  bool subagent_status_differs = false;
  bool filenames_differ = false;  // Glob: a file name the result does not list
  // BashOutput (top level) and TaskOutput (its `task`): a status or exit
  // code other than the result's <status> and <exit_code> tags say
  bool shell_status_differs = false, task_status_differs = false;
  // MultiEdit (read in native.cc, beside Edit's copy): its edits
  // (multi_edit_digest), and whether its structuredPatch, applied to its
  // originalFileContents, makes another file than those edits do.
  std::optional<Digest> edits;
  bool edits_patch_differs = false;
  bool any() const {
    return todos || prompt || subagent_status_differs || filenames_differ || shell_status_differs || task_status_differs ||
           edits || edits_patch_differs;
  }
};
std::optional<CopyClaims> read_copy_claims(simdjson::dom::object copy, std::string_view result_text);

// The texts of the text blocks of a copy's content array (a subagent's
// `content`, an MCP tool's whole copy): sent the model as they are.
std::vector<std::string> block_texts(simdjson::dom::array blocks);

}  // namespace goalcup::cheat
