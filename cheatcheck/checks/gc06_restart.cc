// GC06: after a daemon restart a recovered capture may only report status
// and seal, and records exactly one IngestLost.
#include <map>

#include "cheatcheck/checks/check.h"
#include "core/json_strict.h"

namespace goalcup::cheat {

namespace {

// What a recovered capture may still write: its status (acks, gaps) and seal.
bool status_or_seal(Kind k) { return k == Kind::ack || k == Kind::gap || k == Kind::seal || k == Kind::seal_ack; }

class Gc06 final : public Check {
 public:
  std::string_view id() const override { return "GC06"; }

  void on_record(const Record& r, Context&) override {
    if (r.kind == Kind::gap) {
      std::string_view name = "unnamed";
      (void)json::string(r.body, "gap", &name);
      gaps_.add(name, r.seq);
      if (name == "IngestLost") ++ingest_lost_;
    } else if (r.kind == Kind::seal) {
      std::string_view reason;
      if (json::string(r.body, "reason", &reason) == json::Get::ok && reason == "recovered") recovered_seal_ = r.seq;
    } else if (ingest_lost_ > 0 && r.kind == Kind::unknown) {
      // A kind this tool does not know may be a newer recorder's status
      // record (GC09 and verify rate it a warning for that reason).
      unknown_after_.add(r.seq);
    } else if (ingest_lost_ > 0 && !status_or_seal(r.kind)) {
      after_.add(r.seq);
    }
  }

  void finish(const VerifyReport&, Context& ctx) override {
    for (const auto& [name, list] : gaps_.all()) {
      const bool lost = name == "IngestLost";
      const Severity sev = lost && list.count > 1 ? Severity::high : lost ? Severity::warning : Severity::info;
      std::string msg = list.count > 1 ? std::to_string(list.count) + " " + name + " gaps" : "A " + name + " gap";
      msg += lost ? (list.count > 1 ? ": more than one daemon restart lost ingest, beyond the one a recovered capture records."
                                     : ": the daemon restarted and the capture was recovered; what happened meanwhile is not recorded.")
                  : name == "ProxyRestart" ? ": the capture proxy restarted, so traffic in between may be missing."
                  : name == "ClockStep"    ? ": the recorder's clock moved back (see GC10)."
                  : name == "NativeTruncated" ? ": a harness log shrank or was rewritten (see GC12)."
                                              : ": the recorder says it did not capture something.";
      ctx.emit(finding("GC06", sev, list.seqs, msg), "gap:" + name);
    }
    emit_counted(ctx, "GC06", Severity::high, after_,
                 "record(s) other than ack, gap, seal or seal_ack (wire, "
                 "native, exit, tunnel...) follow an IngestLost gap, where a recovered capture may only report "
                 "status and seal.",
                 "after-ingest-lost");
    emit_counted(ctx, "GC06", Severity::warning, unknown_after_,
                 "record(s) of a kind this tool does not know follow an IngestLost gap: a newer recorder's status "
                 "record would look so; anything else there breaks the rule that a recovered capture only reports "
                 "status and seal. Read them.",
                 "unknown-after-ingest-lost");
    if (recovered_seal_ && ingest_lost_ == 0) {
      // Without the exit as well, verify already refuses the trace.
      ctx.emit(finding("GC06", Severity::warning, {*recovered_seal_},
                       "The seal says the capture was recovered after a restart, but no IngestLost gap records one "
                       "(a recovered capture records exactly one): the seal's reason is not what happened."),
               "recovered-without-restart");
    }
  }

 private:
  NamedSeqs gaps_;
  uint64_t ingest_lost_ = 0;
  std::optional<uint64_t> recovered_seal_;  // a seal with reason "recovered"
  SeqList after_, unknown_after_;
};

}  // namespace

// The rule the reports list this check under (text help, SARIF), and its factory.
const CheckRegistrar kRegisteredGc06({.id = "GC06",
                                  .name = "Restart",
                                  .gap = "After a daemon restart a recovered capture accepts status and seal only, and records one IngestLost gap.",
                                  .bound = "One IngestLost per restart; only ack, gap, seal and seal_ack after it.",
                                  .evidence = "Any gap; more than one IngestLost; wire, native or exit records after an IngestLost (an unknown kind: a warning)."},
                                 make_check<Gc06>);

}  // namespace goalcup::cheat
