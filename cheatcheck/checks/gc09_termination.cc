// GC09: between the harness's exit and the seal, processes of the run can
// still act. Only late native lines, gaps and acks belong there; the seal
// should follow promptly; a non-zero exit or a signal deserves a look.
#include "cheatcheck/checks/check.h"
#include "core/json_strict.h"

namespace goalcup::cheat {
namespace {

class Gc09 final : public Check {
 public:
  std::string_view id() const override { return "GC09"; }

  void on_record(const Record& r, Context& ctx) override {
    if (r.kind == Kind::exit && !exit_seq_) {
      exit_seq_ = r.seq;
      exit_at_ = r.t;
      std::string_view at;
      if (json::string(r.body, "at", &at) == json::Get::ok && parse_time(at)) exit_at_ = *parse_time(at);
      abnormal_exit(r, ctx);
    } else if (r.kind == Kind::seal) {
      sealed_ = true;
      seal_seq_ = r.seq;
      seal_at_ = r.t;
      std::string_view at;
      if (json::string(r.body, "sealed_at", &at) == json::Get::ok && parse_time(at)) seal_at_ = *parse_time(at);
    } else if (exit_seq_ && !sealed_ && r.kind == Kind::unknown) {
      unknown_between_.add(r.seq);
    } else if (exit_seq_ && !sealed_ && r.kind != Kind::native && r.kind != Kind::gap && r.kind != Kind::ack) {
      between_.add(r.seq);
    }
  }

  void finish(const VerifyReport&, Context& ctx) override {
    if (!between_.empty()) {
      ctx.emit(finding("GC09", Severity::high, between_.seqs,
                       std::to_string(between_.count) + " record(s) other than native, gap or ack between the "
                       "harness's exit and the seal: something of the run still acted."),
               "between-exit-and-seal");
    }
    // The format allows kinds a newer recorder adds: what they say is
    // unknown, so they are a look, not proof that the run acted.
    if (!unknown_between_.empty()) {
      ctx.emit(finding("GC09", Severity::warning, unknown_between_.seqs,
                       std::to_string(unknown_between_.count) + " record(s) of a kind this tool does not know "
                       "between the harness's exit and the seal (a newer recorder's, or something of the run)."),
               "unknown-between-exit-and-seal");
    }
    if (exit_seq_ && sealed_) {
      const int64_t gap = nanos_between(exit_at_, seal_at_);
      const int64_t limit = seconds_to_nanos(ctx.policy().thresholds.max_exit_to_seal_seconds);
      if (gap > limit) {
        ctx.emit(finding("GC09", Severity::warning, {*exit_seq_, seal_seq_},
                         "The seal came " + seconds_text(gap) + " after the harness exited (allowed: " +
                             seconds_text(limit) + "), a window in which the run could act."),
                 "slow-seal");
      }
    }
  }

 private:
  void abnormal_exit(const Record& r, Context& ctx) {
    int64_t code = 0;
    const bool has_code = json::integer(r.body, "code", &code) == json::Get::ok;
    simdjson::dom::element signal;
    const bool signalled = !r.body.at_key("signal").get(signal) && !signal.is_null();
    if ((has_code && code != 0) || signalled) {
      std::string how = signalled ? "was killed by a signal" : "exited with code " + std::to_string(code);
      ctx.emit(finding("GC09", Severity::warning, {r.seq}, "The harness " + how + "."), "exit-status");
    }
  }

  std::optional<uint64_t> exit_seq_;
  Timestamp exit_at_, seal_at_;
  bool sealed_ = false;
  uint64_t seal_seq_ = 0;
  SeqList between_, unknown_between_;
};

}  // namespace

// The rule the reports list this check under (text help, SARIF), and its factory.
const CheckRegistrar kRegisteredGc09({.id = "GC09",
                                  .name = "TerminationWindow",
                                  .gap = "Between the harness's exit and the seal, and after a signal, processes of the run can still act.",
                                  .bound = "The recorder seals promptly after exit.",
                                  .evidence = "Records other than native, gap, ack between exit and seal; a long exit-to-seal time; a non-zero exit or a signal."},
                                 make_check<Gc09>);

}  // namespace goalcup::cheat
