// GC01: records no server statement covers can be rewritten and re-sealed
// by anyone holding the file.
#include <cstdio>

#include "cheatcheck/checks/check.h"
#include "cli/term.h"

namespace goalcup::cheat {
namespace {

std::string percent(uint64_t part, uint64_t whole) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%.1f%%", whole ? 100.0 * static_cast<double>(part) / static_cast<double>(whole) : 0.0);
  return buf;
}

class Gc01 final : public Check {
 public:
  std::string_view id() const override { return "GC01"; }

  void finish(const VerifyReport& v, Context& ctx) override {
    if (v.records == 0 || v.unattested_records == 0) return;
    const auto first = static_cast<uint64_t>(v.attested_through_seq + 1);
    std::vector<uint64_t> seqs;
    for (uint64_t s = first; s < v.records && seqs.size() < kMaxSeqs; ++s) seqs.push_back(s);
    const double share = static_cast<double>(v.unattested_records) / static_cast<double>(v.records);
    const std::string where = v.attested_through_seq < 0 ? " (no record at all)"
                                                         : " after seq " + std::to_string(v.attested_through_seq);
    const std::string amount = std::to_string(v.unattested_records) + " records (" +
                               percent(v.unattested_records, v.records) + ") and " +
                               human_bytes(v.unattested_wire_bytes) + " of wire bodies (" +
                               percent(v.unattested_wire_bytes, v.wire_bytes) + ")" + where +
                               " are covered by no valid server statement";
    std::string why = v.verdict == Verdict::invalid ? "Statements do not hold (see verify): "
                      : !v.sealed                   ? "The trace is unsealed: "
                      : !v.seal_acknowledged        ? "The seal was never acknowledged: "
                                                    : "";
    const Severity sev = share > ctx.policy().thresholds.max_unattested_share ? Severity::high : Severity::warning;
    ctx.emit(finding("GC01", sev, seqs, why + amount + ", so they could have been rewritten."),
             !v.sealed ? "unsealed" : "unacknowledged");
  }
};

}  // namespace

// The rule the reports list this check under (text help, SARIF), and its factory.
const CheckRegistrar kRegisteredGc01({.id = "GC01",
                                  .name = "UnacknowledgedTail",
                                  .gap = "Records the server never acknowledged can be rewritten and re-sealed by anyone with the file.",
                                  .bound = "Everything up to the last ack, and all of it with a seal_ack, is fixed by the server's signature.",
                                  .evidence = "Records after the last ack; a seal without seal_ack; an unsealed trace; the share of records and wire bytes no statement covers."},
                                 make_check<Gc01>);

}  // namespace goalcup::cheat
