// Reading a run as a conversation: what each request added (the new user
// text or tool results), the answer rebuilt from the response stream, and a
// one-line description of any record. Shared by every inspect view.
#pragma once

#include <cstdint>
#include <cstddef>
#include <string>
#include <vector>

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
  // "tool_result", or the role that said it: "user", "developer", "system";
  // "omitted": a note counting the inputs past the first 1,000.
  std::string kind;
  std::string text;
  std::string tool_use_id;
  uint64_t bytes = 0;  // the text's size before clip_text(); 0 when not known
  bool is_error = false;  // a tool result the harness sent marked as a failure
};

struct RequestInfo {
  uint64_t seq = 0;
  std::string model;
  std::vector<NewInput> inputs;  // what this request added at its end
  uint64_t body_bytes = 0;
  uint64_t inputs_omitted = 0;  // past the first 1,000, only counted
  std::string unread;  // the limit's code when a limit kept the body from being read, else ""
};

// Reads a request body (Anthropic Messages or OpenAI Responses JSON).
RequestInfo read_request(std::string_view body, uint64_t seq, size_t max_text, BodyParsers& parsers);

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
