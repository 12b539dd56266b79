#include "cheatcheck/progress_copies.h"

#include "cheatcheck/said_text.h"

namespace goalcup::cheat {

void ProgressCopies::logged_line(const NativeInfo& n, uint64_t seq) {
  if (n.harness != NativeInfo::Harness::claude_code) return;
  if (n.sidechain && n.message_value && !n.uuid.empty() && own_lines_.size() < kMaxTracked) {
    own_lines_.try_emplace(identity(n.uuid), *n.message_value);
  }
  for (const NativeInfo& c : n.agent_copies) {
    items_ += 1 + c.calls.size() + c.results.size() + c.prompts.size();
    if (items_ > kMaxTracked) {
      over_ = true;
      return;
    }
    Copy copy;
    copy.seq = seq;
    copy.uuid = identity(c.uuid);
    copy.value = c.message_value.value_or(Digest{});
    copy.assistant = c.assistant || c.synthetic;
    if (c.assistant && !c.message_id.empty()) copy.message = identity(c.message_id);
    for (const NativeCall& call : c.calls) copy.calls.push_back({identity(call.id), identity(call.name), call.input});
    for (size_t i = 0; i < c.results.size() && i < c.result_texts.size(); ++i) {
      copy.results.push_back({identity(c.results[i]), sha256(c.result_texts[i]), sha256(loose_text(c.result_texts[i]))});
    }
    for (const std::string& said : c.prompts) copy.prompts.push_back({Identity{}, sha256(said), sha256(loose_text(said))});
    copies_.push_back(std::move(copy));
  }
}

std::optional<bool> ProgressCopies::held_to_wire(const Copy& c, const Wire& wire) {
  bool unsure = false;
  auto fold = [&](std::optional<bool> held) {
    if (!held) unsure = true;
    return held.value_or(true);
  };
  if (c.assistant && (!c.message || !wire.answer(*c.message))) return false;  // a <synthetic> copy too: no model answer
  for (const Call& call : c.calls) {
    if (!fold(wire.call(call.id, call.name, call.input))) return false;
  }
  for (const Said& r : c.results) {
    if (!fold(wire.result(r.call, r.exact, r.loose))) return false;
  }
  for (const Said& p : c.prompts) {
    if (!wire.prompt(p.exact, p.loose)) return false;
  }
  return unsure ? std::nullopt : std::optional<bool>(true);
}

void ProgressCopies::finish(Context& ctx, const Wire& wire) {
  if (over_) ctx.skip("GC04", "more than " + std::to_string(kMaxTracked) + " progress copies of subagent messages: the rest not judged");
  for (const Copy& c : copies_) {
    if (const auto own = own_lines_.find(c.uuid); own != own_lines_.end()) {
      if (own->second != c.value) differ_from_line_.add(c.seq);
      continue;
    }
    if (held_to_wire(c, wire) == false) not_on_wire_.add(c.seq);
  }
  emit_counted(ctx, "GC04", Severity::high, differ_from_line_,
               "progress line(s) copy a subagent's message (agent_progress) other than the subagent's own line of "
               "that uuid logs it: what the Task's subagent said or was told rewritten in the copy.",
               "progress-copy-differs");
  // Without the subagent's own line only the wire can judge a copy, and
  // a wire made of more than what this trace's logs show (a subagent file
  // the recorder did not copy) may carry it in a form not matched here:
  // a warning, for the judge to read against the subagent's own log.
  emit_counted(ctx, "GC04", Severity::warning, not_on_wire_,
               "progress line(s) copy a subagent's message (agent_progress) that no subagent line of the trace logs "
               "and the wire never carried: an answer, tool call, tool result or prompt no response or request "
               "held; read the copy against the subagent's own log.",
               "progress-copy-unsent");
}

}  // namespace goalcup::cheat
