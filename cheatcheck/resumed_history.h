// History from before this run. `claude --continue` (or `-c`, `--resume`,
// `-r`) of a conversation an earlier run had starts a new session file
// holding a copy of that history (the same uuids and message ids;
// anthropics/claude-code#4926): the harness's home persists between runs.
// Those copies are recorded as this run's lines, but their answers crossed
// the earlier run's wire. They are told apart narrowly, on evidence: the
// launch resumes, the lines lead their file and were written before the
// first request of the run that re-sends history, and that request carries
// each of them, turn by turn and in order. GC05 lists them at warning for a
// judge to read against the earlier run's trace; GC04 and GC05 judge every
// other line as before.
// A Claude Code session compacted in an earlier run (a compact_boundary,
// then the summary as a user line, isCompactSummary) is resumed from the
// summary: no request of this run re-sends the lines before the boundary.
// They are held as history when the boundary and the summary after it lead
// the file and the first request that re-sends history carries that
// summary (or a request carrying it is the first), as the first thing it
// sends, in Claude Code's words: GC05 lists them at warning
// (superseded()), their prompts too.
// A launch whose first request is a partial compaction (`claude -p
// /compact --continue`: Claude Code's compact prompt) sends the history
// without its tail, which the compaction keeps as it stands after the
// summary: the compact_boundary written next names those lines
// (preservedMessages). History lines it names that the request did not
// send, after every line it did (the tail), are held too, from that
// boundary only (the first one in their file after the request).
// `codex resume` (of the CLI or of `codex exec`, 0.4x on) appends to the
// earlier run's rollout instead: no new session_meta, nothing written at
// resume, so the earlier run's lines lead that file, and the first request
// re-sends each item of them (messages, reasoning, calls, outputs, web
// searches) as input. The same evidence holds them; GC04 also lets that
// run's own events repeat them (agent_message, agent_reasoning,
// web_search_end) when they were recorded before that request.
// `codex fork` writes a new rollout instead: its own session_meta
// (forked_from_id), then the parent's rollout items copied as they stand,
// which the first request re-sends: held the same way, from the argv.
// Codex's TUI, and Claude Code's, also resume from inside a run (their
// /resume picker), which no argv shows (Codex's `exec` and `review`, and
// Claude Code's `-p`, cannot): each appends to the earlier run's file as
// `codex resume` does. There the evidence is the lines' own: stamped before the run
// started and recorded before any request of it (pre-run lines, which no
// model answer of this run can have caused); only they are gathered, and
// the request that re-sends history must carry each of them, as above.
// The user may work in a new thread first: the requests carrying history
// that re-send not even the first pre-run answer are that thread's, and
// the one that resumes them comes later.
#pragma once

#include <simdjson.h>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <absl/container/flat_hash_map.h>
#include <absl/container/flat_hash_set.h>

#include "cheatcheck/native.h"
#include "core/record.h"
#include "core/json_strict.h"
#include "core/sha256.h"
#include "core/timefmt.h"

namespace goalcup::cheat {

class Context;

// Whether a launch's argv resumes an earlier conversation: Claude Code's
// `-c`/`--continue`, `-r`/`--resume` (with or without a session id) before
// any `--`; Codex's (the launch's harness id "codex") `resume` subcommand,
// of the CLI or of `exec`, with or without a session id or --last.
bool argv_resumes(simdjson::dom::object launch);
// A launch of a TUI whose argv does not resume, whose /resume picker may
// resume inside the run: Codex with no `exec`, `e` or `review`
// subcommand, Claude Code without `-p`/`--print`.
bool argv_resumes_inside(simdjson::dom::object launch);

class ResumedHistory {
 public:
  // A Claude Code or Codex line recorded before the first request carrying history.
  void on_native(uint64_t seq, const NativeInfo& n);
  // A request's body: the first that carries an assistant turn (Anthropic
  // messages, or a Responses input item of the model's) ends the gathering
  // and decides which lines it re-sends. `arguments` reads calls' arguments.
  void on_request(uint64_t seq, simdjson::dom::object request, StrictJsonParser& arguments);
  bool deciding() const { return state_ == State::gathering; }
  // After the decision: a line of the run, until the first compact_boundary
  // after the request says which unsent history lines it kept.
  void on_later_native(const NativeInfo& n);
  bool awaiting_boundary() const { return state_ == State::awaiting_boundary; }
  // Gathers only pre-run lines (a TUI launch whose argv does not resume):
  // stamped before `run_start` and recorded before the run's first request.
  void only_pre_run(std::optional<Timestamp> run_start) {
    pre_run_only_ = true;
    run_start_ = run_start;
  }
  // Any request of the run: past it no line is pre-run.
  void saw_request() { requested_ = true; }

  // The assistant lines that request re-sent as history, and those before
  // a compaction it resumed from.
  bool holds(uint64_t seq) const { return history_.contains(seq) || superseded_.contains(seq); }
  // Lines (answers and prompts) before a compaction of an earlier run whose
  // summary the request re-sent.
  bool superseded(uint64_t seq) const { return superseded_.contains(seq); }
  size_t superseded_count() const { return superseded_.size(); }
  // The request that decided, or 0 when a launch that does not resume
  // (pre-run lines only) had none of them re-sent: it excuses nothing.
  uint64_t request_seq() const { return pre_run_only_ && history_.empty() ? 0 : request_seq_; }
  // The sessionId the first of them names (clipped), and its file.
  const std::string& session() const { return session_; }
  const std::string& file() const { return file_; }

  // What is gathered, at most: past it a line is judged as it stands.
  static constexpr size_t kMaxLines = 1 << 16;
  static constexpr size_t kMaxItems = 1 << 18;

  // What a request sent, as items (each a digest of its role, kind and
  // content): each item's places, in order; the message of
  // each place; the messages that hold thinking.
  struct Sent {
    absl::flat_hash_map<Digest, std::vector<uint32_t>> places;
    std::vector<uint32_t> message_of;
    absl::flat_hash_set<uint32_t> with_thinking;
  };

 private:
  // What a line holds, each item (a text, a call, a result) as one digest
  // of its role, kind and content, compared with the blocks a request sent.
  struct Line {
    uint64_t seq = 0;
    Digest file{};
    bool assistant = false;
    bool thinking_only = false;  // an answer's line holding only thinking
    bool blank = false;          // an answer's line holding only white space
    Digest answer{};             // its message id
    Digest uuid{};               // Claude Code: its uuid
    std::vector<Digest> items;
    uint32_t named = 0;  // its file's and session's names in names_
    bool summary = false;  // a compaction's summary (claude_compact_summary)
  };
  void match(const Sent& sent);
  void unsent_parts(const absl::flat_hash_set<std::pair<Digest, Digest>>& bare,
                    const absl::flat_hash_set<std::pair<Digest, Digest>>& resent);
  void hold(const Line& line);
  bool sent_summary(const Line& line, const Sent& sent) const;
  bool summary_sent(const Sent& sent) const;
  void hold_superseded(const Sent& sent);
  void await_boundary();

  bool pre_run(const NativeInfo& n) const;
  bool resends_first_answer(const Sent& sent) const;

  enum class State { gathering, awaiting_boundary, done };
  State state_ = State::gathering;
  bool pre_run_only_ = false, requested_ = false;
  std::optional<size_t> first_answer_;  // in lines_
  std::optional<Timestamp> run_start_;
  std::vector<Line> lines_;
  // (file, session) names, clipped; a line's are the last ones when it is
  // gathered, so a run of lines of one file and session adds one.
  std::vector<std::pair<std::string, std::string>> names_;
  size_t items_ = 0;
  absl::flat_hash_set<Digest> files_;    // files whose first line was seen
  absl::flat_hash_set<Digest> refused_;  // files whose first line seen was not line 1
  absl::flat_hash_set<uint64_t> history_;
  absl::flat_hash_set<uint64_t> superseded_;
  absl::flat_hash_map<Digest, uint64_t> boundaries_;  // file -> seq of its last compact_boundary gathered
  absl::flat_hash_map<Digest, std::string> codex_sessions_;  // a rollout's session_meta id, clipped
  absl::flat_hash_map<Digest, uint64_t> last_resent_;  // file -> seq of its last line the request re-sent
  // Model lines gathered that the request did not send: (file, uuid) -> the line.
  absl::flat_hash_map<std::pair<Digest, Digest>, std::vector<Line>> unsent_;
  uint64_t request_seq_ = 0;
  std::string session_, file_;
};

// Feeds ctx's ResumedHistory with a record, once the launch is read and
// only when it resumes.
void follow_resumed_history(const Record& r, Context& ctx);

}  // namespace goalcup::cheat
