// Streamed model answers. A wire response stored as text/event-stream is
// split into its events, and the assistant's answer is rebuilt from the
// deltas: Anthropic Messages (text_delta, input_json_delta) and OpenAI
// Responses (response.output_text.delta, function_call_arguments.delta,
// custom_tool_call_input.delta; local shell calls come whole).
// inspect shows the result; cheatcheck compares it with the native logs and
// scans it for secrets split across deltas.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace goalcup {

// Calls `on_event(event_name, data)` for each dispatched event (data lines
// joined with LF, as the SSE spec says). Stops early when it returns false.
void for_each_sse_event(std::string_view body,
                        const std::function<bool(std::string_view event, std::string_view data)>& on_event);

// True when `body` looks like an event stream (cheap test on its start).
bool looks_like_sse(std::string_view body);

struct RebuiltToolCall {
  std::string id;
  std::string name;
  std::string input;  // the input JSON text exactly as streamed
};

struct RebuiltAnswer {
  enum class Provider { unknown, anthropic, openai_responses };
  Provider provider = Provider::unknown;
  std::string message_id;  // msg_... / resp_...
  std::string model;
  std::string stop_reason;
  std::string text;                      // every text delta, concatenated
  std::vector<std::string> text_blocks;  // per content block / output item
  std::vector<RebuiltToolCall> tool_calls;
  int64_t input_tokens = -1;
  int64_t output_tokens = -1;
  bool finished = false;   // saw message_stop / response.completed
  uint64_t events = 0;
  uint64_t bad_events = 0;  // data that was not JSON
};

RebuiltAnswer rebuild_answer(std::string_view sse_body);

}  // namespace goalcup
