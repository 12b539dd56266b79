// GC07: the launch is not bound to an inode, so the program could be swapped
// between the daemon's check and exec. The digests it recorded must be
// those of a known release build.
#include "cheatcheck/checks/check.h"

namespace goalcup::cheat {
namespace {

std::string short_digest(const std::string& d) { return d.empty() ? "(none)" : d.substr(0, 19) + "..."; }

class Gc07 final : public Check {
 public:
  std::string_view id() const override { return "GC07"; }

  void finish(const VerifyReport&, Context& ctx) override {
    const Policy& p = ctx.policy();
    const LaunchFacts& l = ctx.facts().launch;
    if (!p.has_harness_builds) return ctx.skip("GC07", "the policy lists no harness_builds");
    if (!l.present) return ctx.skip("GC07", "the trace has no launch record");
    const std::vector<HarnessBuild>* builds = nullptr;
    for (const auto& [id, list] : p.harness_builds) {
      if (id == l.harness_id) builds = &list;
    }
    for (const HarnessBuild& b : builds ? *builds : std::vector<HarnessBuild>{}) {
      const bool match = (b.program_digest.empty() || b.program_digest == l.program_digest) &&
                         (b.image_digest.empty() || b.image_digest == l.image_digest) &&
                         (b.version.empty() || b.version == l.harness_version);
      if (match) return;
    }
    ctx.emit(finding("GC07", Severity::high, {2},
                     "Harness " + l.harness_id + " " + l.harness_version + " ran program " +
                         short_digest(l.program_digest) + " in image " + short_digest(l.image_digest) +
                         (builds ? ", which is not a known release build." : "; the policy knows no builds of it.")),
             "harness:" + l.harness_id + ":" + l.program_digest + ":" + l.image_digest);
  }
};

}  // namespace

// The rule the reports list this check under (text help, SARIF), and its factory.
const CheckRegistrar kRegisteredGc07({.id = "GC07",
                                  .name = "LaunchNotBound",
                                  .gap = "The program can be replaced between the daemon's check and exec.",
                                  .bound = "The daemon records program_digest and image_digest.",
                                  .evidence = "A harness digest that is not a known release build."},
                                 make_check<Gc07>);

}  // namespace goalcup::cheat
