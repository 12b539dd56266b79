// GC11: only the hosts and paths the launch declares under capture.decrypt
// are decrypted and stored. A wire record outside them contradicts the
// recorder's own rule.
#include <map>

#include "cheatcheck/checks/check.h"
#include "core/json_strict.h"

namespace goalcup::cheat {
namespace {

class Gc11 final : public Check {
 public:
  std::string_view id() const override { return "GC11"; }

  void on_record(const Record& r, Context& ctx) override {
    if (r.kind != Kind::wire) return;
    std::string_view host, path, dir;
    (void)json::string(r.body, "host", &host);
    (void)json::string(r.body, "dir", &dir);
    const LaunchFacts& l = ctx.facts().launch;
    const DecryptRule* rule = nullptr;
    for (const auto& d : l.decrypt) {
      if (d.host == host) rule = &d;
    }
    if (!rule) {
      outside_.add("host " + clip_text(host), r.seq);
      return;
    }
    if (dir != "request" || json::string(r.body, "path", &path) != json::Get::ok || rule->paths.empty()) return;
    path = path.substr(0, path.find('?'));
    if (std::find(rule->paths.begin(), rule->paths.end(), path) == rule->paths.end()) {
      outside_.add("path " + clip_text(host) + clip_text(path), r.seq);
    }
  }

  void finish(const VerifyReport&, Context& ctx) override {
    for (const auto& [what, list] : outside_.all()) {
      ctx.emit(finding("GC11", Severity::high, list.seqs,
                       std::to_string(list.count) + " wire record(s) for " + what +
                           ", which the launch does not declare under capture.decrypt."),
               what);
    }
  }

 private:
  NamedSeqs outside_;
};

}  // namespace

std::unique_ptr<Check> make_gc11() { return std::make_unique<Gc11>(); }

}  // namespace goalcup::cheat
