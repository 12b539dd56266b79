// GC05: model traffic outside the proxy. A native assistant turn with no
// wire exchange since the previous user line (and before the next) was
// answered by something the proxy never saw; a tunnel to a host the capture
// should decrypt carried provider traffic undecrypted; tool output that
// talks to a provider's API suggests a tool called it with its own key.
// A provider's key in a native line is also GC05 evidence; the secret scan
// finds it, so that finding is made in secrets/trace_scan.cc.
#include <string.h>

#include <map>
#include <string_view>

#include "cheatcheck/checks/check.h"
#include "core/json_strict.h"

namespace goalcup::cheat {
namespace {

constexpr std::string_view kProviderHosts[] = {"api.anthropic.com", "api.openai.com",
                                          "generativelanguage.googleapis.com", "openrouter.ai/api"};

class Gc05 final : public Check {
 public:
  std::string_view id() const override { return "GC05"; }

  void on_record(const Record& r, Context& ctx) override {
    if (r.kind == Kind::wire) {
      wire_in_segment_ = true;
    } else if (r.kind == Kind::tunnel) {
      tunnel(r, ctx);
    } else if (r.kind == Kind::native) {
      const NativeInfo& n = ctx.native();
      if (n.user) {
        close_segment(ctx);
        tool_output(r);
      } else if (n.assistant && assistant_seqs_.size() < kMaxSeqs) {
        assistant_seqs_.push_back(r.seq);
      }
    }
  }

  void finish(const VerifyReport&, Context& ctx) override {
    close_segment(ctx);
    if (!unproxied_.empty()) {
      ctx.emit(finding("GC05", Severity::high, unproxied_.seqs,
                       std::to_string(unproxied_.count) + " native assistant line(s) have no wire exchange between "
                       "the user lines around them: answers from outside the proxy?"),
               "unproxied-turns");
    }
    for (const auto& [host, list] : tunnels_.all()) {
      ctx.emit(finding("GC05", Severity::high, list.seqs,
                       "Connections to " + host + ", a host the capture declares for decryption, passed through "
                       "undecrypted."),
               "tunnel:" + host);
    }
    for (const auto& [host, list] : mentions_.all()) {
      ctx.emit(finding("GC05", Severity::warning, list.seqs,
                       "Tool output mentions " + host + ": a tool may have called the provider directly."),
               "tool-mentions:" + host);
    }
  }

 private:
  void close_segment(Context&) {
    if (!assistant_seqs_.empty() && !wire_in_segment_) {
      for (uint64_t s : assistant_seqs_) unproxied_.add(s);
    }
    assistant_seqs_.clear();
    wire_in_segment_ = false;
  }

  void tunnel(const Record& r, Context& ctx) {
    std::string_view host;
    if (json::string(r.body, "host", &host) != json::Get::ok) return;
    if (ctx.facts().launch.decrypt_listed(host)) tunnels_.add(host, r.seq);
  }

  void tool_output(const Record& r) {
    std::string_view text;
    if (json::string(r.body, "text", &text) != json::Get::ok) return;
    for (std::string_view host : kProviderHosts) {
      // memmem, not find(): tool output is most of a trace's text, and
      // find() stops at every 'a' of it.
      if (memmem(text.data(), text.size(), host.data(), host.size())) mentions_.add(host, r.seq);
    }
  }

  bool wire_in_segment_ = false;
  std::vector<uint64_t> assistant_seqs_;
  SeqList unproxied_;
  NamedSeqs tunnels_, mentions_;
};

}  // namespace

std::unique_ptr<Check> make_gc05() { return std::make_unique<Gc05>(); }

}  // namespace goalcup::cheat
