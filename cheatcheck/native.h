// What a native log line says, read once per record and shared by the
// checks: Claude Code session lines and Codex rollout lines.
#pragma once

#include <optional>
#include <string>

#include "core/json_strict.h"
#include "core/record.h"
#include "core/timefmt.h"

namespace goalcup::cheat {

struct NativeInfo {
  enum class Harness { claude_code, codex, other };
  Harness harness = Harness::other;
  bool parsed = false;          // the text is a JSON object
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
  std::string message_id;       // Claude: message.id
  std::string call_id;          // Codex: a function call's call_id
  std::string uuid, parent_uuid;
  std::optional<Timestamp> time;
  std::string text;             // assistant text in this line
};

// Reads a native record's body. `parser` is reused between calls.
NativeInfo read_native(const Record& r, StrictJsonParser& parser);

}  // namespace goalcup::cheat
