// GC08: a connector is trusted code, loaded without an atomic snapshot. Its
// digest must be a released one, and the capture the launch declares must be
// what that release declares.
#include <algorithm>

#include "cheatcheck/checks/check.h"

namespace goalcup::cheat {
namespace {

// host -> sorted paths, for comparing declarations.
std::vector<std::pair<std::string, std::vector<std::string>>> normal(const std::vector<DecryptRule>& rules) {
  std::vector<std::pair<std::string, std::vector<std::string>>> out;
  for (const auto& r : rules) {
    auto paths = r.paths;
    std::sort(paths.begin(), paths.end());
    out.emplace_back(r.host, std::move(paths));
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string describe(const std::vector<DecryptRule>& rules) {
  std::string s;
  for (const auto& r : rules) {
    if (!s.empty()) s += ", ";
    s += r.host;
    for (const auto& p : r.paths) s += " " + p;
  }
  return s.empty() ? "nothing" : s;
}

class Gc08 final : public Check {
 public:
  std::string_view id() const override { return "GC08"; }

  void finish(const VerifyReport&, Context& ctx) override {
    const Policy& p = ctx.policy();
    const TraceFacts& f = ctx.facts();
    if (!p.has_connectors) return ctx.skip("GC08", "the policy lists no connectors");
    auto it = std::find_if(p.connectors.begin(), p.connectors.end(),
                           [&](const ConnectorRelease& c) { return c.digest == f.connector_digest; });
    if (it == p.connectors.end()) {
      ctx.emit(finding("GC08", Severity::high, {0},
                       "Connector " + f.connector_id + " " + f.connector_version + " has digest " +
                           (f.connector_digest.empty() ? "(none)" : f.connector_digest.substr(0, 19) + "...") +
                           ", which is not a released connector."),
               "connector:" + f.connector_digest);
      return;
    }
    if (!it->has_decrypt || !f.launch.present) return;
    if (normal(it->decrypt) != normal(f.launch.decrypt)) {
      ctx.emit(finding("GC08", Severity::high, {2},
                       "The launch decrypts " + describe(f.launch.decrypt) + ", but connector " + it->id + " " +
                           it->version + " declares " + describe(it->decrypt) + "."),
               "capture-differs:" + f.connector_digest);
    }
  }
};

}  // namespace

// The rule the reports list this check under (text help, SARIF), and its factory.
const CheckRegistrar kRegisteredGc08({.id = "GC08",
                                  .name = "ConnectorNotSnapshotted",
                                  .gap = "Connector loading is not atomic and a connector is trusted code.",
                                  .bound = "The header records the loaded connector's digest.",
                                  .evidence = "A connector digest that is not released; capture hosts or paths that differ from the connector's."},
                                 make_check<Gc08>);

}  // namespace goalcup::cheat
