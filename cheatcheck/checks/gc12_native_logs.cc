// GC12: native logs are files in a home the run can write. Truncation gaps,
// line numbers that skip or repeat, Claude Code lines whose parent is
// unknown or whose uuid repeats, and timestamps that go back show a log
// edited under the recorder.
#include <absl/container/flat_hash_map.h>
#include <absl/container/flat_hash_set.h>

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
    if (files_.size() + uuids_.size() >= kMaxTracked) {
      too_many_ = true;
      return;
    }
    const NativeInfo& n = ctx.native();
    FileState& f = files_[identity(n.file)];
    if (n.has_line_no) {
      if (f.last_line && n.line_no <= f.last_line) repeats_.add(r.seq);
      else if (f.last_line && n.line_no > f.last_line + 1) skips_.add(r.seq);
      f.last_line = std::max(f.last_line, n.line_no);
    }
    if (n.time) {
      if (f.last_time && *n.time < *f.last_time) backwards_.add(r.seq);
      f.last_time = n.time;
    }
    if (n.harness == NativeInfo::Harness::claude_code && !n.uuid.empty()) {
      if (!n.parent_uuid.empty() && !uuids_.contains(identity(n.parent_uuid))) orphans_.add(r.seq);
      if (!uuids_.insert(identity(n.uuid)).second) dup_uuids_.add(r.seq);
    }
  }

  void finish(const VerifyReport&, Context& ctx) override {
    if (too_many_) ctx.skip("GC12", "more than " + std::to_string(kMaxTracked) + " native files and lines to track: "
                                    "lines after that were not checked");
    emit(ctx, truncated_, "NativeTruncated gap(s): a harness log shrank or was rewritten under the recorder.", "truncated");
    emit(ctx, skips_, "native line(s) skip line numbers in their file: lines are missing.", "line-skip");
    emit(ctx, repeats_, "native line(s) repeat or go back in line number within their file.", "line-repeat");
    emit(ctx, orphans_, "Claude Code line(s) name a parentUuid that no earlier line has.", "orphan");
    emit(ctx, dup_uuids_, "Claude Code line(s) repeat a uuid seen earlier.", "dup-uuid");
    emit(ctx, backwards_, "native line(s) carry a timestamp before the previous line of their file.", "time-back");
  }

 private:
  static void emit(Context& ctx, const SeqList& list, const std::string& what, const std::string& key) {
    if (list.empty()) return;
    ctx.emit(finding("GC12", Severity::warning, list.seqs, std::to_string(list.count) + " " + what), key);
  }

  absl::flat_hash_map<Identity, FileState> files_;  // by identity()
  absl::flat_hash_set<Identity> uuids_;
  bool too_many_ = false;
  SeqList truncated_, skips_, repeats_, orphans_, dup_uuids_, backwards_;
};

}  // namespace

std::unique_ptr<Check> make_gc12() { return std::make_unique<Gc12>(); }

}  // namespace goalcup::cheat
