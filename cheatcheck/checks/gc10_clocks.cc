// GC10: record times are the recorder's clock; only statement times are the
// server's, and they bound the run. Records older than the start receipt or
// newer than the seal ack, times that go back, a large skew between a record
// and the ack that covers it, and ClockStep gaps are evidence.
#include "cheatcheck/checks/check.h"
#include "core/json_strict.h"

namespace goalcup::cheat {
namespace {

constexpr size_t kTimeWindow = 1 << 16;  // recent record times, for acks

class Gc10 final : public Check {
 public:
  std::string_view id() const override { return "GC10"; }

  void on_record(const Record& r, Context& ctx) override {
    const int64_t tol = static_cast<int64_t>(ctx.policy().thresholds.max_clock_skew_seconds * 1e9);
    const auto& start = ctx.facts().start_at;
    // The header and the start receipt are written before the server answers.
    if (r.seq >= 2 && start && r.t.nanos < start->nanos - tol) {
      add(r.kind == Kind::wire ? early_wire_ : early_, r.seq);
    }
    if (have_last_ && r.t < last_) add(backwards_, r.seq);
    if (r.kind == Kind::gap) {
      std::string_view name;
      if (json::string(r.body, "gap", &name) == json::Get::ok && name == "ClockStep") add(steps_, r.seq);
    }
    if (r.kind == Kind::ack && !ctx.facts().acks.empty() && ctx.facts().acks.back().record_seq == r.seq) {
      const AckFact& a = ctx.facts().acks.back();
      const auto& slot = times_[a.covers % kTimeWindow];
      if (slot.first == a.covers && static_cast<int64_t>(std::llabs(a.at.nanos - slot.second.nanos)) > tol) {
        add(skewed_, r.seq);
        worst_skew_ = std::max(worst_skew_, static_cast<int64_t>(std::llabs(a.at.nanos - slot.second.nanos)));
      }
    }
    if (r.kind != Kind::seal_ack && (!have_last_ || latest_ < r.t)) {
      latest_ = r.t;
      latest_seq_ = r.seq;
    }
    times_[r.seq % kTimeWindow] = {r.seq, r.t};
    last_ = r.t;
    have_last_ = true;
  }

  void finish(const VerifyReport&, Context& ctx) override {
    const int64_t tol = static_cast<int64_t>(ctx.policy().thresholds.max_clock_skew_seconds * 1e9);
    const std::string allowed = " (allowed skew " + seconds_text(tol) + ")";
    emit(ctx, early_wire_, Severity::high, "wire record(s) are older than the start receipt" + allowed +
                                               ": model traffic from before the run was registered.", "early-wire");
    emit(ctx, early_, Severity::warning, "record(s) are older than the start receipt" + allowed + ".", "early");
    const auto& end = ctx.facts().seal_ack_at;
    if (end && latest_.nanos > end->nanos + tol) {
      SeqList late;
      late.add(latest_seq_);
      emit(ctx, late, Severity::warning, "record(s) are newer than the seal acknowledgement" + allowed + ".",
           "late");
    }
    emit(ctx, backwards_, Severity::warning, "record(s) have a time before the record above them.", "backwards");
    emit(ctx, skewed_, Severity::warning,
         "ack(s) differ from the time of the record they cover by more than the allowed skew (worst " +
             seconds_text(worst_skew_) + ").",
         "skew");
    emit(ctx, steps_, Severity::warning, "ClockStep gap(s): the recorder's clock moved back.", "clock-step");
  }

 private:
  static void add(SeqList& v, uint64_t seq) { v.add(seq); }
  static void emit(Context& ctx, const SeqList& list, Severity sev, const std::string& what, const std::string& key) {
    if (list.empty()) return;
    ctx.emit(finding("GC10", sev, list.seqs, std::to_string(list.count) + " " + what), key);
  }

  std::vector<std::pair<uint64_t, Timestamp>> times_ =
      std::vector<std::pair<uint64_t, Timestamp>>(kTimeWindow, {UINT64_MAX, Timestamp{}});
  Timestamp last_, latest_;
  uint64_t latest_seq_ = 0;
  bool have_last_ = false;
  int64_t worst_skew_ = 0;
  SeqList early_wire_, early_, backwards_, skewed_, steps_;
};

}  // namespace

std::unique_ptr<Check> make_gc10() { return std::make_unique<Gc10>(); }

}  // namespace goalcup::cheat
