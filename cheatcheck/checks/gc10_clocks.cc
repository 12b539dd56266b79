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
    const int64_t tol = seconds_to_nanos(ctx.policy().thresholds.max_clock_skew_seconds);
    const auto& start = ctx.facts().start_at;
    if (r.kind == Kind::start_receipt && !receipt_written_) receipt_written_ = r.t;
    // The header and the start receipt are written before the server answers.
    if (r.seq >= 2 && start && nanos_between(r.t, *start) > tol) note_early(r, *start);
    if (have_last_ && r.t < last_) add(backwards_, r.seq);
    if (r.kind == Kind::gap) {
      std::string_view name;
      if (json::string(r.body, "gap", &name) == json::Get::ok && name == "ClockStep") add(steps_, r.seq);
    }
    if (r.kind == Kind::ack && !ctx.facts().acks.empty() && ctx.facts().acks.back().record_seq == r.seq) {
      // The server acks after the record was written: a little before it
      // is clock skew, long after it is a slow upload; beyond either bound
      // the record's time is not the time it was written.
      const AckFact& a = ctx.facts().acks.back();
      const auto& slot = times_[a.covers % times_.size()];
      const int64_t delay = seconds_to_nanos(ctx.policy().thresholds.max_ack_delay_seconds);
      const int64_t lag = nanos_between(slot.second, a.at);
      if (slot.first == a.covers && (lag < -tol || lag > delay)) {
        add(skewed_, r.seq);
        worst_skew_ = std::max(worst_skew_, lag == INT64_MIN ? INT64_MAX : std::abs(lag));
      }
    }
    if (r.kind != Kind::seal_ack && (!have_last_ || latest_ < r.t)) {
      latest_ = r.t;
      latest_seq_ = r.seq;
    }
    remember_time(r.seq, r.t);
    last_ = r.t;
    have_last_ = true;
  }

  void finish(const VerifyReport&, Context& ctx) override {
    const int64_t tol = seconds_to_nanos(ctx.policy().thresholds.max_clock_skew_seconds);
    const std::string allowed = " (allowed skew " + seconds_text(tol) + ")";
    emit(ctx, early_wire_, Severity::high, "wire record(s) are older than the start receipt" + allowed +
                                               ": model traffic from before the run was registered.", "early-wire");
    emit(ctx, early_, Severity::warning, "record(s) are older than the start receipt" + allowed + ".", "early");
    emit(ctx, behind_, Severity::warning,
         "record(s) are older than the start receipt's server time, yet not older than the receipt's own "
         "record by the recorder's clock: the recorder's clock was behind the server's by up to " +
             seconds_text(worst_behind_) + allowed + ".",
         "clock-behind");
    const auto& end = ctx.facts().seal_ack_at;
    if (end && nanos_between(*end, latest_) > tol) {
      SeqList late;
      late.add(latest_seq_);
      emit(ctx, late, Severity::warning, "record(s) are newer than the seal acknowledgement" + allowed + ".",
           "late");
    }
    emit(ctx, backwards_, Severity::warning, "record(s) have a time before the record above them.", "backwards");
    emit(ctx, skewed_, Severity::warning,
         "ack(s) were signed before the record they cover was written (beyond the allowed skew) or long after "
         "it (beyond " + seconds_text(seconds_to_nanos(ctx.policy().thresholds.max_ack_delay_seconds)) +
             "); worst " + seconds_text(worst_skew_) + ".",
         "skew");
    emit(ctx, steps_, Severity::warning, "ClockStep gap(s): the recorder's clock moved back.", "clock-step");
  }

 private:
  static void add(SeqList& v, uint64_t seq) { v.add(seq); }
  // `r` is older than the start receipt's server time. Older than the
  // receipt's own record too, both by the recorder's clock, it was written
  // before the run was registered; otherwise the recorder's clock runs
  // behind the server's, which moves every record alike (and the chain puts
  // them all after the receipt): no evidence against the run.
  void note_early(const Record& r, Timestamp start) {
    if (receipt_written_ && !(r.t < *receipt_written_)) {
      add(behind_, r.seq);
      const int64_t lag = nanos_between(r.t, start);
      worst_behind_ = std::max(worst_behind_, lag == INT64_MIN ? INT64_MAX : lag);
      return;
    }
    add(r.kind == Kind::wire ? early_wire_ : early_, r.seq);
  }
  static void emit(Context& ctx, const SeqList& list, Severity sev, const std::string& what, const std::string& key) {
    emit_counted(ctx, "GC10", sev, list, what, key);
  }

  // Grows with the seqs seen, up to kTimeWindow: a small trace pays for a
  // small window. Until full size, a seq is at its own index, so growing
  // keeps every time remembered.
  std::vector<std::pair<uint64_t, Timestamp>> times_ =
      std::vector<std::pair<uint64_t, Timestamp>>(256, {UINT64_MAX, Timestamp{}});
  void remember_time(uint64_t seq, Timestamp t) {
    while (seq >= times_.size() && times_.size() < kTimeWindow) {
      times_.resize(std::min(kTimeWindow, 2 * times_.size()), {UINT64_MAX, Timestamp{}});
    }
    times_[seq % times_.size()] = {seq, t};
  }
  Timestamp last_, latest_;
  uint64_t latest_seq_ = 0;
  bool have_last_ = false;
  int64_t worst_skew_ = 0;
  std::optional<Timestamp> receipt_written_;  // the start receipt record's own time
  int64_t worst_behind_ = 0;
  SeqList early_wire_, early_, behind_, backwards_, skewed_, steps_;
};

}  // namespace

// The rule the reports list this check under (text help, SARIF), and its factory.
const CheckRegistrar kRegisteredGc10({.id = "GC10",
                                  .name = "Clocks",
                                  .gap = "Record times are the recorder's clock; only statement times are the server's.",
                                  .bound = "Server times bound the run: nothing of it is older than the start receipt.",
                                  .evidence = "Record times before the start receipt or after the seal ack; times going back; large skew to the covering ack; ClockStep gaps."},
                                 make_check<Gc10>);

}  // namespace goalcup::cheat
