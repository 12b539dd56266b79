// Codex's system instructions as its rollouts log them, held to what the
// requests carried. A rollout's session_meta (and, in some releases, a
// turn_context) holds `base_instructions`: the text Codex sends the model
// as the Responses request's `instructions` (with, for some models, the
// apply_patch tool's instructions after it), or as the system message of a
// Chat Completions request. A logged text that no request carried was
// changed in the log (red-team 18b #10).
#pragma once

#include <simdjson.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "cheatcheck/finding.h"
#include "cheatcheck/native.h"

namespace goalcup::cheat {

class CodexInstructions {
 public:
  // A Codex native line: its base instructions are kept; a model answer
  // in the same file follows the ones before it (they were sent, unless
  // the log was changed).
  void logged(const NativeInfo& n, uint64_t seq);
  // A request body: its `instructions` (Responses) or system messages
  // (Chat Completions). `stored_redacted`: the recorder stored bodies
  // redacted (a [REDACTED:...] marker in a text then means a secret).
  void sent(simdjson::dom::object request, bool stored_redacted);

  struct Judgement {
    SeqList unsent;      // followed by an answer, no request carried them
    SeqList uncompared;  // a request's instructions were redacted, or past this class's bounds
    SeqList unkept;      // logged past this class's bounds
  };
  // `requests_unread`: some request could not be read (cut or undecodable),
  // so it may be the one that carried a text.
  Judgement judge(bool requests_unread) const;

 private:
  struct Logged {
    uint64_t seq = 0;
    std::string file;
    std::string text;
    bool followed = false;
  };
  std::vector<Logged> logged_;
  std::vector<std::string> sent_;  // distinct instructions sent
  std::vector<Digest> sent_digests_;
  size_t kept_bytes_ = 0;
  bool sent_redacted_ = false, sent_unkept_ = false;
  SeqList unkept_;
};

// A Codex rollout line's base instructions: session_meta's (or
// turn_context's) `base_instructions`, an object {"text": ...} or a
// string; empty when it has none.
std::string codex_base_instructions(simdjson::dom::object payload);

}  // namespace goalcup::cheat
