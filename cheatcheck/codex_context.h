// What a Codex rollout says its session ran under, held to what the
// requests told the model (red-team 19b #9):
//   * a turn_context's cwd, approval_policy and sandbox_policy. Codex tells
//     the model these in an <environment_context> user message (older
//     releases: <cwd>, <approval_policy>, <sandbox_mode>; newer ones keep
//     only <cwd> there) and in a <permissions instructions> developer
//     message ("`sandbox_mode` is `X`", "`approval_policy` is `Y`" or
//     "Approval policy is currently Y"). Each logged value must be one some
//     request stated; where no request states a policy, or states one in
//     words this reader does not know, nothing is judged.
//   * a session_meta's `instructions` (the user's instructions, AGENTS.md),
//     which Codex sends whole as the content of one block: a
//     "<user_instructions>\n\n...</user_instructions>" message (older
//     releases) or an "# AGENTS.md instructions for <dir>\n\n<INSTRUCTIONS>
//     \n...\n</INSTRUCTIONS>" one (later). Where a fresh session's first
//     request holds such a block, the text must be that block's content
//     (its ends' white space and line endings apart); anywhere else (a
//     resumed session, no block) it must be in a message some request sent.
//   * a world_state line's AGENTS.md text (later releases log the
//     instructions so, at the session's start and again when AGENTS.md
//     changes): Codex sends each such text whole as an AGENTS.md block's
//     content, a changed one after a fixed notice that it replaces the
//     earlier ("These AGENTS.md instructions replace all previously
//     provided AGENTS.md instructions."), so the text must be the content
//     of a block some request sent.
//   * a turn_context's policy spelling: Codex serializes approval_policy
//     and sandbox_policy from its own enums (serde kebab-case), so a value
//     no release writes is high in any turn (review 20b #06).
// Codex does not tell the model every change it logs (0.58: a resumed
// session's new flags or directory, /approvals before a /compact), so only
// the first turn of a session that is not resumed is held high, to the
// first request (its initial context, and any change notice it carries);
// any other turn whose value no request of the run stated is a warning.
#pragma once

#include <simdjson.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <absl/container/flat_hash_set.h>

#include "cheatcheck/finding.h"
#include "cheatcheck/native.h"

namespace goalcup::cheat {

class CodexContext {
 public:
  // A Codex native line as parsed (`line`: its document): a turn_context's
  // values, a session_meta's (or the legacy first line's) instructions.
  void logged(const NativeInfo& n, simdjson::dom::element line, uint64_t seq);
  // A request body (Responses `input` and `instructions`, Chat
  // Completions `messages`).
  void sent(simdjson::dom::object request, bool stored_redacted);

  struct Judgement {
    SeqList policy_unsent;        // the first turn's approval or sandbox policy, not the first request's
    SeqList cwd_unsent;           // the first turn's working directory, not the first request's
    SeqList policy_unstated;      // a later turn's policy no request of the run stated
    SeqList cwd_unstated;         // a later turn's working directory no request stated
    SeqList instructions_unsent;  // user instructions no request carried
    SeqList instructions_differ;  // user instructions other than the block the first request sent them in
    SeqList agents_md_differ;     // a world_state AGENTS.md text no request sent as a whole block
    SeqList policy_impossible;    // a policy spelled as no Codex release writes it
    SeqList policy_unfamiliar;    // a policy in Codex's spelling this reader does not know (a newer release?)
    SeqList uncompared;           // some request unread, or this class's bounds reached
    std::string policy_example;   // what the first unsent policy line says, for the message
  };
  // `requests_read`: how many requests were read; `requests_unread`: some
  // could not be (cut or undecodable), so one of those may have said it;
  // `resumed`: the launch resumes or forks an earlier session, whose first
  // request states the earlier run's context.
  Judgement judge(uint64_t requests_read, bool requests_unread, bool resumed) const;

 private:
  struct LoggedTurn {
    uint64_t seq = 0;
    std::string approval;  // normalised; empty when not a known string
    uint8_t sandboxes = 0; // the sandbox modes the request may state (bits); 0: not judged
    uint8_t other_sandbox = 0;  // a second tag's mode, where a line has both (Codex writes one)
    std::string cwd;
    // How the policy values are spelled, against every release's enums.
    bool impossible = false, unfamiliar = false;
  };
  struct LoggedInstructions {
    uint64_t seq = 0;
    std::string text;
    bool world_state = false;  // a world_state's AGENTS.md text, not a session_meta's
  };
  void logged_instructions(std::string_view text, bool world_state, uint64_t seq);
  enum class BlockMatch { whole, after_other_notice, none };
  BlockMatch world_state_block(const std::string& logged) const;
  void sent_messages(simdjson::dom::object request, bool stored_redacted);
  void sent_text(std::string_view text, bool stored_redacted);
  void environment_block(std::string_view block);
  void permissions_block(std::string_view block);
  void instruction_blocks(size_t text, bool first_request);
  bool carried_in_block(const std::string& logged, bool first_request_only) const;

  std::vector<LoggedTurn> turns_;
  std::vector<LoggedInstructions> instructions_;
  SeqList unkept_;
  // What requests stated: the whole run's, and the first request's.
  struct Stated {
    absl::flat_hash_set<std::string> approvals, cwds;
    uint8_t sandboxes = 0;
    bool approval_unknown = false, sandbox_unknown = false, cwd_unknown = false;
    // Which of the turn's values these statements leave unstated.
    bool policy_unstated(const LoggedTurn& t) const;
    bool cwd_unstated(const LoggedTurn& t) const;
  };
  Stated stated_, first_;
  uint64_t requests_ = 0;
  // The distinct message texts requests sent, for the instructions.
  std::vector<std::string> texts_;
  absl::flat_hash_set<Digest> text_digests_;
  size_t text_bytes_ = 0, logged_bytes_ = 0;
  bool texts_unkept_ = false, texts_redacted_ = false;
  // The user-instructions blocks requests sent: where in texts_ each
  // block's content begins, the tag that closes it, and whether the first
  // request sent it.
  struct SentBlock {
    size_t text = 0, content = 0;
    std::string_view close;
    bool first_request = false;
  };
  std::vector<SentBlock> blocks_;
  bool blocks_unkept_ = false;  // a text holding a block was past the bounds
};

}  // namespace goalcup::cheat
