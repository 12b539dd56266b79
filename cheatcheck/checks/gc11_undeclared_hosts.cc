// GC11: only the hosts and paths the launch declares under capture.decrypt
// are decrypted and stored, and those hosts are never tunnelled. A wire
// record outside them, or a tunnel to one of them, contradicts the
// recorder's own rule (the checklist lists the tunnel under GC05 too).
#include <map>

#include "cheatcheck/checks/check.h"
#include "core/json_strict.h"

namespace goalcup::cheat {
namespace {

class Gc11 final : public Check {
 public:
  std::string_view id() const override { return "GC11"; }

  void on_record(const Record& r, Context& ctx) override {
    if (r.kind == Kind::tunnel) return tunnel(r, ctx);
    if (r.kind != Kind::wire) return;
    std::string_view host, path, dir;
    (void)json::string(r.body, "host", &host);
    (void)json::string(r.body, "dir", &dir);
    const LaunchFacts& l = ctx.facts().launch;
    const DecryptRule* rule = l.decrypt_rule(host);
    if (!rule) {
      outside_.add("host " + clip_text(host), r.seq);
      return;
    }
    if (dir != "request" || json::string(r.body, "path", &path) != json::Get::ok || rule->paths.empty()) return;
    path = path.substr(0, path.find('?'));
    if (l.path_listed(*rule, path)) return;
    // Under a listed path: a recorder that reads its paths as prefixes stores
    // it honestly, and nothing is hidden by storing more.
    NamedSeqs& list = LaunchFacts::path_under_listed(*rule, path) ? under_ : outside_;
    list.add("path " + clip_text(host) + clip_text(path), r.seq);
  }

  void finish(const VerifyReport&, Context& ctx) override {
    for (const auto& [what, list] : outside_.all()) {
      ctx.emit(finding("GC11", Severity::high, list.seqs,
                       std::to_string(list.count) + " wire record(s) for " + what +
                           ", which the launch does not declare under capture.decrypt."),
               what);
    }
    for (const auto& [what, list] : under_.all()) {
      ctx.emit(finding("GC11", Severity::warning, list.seqs,
                       std::to_string(list.count) + " wire record(s) for " + what +
                           ", under a path the launch declares under capture.decrypt but not one of them "
                           "(the format does not say whether declared paths are prefixes)."),
               "under:" + what);
    }
    for (const auto& [host, list] : tunnelled_.all()) {
      ctx.emit(finding("GC11", Severity::high, list.seqs,
                       std::to_string(list.count) + " tunnel(s) to " + host +
                           ", a host the launch declares under capture.decrypt: it should have been decrypted."),
               "tunnel:" + host);
    }
  }

 private:
  void tunnel(const Record& r, Context& ctx) {
    std::string_view host;
    if (json::string(r.body, "host", &host) == json::Get::ok && ctx.facts().launch.decrypt_listed(without_port(host))) {
      tunnelled_.add(clip_text(host), r.seq);
    }
  }

  NamedSeqs outside_, under_, tunnelled_;
};

}  // namespace

// The rule the reports list this check under (text help, SARIF), and its factory.
const CheckRegistrar kRegisteredGc11({.id = "GC11",
                                  .name = "UndeclaredHosts",
                                  .gap = "Undeclared hosts are never decrypted; authentication hosts always tunnel.",
                                  .bound = "Only capture.decrypt hosts and paths are stored in wire records.",
                                  .evidence = "A wire record for a host or path outside capture.decrypt."},
                                 make_check<Gc11>);

}  // namespace goalcup::cheat
