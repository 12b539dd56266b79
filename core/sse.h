// Streamed model answers. A wire response stored as text/event-stream is
// split into its events, and the assistant's answer is rebuilt from the
// deltas: Anthropic Messages (text, thinking, tool and provider-run tool
// blocks), OpenAI Responses (output text, reasoning summaries, function,
// custom, shell and provider-run tool items) and OpenAI Chat Completions
// chunks (content, tool_calls by index, finish_reason, usage).
// inspect shows the result; cheatcheck compares it with the native logs and
// scans it for secrets split across deltas.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/limits.h"

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
  std::string input;  // the input JSON text exactly as streamed (free text for custom tools)
  // The provider's type for it: tool_use, server_tool_use, mcp_tool_use,
  // function_call, custom_tool_call, local_shell_call, web_search_call,
  // code_interpreter_call, tool_search_call, function (Chat Completions)...
  std::string kind;
  bool provider_run = false;  // the provider ran it (web search, code execution, MCP)
  // Chat Completions asked for several choices (n > 1): the choice it is
  // part of. The harness takes choice 0; the others are alternatives.
  int64_t choice = 0;
};

// One content block (Anthropic) or output item part (OpenAI), in stream order.
struct RebuiltBlock {
  enum class Kind { text, tool_call, thinking, redacted_thinking, reasoning, tool_result, other };
  Kind kind = Kind::text;
  // The provider's own name for it; "refusal" for the text block of a Chat
  // Completions refusal (delta.refusal, message.refusal) or of an OpenAI Responses message
  // holding a refusal part (response.refusal.delta).
  std::string type;
  std::string text;  // text, thinking, reasoning summary; a tool_result's call id
  int64_t call = -1;  // index into tool_calls for Kind::tool_call
  // A reasoning summary of several parts is `text` joined by blank lines;
  // where each part after the first starts in it. Codex logs one
  // agent_reasoning event per part, and nothing else when the turn is cut.
  std::vector<size_t> part_starts = {};
  // Where each part of raw reasoning starts in `text` (0 for a first one):
  // an item's content (response.reasoning_text.delta, or content parts
  // given whole), which Codex logs apart from the summary beside it.
  std::vector<size_t> raw_starts = {};
  // What a block carries beside its text, as a bounded digest for people to
  // read: a provider-run tool's result (stdout, stderr and return code,
  // search hits, an error's code and message), a text block's citations
  // (title and URL). Empty when none. No check reads it.
  std::string detail = {};
  bool is_error = false;  // a provider tool result that reports a failure
  int64_t choice = 0;     // RebuiltToolCall::choice

  // Each summary part's text (the whole text when it has one part).
  std::vector<std::string_view> summary_parts() const;
  // Those parts that are raw reasoning (raw) or the summary's (!raw), in order.
  std::vector<std::string_view> reasoning_parts(bool raw) const;
};

struct RebuiltAnswer {
  enum class Provider { unknown, anthropic, openai_responses, openai_chat };
  Provider provider = Provider::unknown;
  std::string message_id;  // msg_... / resp_... / chatcmpl-...
  std::string model;
  std::string stop_reason;
  // An error the provider reported in the stream (Anthropic `error` event,
  // OpenAI `error` / `response.failed`, a Chat Completions error chunk), as
  // "type: message"; empty when none.
  std::string error;
  // Every text delta, concatenated (of choice 0 when the request asked
  // for several choices: each choice's blocks are apart in `blocks`).
  std::string text;
  std::vector<RebuiltToolCall> tool_calls;
  std::vector<RebuiltBlock> blocks;      // everything, in stream order
  // Usage as the stream finally states it (Anthropic's message_delta and
  // OpenAI's completed response carry the final figures); -1: not stated
  // (message_start's output_tokens is a placeholder: a stream cut before
  // message_delta states none). input_tokens are the tokens not read from
  // cache for every provider: Anthropic counts them so, OpenAI's cached
  // tokens are taken out of its input_tokens; cache reads and writes apart.
  // An Anthropic request that sampled more than once (compaction, then the
  // answer) is the sum of its usage.iterations, which the top-level figures
  // leave out.
  int64_t input_tokens = -1;
  int64_t output_tokens = -1;
  int64_t cache_read_tokens = -1;
  int64_t cache_write_tokens = -1;
  int64_t reasoning_tokens = -1;
  bool finished = false;   // saw message_stop / response.completed / finish_reason
  uint64_t events = 0;
  uint64_t bad_events = 0;  // data that was not JSON
  // Block events past the first 1,024 distinct blocks: these blocks are
  // merged into the last one, their text kept in stream order.
  uint64_t blocks_merged = 0;

  // The text of each text block (content block / output item), in order:
  // views of `blocks`, which hold the only copy of each.
  std::vector<std::string_view> text_blocks() const;
};

// Each data event is parsed under `limits` (the run's --max-depth and
// --max-line-bytes); an event past them counts as a bad event.
RebuiltAnswer rebuild_answer(std::string_view sse_body, const Limits& limits);
// An answer returned whole (a request without "stream"): an Anthropic
// Message (Claude Code's non-streaming fallback), an OpenAI Chat Completion
// (`choices[].message`) or an OpenAI Response (`output` items): the same
// answer a stream of it rebuilds to. A body that is none of them gives an
// answer with no message_id.
RebuiltAnswer rebuild_message(std::string_view json_body, const Limits& limits);

// A text the rebuild joins from the strings of several events (a block's
// text, thinking or reasoning summary, a tool call's streamed input), with
// where each piece came from. The rebuild itself reports them, so every
// delta kind it joins is here and no other list of them can fall behind:
// the secret engine scans the joined texts, and the redaction and the
// masking of a credential split across deltas edit the pieces found here.
// A text an item gives whole (a finished output item, a tool input given at
// its block's start) is one string of one event, not a strand.
struct SseStrand {
  struct Piece {
    size_t event = 0;     // its event's rank among the stream's dispatched events
    std::string pointer;  // JSON pointer of its string in the event's data; "" for text the rebuild put between parts
    size_t at = 0, length = 0;  // its span of `text`
  };
  std::string text;
  std::vector<Piece> pieces;
};
// The strands of a stream, in the order of their first piece.
std::vector<SseStrand> sse_strands(std::string_view sse_body, const Limits& limits);

// Where one dispatched event's data lines sit in the body: each line from
// `begin` to `end` (its line end excluded), the next line starting at `next`.
struct SseLineSpan {
  size_t begin = 0, end = 0, next = 0;
};
// Calls `on_event(rank, data, data_lines)` for each dispatched event,
// ranked as sse_strands() ranks them.
void for_each_sse_event_lines(
    std::string_view body,
    const std::function<void(size_t rank, std::string_view data, const std::vector<SseLineSpan>& data_lines)>& on_event);

}  // namespace goalcup
