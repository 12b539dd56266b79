// GC12: native logs are files in a home the run can write. What a log
// guarantees is checked, and only that: line numbers that run on by one per
// file, Claude Code uuids that do not repeat and parents written before
// their children, tool results written after their calls. A parent or a
// call written after the line that needs it is a reordered log (high). Wall
// clock order is not promised (parallel tool results are written in call
// order, Task sidechains late, Codex stamps token counts before the line
// above): timestamps that go back are listed at info. Lines of a shape the
// reader does not know are a warning: such a log cannot be judged.
// Bookkeeping lines of a type it has not seen (harnesses add titles, modes
// and snapshots with each release) hold nothing the model said: listed at
// info by type.
#include <absl/container/flat_hash_map.h>
#include <absl/container/flat_hash_set.h>

#include <algorithm>

#include "cheatcheck/checks/check.h"
#include "core/json_strict.h"

namespace goalcup::cheat {
namespace {

struct FileState {
  uint64_t last_line = 0;
  std::optional<Timestamp> last_time;
};

class Gc12 final : public Check {
 public:
  std::string_view id() const override { return "GC12"; }

  void on_record(const Record& r, Context& ctx) override {
    if (r.kind == Kind::gap) {
      std::string_view name;
      if (json::string(r.body, "gap", &name) == json::Get::ok && name == "NativeTruncated") truncated_.add(r.seq);
      return;
    }
    if (r.kind != Kind::native) return;
    if (files_.size() + uuids_.size() + pending_parents_.size() + calls_.size() + pending_results_.size() >=
        kMaxTracked) {
      too_many_ = true;
      return;
    }
    const NativeInfo& n = ctx.native();
    if (n.parse_error && (*n.parse_error == Code::duplicate_member || code_class(*n.parse_error) == ErrorClass::limit)) {
      crafted_.add(r.seq);
    } else if (!n.understood) {
      not_understood_.add(r.seq);
    }
    if (n.unfamiliar) note_unfamiliar(r.seq, n.type);
    FileState& f = files_[identity(n.file)];
    if (n.has_line_no) {
      if (f.last_line && n.line_no <= f.last_line) repeats_.add(r.seq);
      else if (f.last_line && n.line_no > f.last_line + 1) skips_.add(r.seq);
      f.last_line = std::max(f.last_line, n.line_no);
    }
    if (n.time) {
      if (f.last_time && *n.time < *f.last_time) backwards_.add(r.seq);
      if (!f.last_time || *f.last_time < *n.time) f.last_time = n.time;
    }
    if (n.harness == NativeInfo::Harness::claude_code && !n.uuid.empty()) links(r.seq, n);
    order_of_calls(r.seq, n);
  }

  void finish(const VerifyReport&, Context& ctx) override {
    if (too_many_) ctx.skip("GC12", "more than " + std::to_string(kMaxTracked) + " native files and lines to track: "
                                    "lines after that were not checked");
    SeqList orphans;
    for (const auto& [parent, seq] : pending_parents_) orphans.add(seq);
    emit(ctx, Severity::warning, not_understood_, "native line(s) of a shape this tool does not know: native format "
         "not understood, so what the harness logged was not judged.", "not-understood");
    emit(ctx, Severity::high, crafted_, "native line(s) name a member twice in one object or nest past " +
         std::to_string(kNestedMaxDepth) + " levels: no harness writes such JSON (JSON.stringify and serde "
         "never repeat a member), and readers disagree on what such a line says (JSON.parse keeps the last member, "
         "others the first): the log was edited to show other text than the one checked.", "crafted");
    emit(ctx, Severity::warning, truncated_, "NativeTruncated gap(s): a harness log shrank or was rewritten under the recorder.", "truncated");
    emit(ctx, Severity::warning, skips_, "native line(s) skip line numbers in their file: lines are missing.", "line-skip");
    emit(ctx, Severity::warning, repeats_, "native line(s) repeat or go back in line number within their file.", "line-repeat");
    emit(ctx, Severity::warning, orphans, "Claude Code line(s) name a parentUuid that no line of the log has.", "orphan");
    emit(ctx, Severity::high, parent_after_, "Claude Code line(s) name as parent a line written after them: the log "
         "was reordered.", "parent-after");
    emit(ctx, Severity::high, result_before_call_, "tool result(s) logged before the tool call they answer: the log "
         "was reordered.", "result-before-call");
    emit(ctx, Severity::high, chain_crossed_, "Claude Code line(s) name as parent a line of their own file on the "
         "other chain (a sidechain's line under the main chain's, or the reverse): Claude Code starts a sidechain "
         "with no parent and never links the two in one file, so a line was added or moved between them.",
         "chain-crossed");
    emit(ctx, Severity::warning, dup_uuids_, "Claude Code line(s) repeat a uuid seen earlier, saying other than its "
         "first line or under another parent.", "dup-uuid");
    emit(ctx, Severity::info, copies_, "Claude Code line(s) repeat an earlier line of their uuid word for word but "
         "for the members Claude Code stamps anew (sessionId, timestamp, ...), under the same parent: a resumed "
         "session's copy of its history.", "uuid-copies");
    emit(ctx, Severity::info, unfamiliar_, "native line(s) of bookkeeping types this tool has not seen (" +
         unfamiliar_names() + "): they hold no message, so nothing the model said was left unjudged.", "unfamiliar");
    emit(ctx, Severity::info, backwards_, "native line(s) carry a timestamp before an earlier line of their file "
         "(harnesses do not write in time order: parallel work, late sidechains).", "time-back");
  }

 private:
  // Parent links: a parent not seen yet is pending; if it turns up later,
  // the child was written before its parent.
  void links(uint64_t seq, const NativeInfo& n) {
    const Identity self = identity(n.uuid);
    if (auto it = pending_parents_.find(self); it != pending_parents_.end()) {
      parent_after_.add(it->second);
      pending_parents_.erase(it);
    }
    const Identity file = identity(n.file);
    if (auto parent = uuids_.find(identity(n.parent_uuid)); !n.parent_uuid.empty() && parent == uuids_.end()) {
      pending_parents_.try_emplace(identity(n.parent_uuid), seq);
    } else if (!n.parent_uuid.empty() && parent->second.file == file && parent->second.sidechain != n.sidechain) {
      chain_crossed_.add(seq);
    }
    const Identity parent_id = identity(n.parent_uuid);
    const auto [it, first] = uuids_.try_emplace(self, Line{n.copy_key, parent_id, file, n.sidechain});
    // A copy under another parent would move what it says elsewhere in the conversation.
    if (!first) (it->second.copy_key == n.copy_key && it->second.parent == parent_id ? copies_ : dup_uuids_).add(seq);
  }

  void order_of_calls(uint64_t seq, const NativeInfo& n) {
    for (const NativeCall& c : n.calls) {
      const Identity id = identity(c.id);
      calls_.insert(id);
      if (auto it = pending_results_.find(id); it != pending_results_.end()) {
        result_before_call_.add(it->second);
        pending_results_.erase(it);
      }
    }
    for (const std::string& id : n.results) {
      if (!calls_.contains(identity(id))) pending_results_.try_emplace(identity(id), seq);
    }
  }

  void note_unfamiliar(uint64_t seq, const std::string& type) {
    unfamiliar_.add(seq);
    if (unfamiliar_types_.size() < kNamesShown && std::find(unfamiliar_types_.begin(), unfamiliar_types_.end(), type) ==
                                                      unfamiliar_types_.end()) {
      unfamiliar_types_.push_back(type);
    }
  }

  std::string unfamiliar_names() const {
    std::string out;
    for (const std::string& t : unfamiliar_types_) out += (out.empty() ? "" : ", ") + t;
    return out;
  }

  static void emit(Context& ctx, Severity severity, const SeqList& list, const std::string& what,
                   const std::string& key) {
    emit_counted(ctx, "GC12", severity, list, what, key);
  }

  absl::flat_hash_map<Identity, FileState> files_;  // by identity()
  // A Claude Code line, by uuid (its first): what it says (NativeInfo::copy_key), under which parent,
  // in which file, on which chain.
  struct Line {
    Digest copy_key{};
    Identity parent{};
    Identity file{};
    bool sidechain = false;
  };
  absl::flat_hash_map<Identity, Line> uuids_;
  absl::flat_hash_set<Identity> calls_;
  absl::flat_hash_map<Identity, uint64_t> pending_parents_, pending_results_;  // id -> first seq naming it
  static constexpr size_t kNamesShown = 8;
  std::vector<std::string> unfamiliar_types_;  // the first kNamesShown, for the message
  bool too_many_ = false;
  SeqList unfamiliar_, not_understood_, crafted_, truncated_, skips_, repeats_, dup_uuids_, copies_, chain_crossed_, backwards_, parent_after_, result_before_call_;
};

}  // namespace

// The rule the reports list this check under (text help, SARIF), and its factory.
const CheckRegistrar kRegisteredGc12({.id = "GC12",
                                  .name = "NativeLogsWritable",
                                  .gap = "Native logs are the harness's own files in a home the run can write.",
                                  .bound = "NativeTruncated is recorded when a log shrinks or is rewritten.",
                                  .evidence = "NativeTruncated gaps; line numbers that skip or repeat; parentUuid naming no earlier uuid; repeated uuids; timestamps going back."},
                                 make_check<Gc12>);

}  // namespace goalcup::cheat
