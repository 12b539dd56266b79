// GC07: the launch is not bound to an inode, so the program could be swapped
// between the daemon's check and exec. The digests it recorded must be
// those of a known release build. The digests are the checked file's, so
// the only trace of a swap is what the process that ran says about itself:
// the version in the User-Agent of its requests (which the proxy saw) and
// in its own log lines. Those must name the version the launch records.
#include <algorithm>
#include <optional>

#include "cheatcheck/checks/check.h"
#include "core/json_strict.h"

namespace goalcup::cheat {
namespace {

std::string short_digest(const std::string& d) { return d.empty() ? "(none)" : d.substr(0, 19) + "..."; }

char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) { return lower(x) == lower(y); });
}

bool istarts_with(std::string_view s, std::string_view prefix) {
  return s.size() >= prefix.size() && iequals(s.substr(0, prefix.size()), prefix);
}

// A version as harnesses write one: "2.0.14", "0.59.0-alpha.3" ("v2.0.14"
// read as "2.0.14"). Anything else names no version.
std::optional<std::string> version_token(std::string_view s) {
  if (!s.empty() && (s.front() == 'v' || s.front() == 'V')) s.remove_prefix(1);
  if (s.empty() || s.size() > 64 || s.front() < '0' || s.front() > '9') return std::nullopt;
  for (char c : s) {
    const bool ok = (c >= '0' && c <= '9') || (lower(c) >= 'a' && lower(c) <= 'z') || c == '.' || c == '-' || c == '+' || c == '_';
    if (!ok) return std::nullopt;
  }
  return std::string(s);
}

// The launch's version: its first word that is a version ("2.0.14",
// "2.0.14 (Claude Code)", "codex-cli 0.58.0").
std::optional<std::string> launch_version(std::string_view s) {
  while (!s.empty()) {
    const size_t start = s.find_first_not_of(" \t");
    if (start == std::string_view::npos) break;
    s.remove_prefix(start);
    const size_t end = std::min(s.find_first_of(" \t"), s.size());
    if (auto v = version_token(s.substr(0, end))) return v;
    s.remove_prefix(end);
  }
  return std::nullopt;
}

// Whether a User-Agent product is the harness's own client: Claude Code
// sends "claude-cli/<version> (external, cli)"; Codex
// "<originator>/<version> (<os>; <arch>) <terminal>", its originator being
// codex_cli_rs, codex_exec, codex_vscode and the like. Other clients that
// reach the provider through the proxy (an SDK in a tool, an MCP server)
// name other products and say nothing of the harness.
bool own_product(std::string_view harness, std::string_view product) {
  if (harness == "claude-code") return iequals(product, "claude-cli") || iequals(product, "claude-code");
  if (harness == "codex") return iequals(product, "codex") || istarts_with(product, "codex_") || istarts_with(product, "codex-");
  return false;
}

// The version a request of the harness's own client names, or none.
std::optional<std::string> request_version(const Record& r, std::string_view harness) {
  simdjson::dom::array headers;
  if (json::array(r.body, "headers", &headers) != json::Get::ok) return std::nullopt;
  std::string_view agent, originator, version;
  for (auto h : headers) {
    simdjson::dom::array pair;
    std::string_view k, v;
    if (h.get(pair) || pair.size() != 2 || pair.at(0).get(k) || pair.at(1).get(v)) continue;
    if (iequals(k, "user-agent")) agent = v;
    if (iequals(k, "originator")) originator = v;
    if (iequals(k, "version")) version = v;
  }
  const size_t slash = agent.find('/');
  if (slash != std::string_view::npos && own_product(harness, agent.substr(0, slash))) {
    const std::string_view rest = agent.substr(slash + 1);
    return version_token(rest.substr(0, std::min(rest.find_first_of(" \t"), rest.size())));
  }
  // Codex also sends its version in a header of its own, beside its originator.
  if (agent.empty() && harness == "codex" && own_product(harness, originator)) return version_token(version);
  return std::nullopt;
}

// "2.0.15" is newer than "2.0.14": the dotted numbers before any other
// character, compared in order (a missing one is 0). False when either
// has none.
bool newer(std::string_view a, std::string_view b) {
  auto numbers = [](std::string_view s) {
    std::vector<uint64_t> out;
    uint64_t n = 0;
    bool digits = false;
    for (char c : s) {
      if (c >= '0' && c <= '9') {
        n = std::min<uint64_t>(n * 10 + static_cast<uint64_t>(c - '0'), 1ULL << 40);
        digits = true;
      } else if (c == '.' && digits) {
        out.push_back(n);
        n = 0;
        digits = false;
      } else {
        break;
      }
    }
    if (digits) out.push_back(n);
    return out;
  };
  auto x = numbers(a), y = numbers(b);
  if (x.empty() || y.empty()) return false;
  x.resize(std::max(x.size(), y.size()), 0);
  y.resize(x.size(), 0);
  return x > y;
}

// Seqs by the version they name, at most kMaxNames versions.
struct VersionSeqs {
  std::map<std::string, SeqList> by_version;
  uint64_t more = 0;  // records naming a version past kMaxNames
  void add(const std::string& v, uint64_t seq) {
    if (by_version.size() >= kMaxNames && !by_version.contains(v)) return static_cast<void>(++more);
    by_version[v].add(seq);
  }
  bool names(const std::string& v) const { return by_version.contains(v); }
  uint64_t count(const std::string& v) const {
    auto it = by_version.find(v);
    return it == by_version.end() ? 0 : it->second.count;
  }
};

class Gc07 final : public Check {
 public:
  std::string_view id() const override { return "GC07"; }

  void on_record(const Record& r, Context& ctx) override {
    const std::string& harness = ctx.facts().launch.harness_id;
    if (r.kind == Kind::wire) {
      std::string_view dir;
      if (json::string(r.body, "dir", &dir) != json::Get::ok || dir != "request") return;
      if (auto v = request_version(r, harness)) wire_.add(*v, r.seq);
    } else if (r.kind == Kind::native) {
      const NativeInfo& n = ctx.native();
      const auto own = harness == "claude-code" ? NativeInfo::Harness::claude_code
                       : harness == "codex"     ? NativeInfo::Harness::codex
                                                : NativeInfo::Harness::other;
      if (n.harness != own || own == NativeInfo::Harness::other) return;
      if (auto v = version_token(n.version)) native_.add(*v, r.seq);
    }
  }

  void finish(const VerifyReport&, Context& ctx) override {
    judge_versions(ctx);
    judge_digests(ctx);
  }

 private:
  static void judge_digests(Context& ctx) {
    const Policy& p = ctx.policy();
    const LaunchFacts& l = ctx.facts().launch;
    if (!p.has_harness_builds) return ctx.skip("GC07", "the policy lists no harness_builds");
    if (!l.present) return ctx.skip("GC07", "the trace has no launch record");
    const std::vector<HarnessBuild>* builds = listed_builds(ctx);
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

  static const std::vector<HarnessBuild>* listed_builds(const Context& ctx) {
    const std::vector<HarnessBuild>* builds = nullptr;
    for (const auto& [id, list] : ctx.policy().harness_builds) {
      if (id == ctx.facts().launch.harness_id) builds = &list;
    }
    return builds;
  }

  // The policy lists builds of the harness by version, and `v` is not one
  // of them; nullopt when it lists none by version (nothing to judge by).
  static std::optional<bool> unlisted(const Context& ctx, const std::string& v) {
    const std::vector<HarnessBuild>* builds = listed_builds(ctx);
    if (!ctx.policy().has_harness_builds || !builds) return std::nullopt;
    bool any = false;
    for (const HarnessBuild& b : *builds) {
      const auto listed = launch_version(b.version);
      any |= listed.has_value();
      if (listed == v) return false;
    }
    return any ? std::optional<bool>(true) : std::nullopt;
  }

  // A version on the wire that neither an update nor a listed release
  // explains: older than the launch's (or no number), and not a release
  // the policy lists (unknown without a list: nullopt).
  static std::optional<bool> unexplained(const Context& ctx, const std::string& v, const std::string& launch) {
    if (newer(v, launch)) return false;
    return unlisted(ctx, v);
  }

  void judge_versions(Context& ctx) const {
    const LaunchFacts& l = ctx.facts().launch;
    if (!l.present) return;
    const auto launch = launch_version(l.harness_version);
    if (!launch) return;
    std::vector<std::string> others;
    for (const VersionSeqs* s : {&wire_, &native_}) {
      for (const auto& entry : s->by_version) {
        const std::string& v = entry.first;
        if (v != *launch && std::find(others.begin(), others.end(), v) == others.end()) others.push_back(v);
      }
    }
    if (others.empty()) return;
    SeqList seqs;
    std::string named, key = "version:" + l.harness_id + ":" + *launch;
    bool wire_other = false, wire_unexplained = false, unknown = false;
    for (const std::string& v : others) {
      for (const VersionSeqs* s : {&wire_, &native_}) {
        if (auto it = s->by_version.find(v); it != s->by_version.end()) seqs.merge(it->second);
      }
      named += (named.empty() ? "" : ", ") + v + " (" + sources(v) + ")";
      key += ":" + v;
      if (!wire_.names(v)) continue;
      wire_other = true;
      const auto u = unexplained(ctx, v, *launch);
      wire_unexplained |= u.value_or(false);
      unknown |= !u.has_value();
    }
    if (wire_.more + native_.more > 0) named += ", and " + std::to_string(wire_.more + native_.more) + " record(s) naming yet other versions";
    const std::string launched = "The launch records " + l.harness_id + " " + *launch;
    if (wire_.names(*launch) || native_.names(*launch)) {
      const Severity s = wire_unexplained || unknown ? Severity::warning : Severity::info;
      ctx.emit(finding("GC07", s, seqs.seqs,
                       launched + ", which the harness names (" + sources(*launch) + "), but records also name " + named +
                           (s == Severity::info
                                ? ": a newer build (an update during the run), a listed release, or a resumed "
                                  "session's history written by an earlier build."
                                : ": requests of an older build that is not a release the policy lists (a nested "
                                  "run of another build, or a program other than the one launched).")),
               key);
      return;
    }
    Severity s = Severity::warning;
    std::string why;
    if (!wire_other) {
      why = " Only the harness's own log says so (the run can write it): no request the proxy saw names a version.";
    } else if (wire_unexplained) {
      s = Severity::high;
      why = " The proxy saw requests naming a build that is neither newer than the launch's (as an update between "
            "check and exec would be) nor a release the policy lists.";
    } else if (unknown) {
      why = " The policy lists no versions of " + l.harness_id + " to judge the other build by.";
    } else {
      why = " The other build is a listed release or a newer one: an update between the daemon's check and exec "
            "reads the same.";
    }
    ctx.emit(finding("GC07", s, seqs.seqs,
                     launched + ", but the harness that ran names itself " + named + ", never " + *launch +
                         ": the program that ran may not be the build whose digests were recorded." + why),
             key);
  }

  // "3 request(s), 8 native line(s)": where `v` is named.
  std::string sources(const std::string& v) const {
    std::string s;
    if (const uint64_t n = wire_.count(v)) s = std::to_string(n) + " request(s)";
    if (const uint64_t n = native_.count(v)) s += (s.empty() ? "" : ", ") + std::to_string(n) + " native line(s)";
    return s;
  }

  VersionSeqs wire_, native_;
};

}  // namespace

// The rule the reports list this check under (text help, SARIF), and its factory.
const CheckRegistrar kRegisteredGc07({.id = "GC07",
                                  .name = "LaunchNotBound",
                                  .gap = "The program can be replaced between the daemon's check and exec.",
                                  .bound = "The daemon records program_digest and image_digest.",
                                  .evidence = "A harness digest that is not a known release build; a harness that "
                                              "names another version than the launch records."},
                                 make_check<Gc07>);

}  // namespace goalcup::cheat
