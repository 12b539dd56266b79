// Codex's extended-history events (exec_command_*, patch_apply_*,
// mcp_tool_call_*, item_completed items) as GC04 holds them to the calls
// and outputs of the log and the wire: the shapes Codex writes, read apart
// from the check so that each rule stays small.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace goalcup::cheat {

// Whether `text` holds one of the markers Codex puts where it took the
// middle of a tool's output out: "[... omitted N of M lines ...]" (older
// releases) or "…N tokens truncated…", "…N chars truncated…", "[…N bytes
// truncated…]" (newer). A bare word ("truncated", "omitted") that a
// command printed is no cut (red-team 19b #13).
bool holds_codex_cut_marker(std::string_view text);

// The unified-exec session an exec_command output says its process goes on
// in ("Process running with session ID N").
std::optional<uint64_t> running_session_of(std::string_view output);

// The session a write_stdin call's arguments poll ({"session_id": N}).
std::optional<uint64_t> polled_session_of(std::string_view arguments);

}  // namespace goalcup::cheat
