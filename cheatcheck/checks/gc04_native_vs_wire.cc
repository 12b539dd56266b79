// GC04: processes of the run could call the control API and make the
// harness log model output that never crossed the wire. Native assistant
// messages are matched to wire responses by id (Claude Code) or by text
// (Codex); the text the harness logged must equal the text rebuilt from the
// stream. Only id digests (identity()), seqs and digests are kept, for at most
// kMaxTracked messages.
#include <absl/container/flat_hash_map.h>
#include <absl/container/flat_hash_set.h>

#include "cheatcheck/checks/check.h"
#include "core/sha256.h"

namespace goalcup::cheat {
namespace {

struct WireAnswer {
  uint64_t seq = 0;
  Digest text{};
  uint32_t model = 0;  // index into Gc04::models_
  bool logged = false;
};

struct NativeMessage {
  std::string id;  // clipped, for the finding
  std::vector<uint64_t> seqs;
  std::unique_ptr<Sha256> text = std::make_unique<Sha256>();
  bool has_text = false;
};

class Gc04 final : public Check {
 public:
  std::string_view id() const override { return "GC04"; }

  void on_record(const Record& r, Context& ctx) override {
    if (tracked() >= kMaxTracked) {
      too_many_ = true;
      return;
    }
    if (r.kind == Kind::wire && ctx.is_sse_response()) {
      const RebuiltAnswer& a = ctx.answer();
      if (a.message_id.empty()) return;
      ++wire_answers_;
      wire_by_id_[identity(a.message_id)] = WireAnswer{r.seq, sha256(a.text), model_index(a.model), false};
      if (a.provider == RebuiltAnswer::Provider::openai_responses) {
        // Codex logs one line per message item; an answer may hold several.
        if (!a.text.empty()) wire_by_text_.try_emplace(sha256(a.text), r.seq);
        for (const auto& item : a.text_blocks) {
          if (!item.empty()) wire_by_text_.try_emplace(sha256(item), r.seq);
        }
        for (const auto& call : a.tool_calls) {
          if (!call.id.empty()) wire_by_call_.try_emplace(identity(call.id), r.seq);
        }
      }
    } else if (r.kind == Kind::native) {
      const NativeInfo& n = ctx.native();
      if (n.synthetic) synthetic_.add(r.seq);
      if (!n.assistant) return;
      ++native_lines_;
      if (n.harness == NativeInfo::Harness::claude_code && !n.message_id.empty()) {
        NativeMessage& m = native_by_id_[identity(n.message_id)];
        if (m.id.empty()) m.id = clip_text(n.message_id);
        if (m.seqs.size() < kMaxSeqs) m.seqs.push_back(r.seq);
        if (!n.text.empty() || n.type == "assistant") {
          m.text->update(n.text);
          m.has_text |= !n.text.empty();
        }
      } else if (n.harness == NativeInfo::Harness::codex && !n.text.empty()) {
        codex_texts_.emplace_back(r.seq, sha256(n.text));
      } else if (n.harness == NativeInfo::Harness::codex && !n.call_id.empty()) {
        codex_calls_.insert(identity(n.call_id));
      }
    }
  }

  void finish(const VerifyReport&, Context& ctx) override {
    if (too_many_) {
      ctx.skip("GC04", "more than " + std::to_string(kMaxTracked) + " messages to match: not judged");
      return;
    }
    for (auto& [key, m] : native_by_id_) {
      const std::string& id = m.id;
      auto it = wire_by_id_.find(key);
      if (it == wire_by_id_.end()) {
        ctx.emit(finding("GC04", Severity::high, m.seqs,
                         "The harness logged assistant message " + id + " but no wire response carries that id: "
                         "model output that never crossed the proxy."),
                 "no-wire:" + id);
        continue;
      }
      it->second.logged = true;
      if (m.has_text && m.text->finish() != it->second.text) {
        std::vector<uint64_t> seqs = m.seqs;
        seqs.push_back(it->second.seq);
        ctx.emit(finding("GC04", Severity::high, seqs,
                         "The text the harness logged for " + id + " differs from the text rebuilt from its wire "
                         "stream at seq " + std::to_string(it->second.seq) + "."),
                 "text-differs:" + id);
      }
    }
    for (const auto& [seq, digest] : codex_texts_) {
      auto it = wire_by_text_.find(digest);
      if (it == wire_by_text_.end()) {
        ctx.emit(finding("GC04", Severity::high, {seq},
                         "Codex logged an assistant answer whose text matches no answer rebuilt from the wire."),
                 "codex-unmatched:" + to_hex(digest));
      } else {
        matched_codex_.insert(it->second);
      }
    }
    for (const auto& [call, seq] : wire_by_call_) {
      if (codex_calls_.contains(call)) matched_codex_.insert(seq);
    }
    unlogged(ctx);
    if (!synthetic_.empty()) {
      ctx.emit(finding("GC04", Severity::info, synthetic_.seqs,
                       std::to_string(synthetic_.count) + " assistant line(s) have model <synthetic>: Claude Code "
                       "writes these itself (API errors, placeholders), so they were not matched to the wire. "
                       "Read them to be sure none is a model answer."),
               "synthetic");
    }
  }

 private:
  // Wire answers the harness never logged (only when it logs at all), by
  // model: a harness's side calls to a small model (titles, checks) are
  // told apart from the conversation's own at a glance.
  void unlogged(Context& ctx) {
    if (native_lines_ == 0) return;
    std::vector<uint64_t> seqs;
    std::vector<uint64_t> per_model(models_.size());
    for (const auto& [id, w] : wire_by_id_) {
      if (w.logged || matched_codex_.contains(w.seq)) continue;
      seqs.push_back(w.seq);
      ++per_model[w.model];
    }
    if (seqs.empty()) return;
    std::sort(seqs.begin(), seqs.end());
    std::string models;
    for (size_t i = 0; i < models_.size(); ++i) {
      if (per_model[i] > 0) models += (models.empty() ? "" : ", ") + models_[i] + ": " + std::to_string(per_model[i]);
    }
    ctx.emit(finding("GC04", Severity::warning, seqs,
                     std::to_string(seqs.size()) + " wire response(s) were never logged by the harness (" + models +
                         ")."),
             "unlogged");
  }

  // At most kMaxNames names are kept; later ones share "(other models)".
  uint32_t model_index(std::string_view model) {
    std::string name = model.empty() ? "(no model)" : clip_text(model);
    auto it = std::find(models_.begin(), models_.end(), name);
    if (it == models_.end() && models_.size() + 1 >= kMaxNames) {
      name = "(other models)";
      it = std::find(models_.begin(), models_.end(), name);
    }
    if (it != models_.end()) return static_cast<uint32_t>(it - models_.begin());
    models_.push_back(std::move(name));
    return static_cast<uint32_t>(models_.size() - 1);
  }

  size_t tracked() const {
    return wire_by_id_.size() + wire_by_text_.size() + native_by_id_.size() + wire_by_call_.size() +
           codex_texts_.size() + codex_calls_.size();
  }

  absl::flat_hash_map<Identity, WireAnswer> wire_by_id_;
  absl::flat_hash_map<Digest, uint64_t> wire_by_text_;
  absl::flat_hash_map<Identity, NativeMessage> native_by_id_;
  absl::flat_hash_map<Identity, uint64_t> wire_by_call_;
  std::vector<std::pair<uint64_t, Digest>> codex_texts_;
  absl::flat_hash_set<Identity> codex_calls_;
  absl::flat_hash_set<uint64_t> matched_codex_;
  SeqList synthetic_;
  std::vector<std::string> models_;
  uint64_t wire_answers_ = 0, native_lines_ = 0;
  bool too_many_ = false;
};

}  // namespace

std::unique_ptr<Check> make_gc04() { return std::make_unique<Gc04>(); }

}  // namespace goalcup::cheat
