// GC04's hold of the copies Claude Code 2.1 writes of a running subagent's
// messages (red-team 18b #03): a `progress` line of a Task (data.type
// "agent_progress") holds one message of the subagent (data.message), which
// the subagent's own file logs as its line of the same uuid. Such a copy is
// what a viewer shows of the Task, so it must say what the subagent said
// and was told:
//  - where the subagent's own line of that uuid is in the trace (itself
//    held to the wire as every line is): the same message, but for null
//    members and a prompt written as a string or as one text block;
//  - where it is not: held to the wire as a line is. An answer's copy must
//    name an answer a response carried, each of its calls as streamed (id,
//    name, input); a user message's copy each tool result as a request sent
//    it, each prompt as a request carried it (exactly or loosely).
// What cannot be compared with certainty (a form stored redacted, a result
// no request sent) is left alone. Digests only, at most kMaxTracked copies.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include <absl/container/flat_hash_map.h>

#include "cheatcheck/checks/check.h"
#include "cheatcheck/native.h"

namespace goalcup::cheat {

class ProgressCopies {
 public:
  // A Claude Code line (lines that repeat an earlier one left out by the caller).
  void logged_line(const NativeInfo& n, uint64_t seq);

  // What the wire carried. Each answers nullopt when it cannot say for sure.
  struct Wire {
    std::function<bool(const Identity& message)> answer;  // a response carried this answer
    std::function<std::optional<bool>(const Identity& call, const Identity& name, const Digest& input)> call;
    std::function<std::optional<bool>(const Identity& call, const Digest& exact, const Digest& loose)> result;
    std::function<bool(const Digest& exact, const Digest& loose)> prompt;
  };
  void finish(Context& ctx, const Wire& wire);

 private:
  struct Call {
    Identity id{}, name{};
    Digest input{};
  };
  struct Said {
    Identity call{};  // a tool result's call (zero for a prompt)
    Digest exact{}, loose{};
  };
  struct Copy {
    uint64_t seq = 0;
    Identity uuid{};
    Digest value{};
    bool assistant = false;
    std::optional<Identity> message;  // an answer's message id
    std::vector<Call> calls;
    std::vector<Said> results, prompts;
  };
  // Whether the wire shows what `c` says: nullopt when it cannot tell.
  static std::optional<bool> held_to_wire(const Copy& c, const Wire& wire);

  absl::flat_hash_map<Identity, Digest> own_lines_;  // subagent line uuid -> message_value (the first)
  std::vector<Copy> copies_;
  size_t items_ = 0;   // copies and their calls, results and prompts kept (at most kMaxTracked)
  bool over_ = false;
  SeqList differ_from_line_, not_on_wire_;
};

}  // namespace goalcup::cheat
