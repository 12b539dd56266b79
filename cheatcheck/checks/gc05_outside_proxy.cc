// GC05: model traffic outside the proxy. A native assistant turn that no
// wire answer carries (by message id, call id or, for Codex messages, text)
// was answered by something the proxy never saw. Lines are matched by what
// they say, not by where they sit: Claude Code writes a Task subagent's
// lines late, in a block, long after their wire exchanges. A tunnel to a
// host the capture should decrypt carried provider traffic undecrypted;
// tool output that runs a network client against a provider's API suggests
// a tool called it with its own key (a mere mention, as in a source file
// the agent printed, is listed at info).
// A provider's key in a native line is also GC05 evidence; the secret scan
// finds it, so that finding is made in secrets/trace_scan.cc.

#include <algorithm>
#include <array>
#include <map>
#include <optional>
#include <string_view>

#include <absl/container/flat_hash_set.h>

#include "cheatcheck/checks/check.h"
#include "cheatcheck/literal_set.h"
#include "cheatcheck/said_text.h"
#include "core/json_strict.h"
#include "core/sha256.h"

namespace goalcup::cheat {
namespace {

constexpr std::string_view kProviderHosts[] = {"api.anthropic.com", "api.openai.com",
                                          "generativelanguage.googleapis.com", "openrouter.ai/api"};
// Model providers' API domains: a tunnel to one (or a name under it) that
// the capture does not decrypt is model traffic the proxy cannot read.
constexpr std::string_view kModelApiDomains[] = {
    "api.anthropic.com", "api.openai.com", "generativelanguage.googleapis.com", "aiplatform.googleapis.com",
    "openrouter.ai", "api.mistral.ai", "api.groq.com", "api.deepseek.com", "api.x.ai", "api.together.xyz",
    "api.together.ai", "api.cohere.ai", "api.cohere.com", "api.fireworks.ai", "api.perplexity.ai",
    "api.moonshot.ai", "dashscope.aliyuncs.com", "openai.azure.com", "services.ai.azure.com",
    // Codex's own backend (/backend-api/codex) answers anyone holding a ChatGPT token.
    "chatgpt.com", "api.cerebras.ai", "router.huggingface.co", "api.z.ai"};

// `name` ends with `tail`, case aside (as DNS compares names).
bool ends_with_blind(std::string_view name, std::string_view tail) {
  return name.size() > tail.size() && same_host(name.substr(name.size() - tail.size()), tail);
}

bool model_api_host(std::string_view host) {
  const std::string_view name = host_name(host);
  // Vertex AI serves each region at {region}-aiplatform.googleapis.com, a
  // name not under aiplatform.googleapis.com; Bedrock at
  // bedrock-runtime[-fips].{region}.amazonaws.com.
  const bool vertex_region = ends_with_blind(name, "-aiplatform.googleapis.com");
  const std::string_view first_label = name.substr(0, name.find('.'));
  const bool bedrock = in_domain(name, "amazonaws.com") && first_label.size() < name.size() &&
                       (same_host(first_label, "bedrock-runtime") || same_host(first_label, "bedrock-runtime-fips"));
  return vertex_region || bedrock ||
         std::any_of(std::begin(kModelApiDomains), std::end(kModelApiDomains),
                     [&](std::string_view domain) { return in_domain(name, domain); });
}

// Network clients run from a command line: a provider host on the same
// line of output as one of these is a call, not a mention.
constexpr std::string_view kClients[] = {"curl ", "wget ", "http POST", "http GET", "Invoke-WebRequest", "Invoke-RestMethod"};

// A message's text, kept apart from ids (which are hashed the same way).
Identity text_key(std::string_view text) { return identity("text:" + std::string(text)); }

// What names an answer on the wire: its id, its tool calls' ids, and (for
// Responses, whose items Codex logs without ids) the text of each message.
void wire_keys(const RebuiltAnswer& a, absl::flat_hash_set<Identity>& keys) {
  if (!a.message_id.empty()) keys.insert(identity(a.message_id));
  for (const auto& c : a.tool_calls) {
    if (!c.id.empty()) keys.insert(identity(c.id));
  }
  if (a.provider == RebuiltAnswer::Provider::anthropic) return;
  if (!a.text.empty()) keys.insert(text_key(a.text));
  for (std::string_view t : a.text_blocks()) {
    if (!t.empty()) keys.insert(text_key(t));
  }
}

// The same for a native assistant line: nullopt when it names nothing.
std::optional<Identity> native_key(const NativeInfo& n) {
  if (!n.message_id.empty()) return identity(n.message_id);
  for (const auto& c : n.calls) {
    if (!c.id.empty()) return identity(c.id);
  }
  if (n.text.empty()) return std::nullopt;
  return text_key(n.text);
}

// Where each provider host first appears in `text`, without regard to case
// (`curl https://API.OPENAI.COM/...` reaches the same host); npos if not.
// One pass for all of them: tool output is most of a trace's text.
std::array<size_t, std::size(kProviderHosts)> find_case_blind(std::string_view text) {
  static const LiteralSet kHosts(std::vector<std::string>(std::begin(kProviderHosts), std::end(kProviderHosts)),
                                 LiteralSet::Case::blind);
  std::array<size_t, std::size(kProviderHosts)> hits;
  kHosts.first_positions(text, hits);
  return hits;
}

// The output line around `at`, within text that escapes its line ends.
std::string_view line_around(std::string_view text, size_t at) {
  size_t b = text.rfind("\\n", at);
  b = b == std::string_view::npos ? 0 : b + 2;
  size_t e = text.find("\\n", at);
  return text.substr(b, (e == std::string_view::npos ? text.size() : e) - b);
}

class Gc05 final : public Check {
 public:
  std::string_view id() const override { return "GC05"; }

  void on_record(const Record& r, Context& ctx) override {
    if (r.kind == Kind::wire && ctx.is_answer_response()) {
      if (wire_keys_.size() < kMaxTracked) wire_keys(ctx.answer(), wire_keys_);
      // A marker stands for a secret only where the recorder says it wrote
      // one; elsewhere it is text the answer carried, matched as it stands.
      if (lists_redactions(r)) keep_redacted(ctx.answer());
      if (cut_at_cap(r, ctx.wire_body())) keep_cut(ctx.answer(), r.seq);
    } else if (r.kind == Kind::tunnel) {
      tunnel(r, ctx);
    } else if (r.kind == Kind::native) {
      const NativeInfo& n = ctx.native();
      if (n.user) tool_output(r, calls_, &mentions_);
      // The command a tool ran (a call's input, Codex's exec_command
      // events): a client against a provider there is the call itself.
      if ((n.assistant && !n.calls.empty()) || n.event_output) tool_output(r, commands_, nullptr);
      // A message with no id, no call and no words claims no answer
      // (Codex logs an empty message item as streamed): nothing to match.
      if (n.assistant && matched_by_text(n) && blank(n.text)) return;
      if (n.assistant && assistant_.size() < kMaxTracked) {
        assistant_.push_back({native_key(n), r.seq, matched_by_text(n) ? kept(n.text) : std::nullopt});
      }
    }
  }

  void finish(const VerifyReport&, Context& ctx) override {
    SeqList unproxied, uncompared, past_cap, earlier, superseded;
    // Every logged answer against every redacted wire answer: bounded, and
    // an answer left uncompared is said, never judged unproxied.
    RedactionComparer comparer;
    for (const auto& [key, seq, text] : assistant_) {
      if (key && wire_keys_.contains(*key)) continue;
      // Copied by a resumed session from an earlier run, and re-sent as
      // history by this one (resumed_history.h): that run's wire carried it.
      if (ctx.resumed_history().superseded(seq)) {
        superseded.add(seq);
        continue;
      }
      if (ctx.resumed_history().holds(seq)) {
        earlier.add(seq);
        continue;
      }
      const RedactionComparer::Match match =
          text ? comparer.first_match(redacted_, *text).first : RedactionComparer::Match::no;
      if (match == RedactionComparer::Match::yes) continue;
      if (match == RedactionComparer::Match::no && text && cut_prefix_of(cut_, *text) != 0) {
        past_cap.add(seq);
        continue;
      }
      (match == RedactionComparer::Match::no ? unproxied : uncompared).add(seq);
    }
    emit_counted(ctx, "GC05", Severity::warning, uncompared,
                 "native assistant line(s) were not compared with every redacted answer the wire carried (" +
                     std::to_string(RedactionComparer::kBudgetBytes >> 30) + " GiB of comparisons, a bound for "
                     "crafted uploads): not judged.",
                 "redacted-uncompared");
    emit_counted(ctx, "GC05", Severity::warning, past_cap,
                 "native assistant line(s) start with the text of an answer the recorder stored cut at its size cap "
                 "(complete: false, size past the stored bytes): what they say past the cap was not judged.",
                 "past-cap");
    earlier_history(ctx, earlier);
    superseded_history(ctx, superseded);
    if (!unproxied.empty()) {
      ctx.emit(finding("GC05", Severity::high, unproxied.seqs,
                       std::to_string(unproxied.count) + " native assistant line(s) match no answer that crossed "
                       "the wire (by message id, call id or text): answers from outside the proxy?"),
               "unproxied-turns");
    }
    for (const auto& [host, list] : tunnels_.all()) {
      ctx.emit(finding("GC05", Severity::high, list.seqs,
                       "Connections to " + host + ", a host the capture declares for decryption, passed through "
                       "undecrypted."),
               "tunnel:" + host);
    }
    for (const auto& [host, list] : other_models_.all()) {
      ctx.emit(finding("GC05", Severity::warning, list.seqs,
                       "Connections to " + host + ", a model provider's API that this run's capture does not "
                       "decrypt, passed through the proxy: a process of the run may have asked another model."),
               "other-model:" + host);
    }
    for (const auto& [host, list] : addresses_.all()) {
      ctx.emit(finding("GC05", Severity::warning, list.seqs,
                       "Connections to " + host + ", an address, not a name, passed through the proxy: it cannot "
                       "tell which service they reached, and a process can reach a provider's API by address."),
               "address:" + host);
    }
    for (const auto& [host, list] : calls_.all()) {
      ctx.emit(finding("GC05", Severity::warning, list.seqs,
                       "Tool output shows a network client calling " + host +
                           ": a tool may have called the provider directly."),
               "tool-mentions:" + host);
    }
    for (const auto& [host, list] : commands_.all()) {
      ctx.emit(finding("GC05", Severity::warning, list.seqs,
                       "A command a tool ran (as the log records the call) runs a network client against " + host +
                           ": a tool may have called the provider directly."),
               "tool-commands:" + host);
    }
    for (const auto& [host, list] : mentions_.all()) {
      ctx.emit(finding("GC05", Severity::info, list.seqs,
                       "Tool output mentions " + host + " (as a source file or document may): read it to be sure "
                       "no tool called the provider."),
               "tool-mentions-only:" + host);
    }
  }

 private:
  static void superseded_history(Context& ctx, const SeqList& superseded) {
    if (superseded.empty()) return;
    const ResumedHistory& h = ctx.resumed_history();
    ctx.emit(finding("GC05", Severity::warning, superseded.seqs,
                     std::to_string(superseded.count) + " native assistant line(s) of " + h.file() +
                         " come before a compaction (compact_boundary) written before this run: the launch resumes "
                         "the conversation from the compaction's summary, which this run's first request re-sending "
                         "history (seq " + std::to_string(h.request_seq()) + ") carries, so no request re-sends "
                         "them and no wire response of this run carries them. They name session " +
                         (h.session().empty() ? "(none)" : h.session()) +
                         ": read them against the trace of the earlier run that wrote them."),
             "superseded-history");
  }

  static void earlier_history(Context& ctx, const SeqList& earlier) {
    if (earlier.empty()) return;
    const ResumedHistory& h = ctx.resumed_history();
    ctx.emit(finding("GC05", Severity::warning, earlier.seqs,
                     std::to_string(earlier.count) + " native assistant line(s) leading " + h.file() +
                         " are history from before this run: the launch resumes a conversation (claude --continue "
                         "or --resume, codex resume), this run's first request re-sending history (seq " +
                         std::to_string(h.request_seq()) + ") carries each of them in order, and no wire response "
                         "of this run does. They name session " + (h.session().empty() ? "(none)" : h.session()) +
                         ": read them against the trace of the earlier run that wrote it, whose wire must carry "
                         "their answers."),
             "earlier-run-history");
  }

  void tunnel(const Record& r, Context& ctx) {
    std::string_view host;
    if (json::string(r.body, "host", &host) != json::Get::ok) return;
    const std::string_view name = without_port(host);
    if (ctx.facts().launch.decrypt_listed(name)) tunnels_.add(host, r.seq);
    else if (model_api_host(name)) other_models_.add(host, r.seq);
    else if (ip_literal(name)) addresses_.add(host, r.seq);
  }

  // Provider hosts in a native line's text: on a line of it with a
  // network client, into `calls`; else into `mentions`, when given.
  void tool_output(const Record& r, NamedSeqs& calls, NamedSeqs* mentions) {
    std::string_view text;
    if (json::string(r.body, "text", &text) != json::Get::ok) return;
    const auto hits = find_case_blind(text);
    for (size_t i = 0; i < std::size(kProviderHosts); ++i) {
      const std::string_view host = kProviderHosts[i];
      if (hits[i] == std::string_view::npos) continue;
      const std::string_view line = line_around(text, hits[i]);
      const bool client = std::any_of(std::begin(kClients), std::end(kClients),
                                      [&](std::string_view c) { return line.find(c) != std::string_view::npos; });
      if (client) calls.add(host, r.seq);
      else if (mentions) mentions->add(host, r.seq);
    }
  }

  absl::flat_hash_set<Identity> wire_keys_;
  struct Assistant {
    std::optional<Identity> key;  // native_key
    uint64_t seq = 0;
    std::optional<std::string> text;  // a line matched by text, kept for redacted wire forms
  };
  std::vector<Assistant> assistant_;
  // Codex answer texts the recorder stored redacted (a secret is
  // [REDACTED:rule] there and verbatim in the log), within kMaxKeptBytes.
  std::vector<std::string> redacted_;
  uint64_t kept_bytes_ = 0;
  static constexpr uint64_t kMaxKeptBytes = 16ull << 20;

  static bool blank(std::string_view text) {
    return std::all_of(text.begin(), text.end(), [](char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; });
  }
  static bool matched_by_text(const NativeInfo& n) {
    return n.message_id.empty() && std::all_of(n.calls.begin(), n.calls.end(), [](const auto& c) { return c.id.empty(); });
  }
  std::optional<std::string> kept(std::string_view text) {
    if (kept_bytes_ + text.size() > kMaxKeptBytes) return std::nullopt;
    kept_bytes_ += text.size();
    return std::string(text);
  }
  void keep_redacted(const RebuiltAnswer& a) {
    if (a.provider == RebuiltAnswer::Provider::anthropic) return;
    auto keep = [&](std::string_view t) {
      if (!has_redaction(t)) return;
      if (auto k = kept(t)) redacted_.push_back(std::move(*k));
    };
    keep(a.text);
    for (std::string_view t : a.text_blocks()) keep(t);
  }
  // Codex answers stored cut at the cap: what their message items said
  // before the cut (seq, text), within kMaxKeptBytes.
  void keep_cut(const RebuiltAnswer& a, uint64_t seq) {
    if (a.provider == RebuiltAnswer::Provider::anthropic) return;  // matched by id
    for (std::string_view t : a.text_blocks()) {
      if (auto k = kept(t)) cut_.emplace_back(seq, std::move(*k));
    }
  }
  std::vector<std::pair<uint64_t, std::string>> cut_;
  NamedSeqs tunnels_, other_models_, addresses_, calls_, mentions_, commands_;
};

}  // namespace

// The rule the reports list this check under (text help, SARIF), and its factory.
const CheckRegistrar kRegisteredGc05({.id = "GC05",
                                  .name = "TrafficOutsideProxy",
                                  .gap = "A tool or subprocess calling a provider with its own key bypasses capture.",
                                  .bound = "Only the harness gets the CA; undeclared hosts are never decrypted.",
                                  .evidence = "Native assistant turns with no wire exchange near them; tunnels to declared provider hosts; tool output showing provider API calls or keys."},
                                 make_check<Gc05>);

}  // namespace goalcup::cheat
