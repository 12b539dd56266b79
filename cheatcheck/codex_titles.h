// Codex's thread titles. The interactive TUI names each new thread (and
// answers /rename's suggestion) by asking the model on a hidden ephemeral
// thread (openai/codex codex-rs/tui/src/app thread titles,
// temporary_structured_request.rs): a Responses request with no tools and
// no history, whose last user message is Codex's title instructions
// ("Generate a concise, single-line task title of at most 36 characters
// ...", then the user's prompt or recent messages), and whose text.format
// is a JSON schema of one string member, `title`. Codex keeps the answer as
// the thread's name (session_index.jsonl), never in a rollout, so GC04
// cannot find it logged.
//
// Such an answer is accounted for only when it is a title: a finished
// answer of one message item reading as {"title": "..."} (one single-line
// string of at most kMaxTitleChars characters) beside reasoning at most, no
// tool call. A real answer or tool call sent to a request dressed as a
// title request is none, and stays unlogged. Codex asks once per thread
// (its first user message): GC04 accounts for at most one title answer
// per thread the rollouts log.
#pragma once

#include <simdjson.h>

#include <cstddef>

#include "core/json_strict.h"
#include "core/sse.h"

namespace goalcup::cheat {

// Codex asks for 36 characters; models given a strict schema may still run
// over, and Codex cuts what they say. A title of this length hides no turn.
inline constexpr size_t kMaxTitleChars = 80;

// Whether a request (its parsed body) is shaped as Codex's title request.
bool codex_title_request(simdjson::dom::object request);

// Whether an answer is a title as above. Parses its text (bounded) with
// `parser`, whose last element it invalidates.
bool codex_title_answer(const RebuiltAnswer& answer, StrictJsonParser& parser);

}  // namespace goalcup::cheat
