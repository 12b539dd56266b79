// Reading a run as a conversation: what each request added (the new user
// text or tool results), the answer rebuilt from the response stream, and a
// one-line description of any record. Shared by every inspect view.
#pragma once

#include <cstdint>
#include <cstddef>
#include <string>
#include <vector>

#include <absl/container/flat_hash_set.h>

#include "core/json_strict.h"
#include "core/limits.h"
#include "core/record.h"
#include "core/sse.h"

namespace goalcup::inspect {

// The parsers for the bodies inside records (request and response bodies,
// SSE events, native lines, statements), under the run's limits
// (--max-depth, --max-line-bytes). One walk's view owns them, so that
// their buffers go when the walk ends.
struct BodyParsers {
  // Bodies nested in records get the nested depth bound (core/limits.h).
  explicit BodyParsers(const Limits& run_limits)
      : limits(run_limits), request(nested_limits(run_limits)), native(nested_limits(run_limits)),
        statement(run_limits) {}
  Limits limits;
  StrictJsonParser request, native, statement;
};

struct NewInput {
  // "tool_result", or the role that said it: "user", "developer", "system",
  // "assistant" (a turn of the history, see `history`); "omitted": a note
  // counting the inputs past the first 1,000.
  std::string kind;
  std::string text;
  std::string tool_use_id;
  uint64_t bytes = 0;  // the text's size before clip_text(); 0 when not known
  bool is_error = false;  // a tool result the harness sent marked as a failure
  // "" for what the request added at its end. A turn of the history before
  // it is shown only when nothing before on this run's wire carried it:
  // "earlier" (a request that continues nothing seen before: the first, a
  // resumed session), "rewritten" (a request that re-sends a conversation
  // seen before with this turn changed), "not_answered" (an assistant turn
  // that no response on this run's wire gave).
  std::string history = {};
};

struct RequestInfo {
  uint64_t seq = 0;
  std::string model;
  std::vector<NewInput> inputs;  // what this request added at its end
  uint64_t body_bytes = 0;
  uint64_t inputs_omitted = 0;  // past the first 1,000, only counted
  std::string unread;  // the limit's code when a limit kept the body from being read, else ""
  // The system prompt (Anthropic `system`, OpenAI Responses `instructions`):
  // its text (clipped), size and hash (0: none sent). The conversation shows
  // it when it differs from the previous exchange's: in full the first time,
  // else as "the same as exchange N" (system_same_as).
  std::string system;
  uint64_t system_bytes = 0, system_hash = 0, system_same_as = 0;
  bool system_shown = false;
  // Read with a TurnMemory: a hash of every turn the request sent, and of
  // the texts of its first message (to tell a subagent's prompt).
  std::vector<uint64_t> turn_hashes, first_texts;
  uint64_t history_omitted = 0;  // history turns past kMaxHistoryShown, counted
  // A subagent's request: its first message is the prompt the model wrote
  // in call `subagent_call` of exchange `subagent_exchange` (0: not one).
  uint64_t subagent_exchange = 0;
  std::string subagent_call;
};

// What the run's wire carried so far, as a hash of each turn (a text, a
// tool call, a tool result): requests' turns and responses' answers. A
// request's history is checked against it. Bounded: past kMaxTurns it
// stops learning and the history is no longer checked (full()).
class TurnMemory {
 public:
  static constexpr size_t kMaxTurns = 1u << 20;
  bool seen(uint64_t h) const { return hashes_.contains(h); }
  bool full() const { return hashes_.size() >= kMaxTurns; }
  void add(uint64_t h) {
    if (!full()) hashes_.insert(h);
  }
  // The answer's text blocks and tool calls, as a later request re-sends them.
  void add_answer(const RebuiltAnswer& a, StrictJsonParser& parser);

 private:
  absl::flat_hash_set<uint64_t> hashes_;
};

// The hash of a turn's text as TurnMemory keeps it (`role`: who said it).
uint64_t text_turn_hash(std::string_view role, std::string_view text);

// Reads a request body (Anthropic Messages or OpenAI Responses JSON). With
// `memory`, the turns of its history that the memory does not hold are
// shown too (NewInput::history), and turn_hashes says what it sent.
RequestInfo read_request(std::string_view body, uint64_t seq, size_t max_text, BodyParsers& parsers,
                         const TurnMemory* memory = nullptr);

// The wire body of a record as the content it carried: a view of the stored
// text, or, when it is base64 or content-encoded (gzip, br, zstd, deflate),
// its first `max` decoded bytes held in `*decoded` (a prefix, so that a view
// that shows only the start decodes only the start).
std::string_view wire_body(const Record& r, std::string* decoded, size_t max = SIZE_MAX);

// A response body: rebuilt from SSE, or read from a plain JSON message.
RebuiltAnswer read_answer(std::string_view body, BodyParsers& parsers);
// The answer of a response record: read_answer(), and when the provider
// refused the request (HTTP status 400 and up) its error begins with the
// status ("HTTP 429 rate_limit_error: ..."), so that no view shows a
// refused request as an empty answer.
RebuiltAnswer read_response(const Record& r, std::string_view body, BodyParsers& parsers);
// Whether a response record's answer says the request failed.
bool answer_failed(const RebuiltAnswer& a);

// "POST api.anthropic.com/v1/messages 48 KB", "200 SSE msg_01... tool_use Bash",
// "native assistant text", "gap IngestLost", ...
std::string describe(const Record& r, BodyParsers& parsers);

}  // namespace goalcup::inspect
