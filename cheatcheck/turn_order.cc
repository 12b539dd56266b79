#include "cheatcheck/turn_order.h"

#include <algorithm>
#include <limits>

namespace goalcup::cheat {

void TurnOrder::wire_answer(std::string_view message_id, uint64_t seq) {
  if (message_id.empty()) return;
  if (full()) {
    over_ = true;
    return;
  }
  wire_answers_.try_emplace(identity(message_id), seq);
}

void TurnOrder::logged_line(const NativeInfo& n, uint64_t seq) {
  if (n.harness == NativeInfo::Harness::other) return;
  if (full()) {
    over_ = true;
    return;
  }
  // Every line of a sidechain links its chain (system and progress lines too).
  const Identity thread_id = thread_of(n);
  if (!n.assistant && !n.user) return;
  std::vector<Item>& thread = threads_[thread_id];
  auto add = [&](ItemKind kind, const Digest& key) {
    thread.push_back({seq, kind, key});
    ++items_;
  };
  // An answer's place is its first line: Claude Code 2.x logs a call's
  // result between the calls of one answer, and a resumed session writes
  // an answer's lines again later.
  if (n.harness == NativeInfo::Harness::claude_code && n.assistant && !n.message_id.empty() &&
      answers_logged_.insert(identity(n.message_id)).second) {
    add(ItemKind::answer, identity(n.message_id));
  }
  // Codex: a call's id is its own (a message's text may repeat).
  if (n.harness == NativeInfo::Harness::codex && n.assistant) {
    for (const NativeCall& c : n.calls) {
      if (!c.id.empty() && answers_logged_.insert(identity(c.id)).second) add(ItemKind::call, identity(c.id));
    }
  }
  if (!n.user) return;
  for (const std::string& said : n.prompts) add(ItemKind::prompt, sha256(said));
  for (const std::string& call : n.results) {
    add(ItemKind::result, identity(call));
    thread.back().after_own_call = n.harness == NativeInfo::Harness::codex && answers_logged_.contains(identity(call));
  }
}

Identity TurnOrder::thread_of(const NativeInfo& n) {
  if (!n.sidechain) return identity(n.file);
  // A subagent's thread: its file and the first line of its parentUuid
  // chain (Claude Code 2.0 logs every Task's sidechain, parallel ones
  // interleaved, in the session's own file; 2.1 each in a file of its own).
  const auto parent = n.parent_uuid.empty() ? sidechain_roots_.end() : sidechain_roots_.find(identity(n.parent_uuid));
  const Identity root = parent != sidechain_roots_.end() ? parent->second : identity(n.file + "\x01" + n.uuid);
  if (!n.uuid.empty()) sidechain_roots_.try_emplace(identity(n.uuid), root);
  return root;
}

std::optional<uint64_t> TurnOrder::answered_at(const Item& item, const FirstSent& first_sent) const {
  if (item.kind == ItemKind::call) return first_sent.call(item.key);
  const auto wire = wire_answers_.find(item.key);
  return wire == wire_answers_.end() ? std::nullopt : std::optional<uint64_t>(wire->second);
}

void TurnOrder::judge_thread(const std::vector<Item>& items, const FirstSent& first_sent) {
  // Answers: each response later than the one of the answer logged before.
  uint64_t latest = 0;
  for (const Item& item : items) {
    if (item.kind != ItemKind::answer && item.kind != ItemKind::call) continue;
    const std::optional<uint64_t> wire = answered_at(item, first_sent);
    if (!wire) continue;  // an earlier run's, or never answered here: nothing to order by
    if (*wire < latest) answers_out_of_order_.add(item.seq);
    latest = std::max(latest, *wire);
  }
  // What was sent: first carried before the response of the next answer
  // logged after it (walked backwards, that answer's response at hand,
  // and the next one of another response).
  constexpr uint64_t kNone = std::numeric_limits<uint64_t>::max();
  uint64_t next_answer = kNone, next_other_answer = kNone;
  for (auto it = items.rbegin(); it != items.rend(); ++it) {
    if (it->kind == ItemKind::answer || it->kind == ItemKind::call) {
      const std::optional<uint64_t> wire = answered_at(*it, first_sent);
      if (wire && *wire != next_answer) {
        next_other_answer = next_answer;
        next_answer = *wire;
      }
      continue;
    }
    const std::optional<uint64_t> sent = it->kind == ItemKind::prompt ? first_sent.prompt(it->key) : first_sent.result(it->key);
    // Codex 0.58 runs a response's calls one by one and logs each output
    // right after its call, before the response's next call: a result
    // logged after its own call is held only to the answers of later
    // responses than that call's.
    uint64_t bound = next_answer;
    if (it->kind == ItemKind::result && it->after_own_call && first_sent.call(it->key) == next_answer) bound = next_other_answer;
    if (sent && *sent > bound && bound < first_unread_) sent_after_answer_.add(it->seq);
  }
}

void TurnOrder::finish(Context& ctx, const FirstSent& first_sent) {
  if (over_) {
    ctx.skip("GC04", "more than " + std::to_string(kMaxTracked) + " lines or answers to order: the log's turn order not judged");
    return;
  }
  for (const auto& [file, items] : threads_) judge_thread(items, first_sent);
  emit_counted(ctx, "GC04", Severity::high, answers_out_of_order_,
               "answer line(s) of a log's main chain or a subagent's stand in another order than the responses that carried them: "
               "an answer (or Codex tool call) logged after one the wire carried later (turns moved in the log).",
               "turn-order-answers");
  emit_counted(ctx, "GC04", Severity::high, sent_after_answer_,
               "prompt(s) or tool result(s) of a log's main chain or a subagent's are logged before an answer whose request did not "
               "carry them: the wire first carried them after that answer (moved in the log).",
               "turn-order-sent");
}

}  // namespace goalcup::cheat
