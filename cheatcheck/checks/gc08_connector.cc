// GC08: a connector is trusted code, loaded without an atomic snapshot. Its
// digest must be a released one, and the capture the launch declares must be
// what that release declares.
#include <algorithm>
#include <iterator>

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

// Host names as same_host() compares them (case, port and the root's dot
// apart), sorted, each once.
std::vector<std::string> host_set(const std::vector<std::string>& hosts) {
  std::vector<std::string> out;
  for (const std::string& h : hosts) {
    std::string name(host_name(without_port(h)));
    std::transform(name.begin(), name.end(), name.begin(), [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; });
    out.push_back(std::move(name));
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

// `a` without `b` (both sorted).
std::vector<std::string> minus(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  std::vector<std::string> out;
  std::set_difference(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
  return out;
}

// At most ten names, then how many more.
std::string names(const std::vector<std::string>& hosts) {
  std::string s;
  for (size_t i = 0; i < hosts.size() && i < 10; ++i) s += (i ? ", " : "") + clip_text(hosts[i]);
  if (hosts.size() > 10) s += " and " + std::to_string(hosts.size() - 10) + " more";
  return s.empty() ? "nothing" : s;
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
    if (!f.launch.present) return;
    if (it->has_tunnel) compare_tunnel(*it, f, ctx);
    if (!it->has_decrypt) return;
    if (normal(it->decrypt) != normal(f.launch.decrypt)) {
      ctx.emit(finding("GC08", Severity::high, {2},
                       "The launch decrypts " + describe(f.launch.decrypt) + ", but connector " + it->id + " " +
                           it->version + " declares " + describe(it->decrypt) + "."),
               "capture-differs:" + f.connector_digest);
    }
  }

 private:
  // capture.tunnel is the rest of the capture a release declares: hosts
  // always passed through. One the release decrypts, tunnelled, hides its
  // provider traffic (high); any other difference says the capture is not
  // the release's, though undeclared hosts pass undecrypted either way.
  static void compare_tunnel(const ConnectorRelease& release, const TraceFacts& f, Context& ctx) {
    const auto launched = host_set(f.launch.tunnel), declared = host_set(release.tunnel);
    const auto added = minus(launched, declared), dropped = minus(declared, launched);
    if (added.empty() && dropped.empty()) return;
    std::vector<std::string> hidden;
    for (const std::string& h : added) {
      const bool decrypted = std::any_of(release.decrypt.begin(), release.decrypt.end(),
                                         [&](const DecryptRule& r) { return same_host(r.host, h); }) ||
                             f.launch.decrypt_listed(h);
      if (decrypted) hidden.push_back(h);
    }
    const std::string release_name = "connector " + release.id + " " + release.version;
    if (!hidden.empty()) {
      ctx.emit(finding("GC08", Severity::high, {2},
                       "The launch always tunnels " + names(hidden) + ", which " + release_name +
                           " (or the launch) decrypts: its traffic would pass the proxy undecrypted."),
               "tunnel-hides:" + f.connector_digest);
    }
    if (hidden.size() == added.size() && dropped.empty()) return;
    ctx.emit(finding("GC08", Severity::warning, {2},
                     "The launch tunnels " + names(launched) + ", but " + release_name + " declares " + names(declared) +
                         ": the capture is not the release's (hosts it does not decrypt pass undecrypted either way)."),
             "tunnel-differs:" + f.connector_digest);
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
