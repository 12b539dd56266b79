#include "cheatcheck/gc_rules.h"

#include <algorithm>
#include <iterator>
#include <utility>
#include <vector>

#include "cheatcheck/checks/check.h"

namespace goalcup::cheat {
namespace {

// Condensed from the recorder's cheat checklist (version 0). The rules of
// the trace checks (GC01, GC04..GC13) are in their files in checks/, which
// register them; these are the findings no check file makes: verify's and
// the secret scan's (GC02, GC03).
constexpr GapRule kRules[] = {
    {"verify", "TraceVerification", "The trace is not the one the server countersigned, or is malformed.",
     "The hash chain and the server's signed statements fix every attested record.",
     "Any goalcup-verify error: a broken chain, a bad signature, a statement bound to another history."},
    {"GC02", "RedactionBlindSpot", "The redactor works rule by rule on streamed bodies: secrets split across chunks or encoded (base64, \\u escapes, URL encoding) pass it.",
     "Keys of known formats in plain text are redacted.",
     "A credential of a format the redactor knows, found in a body, header, native line or argv after decoding and joining streamed deltas."},
    {"GC03", "KeyScanBlindSpot", "The redactor knows a fixed list of key formats.", "Listed formats only.",
     "A credential of a format the redactor does not list (OAuth, fine-grained tokens, private keys, JWTs, cloud keys) anywhere in the trace."},
};

constexpr GapRule kCoopRules[] = {
    {"COOP01", "CoopFileModes", "Data files are more open than coop promises.", "The directory 0700; state.redb, vault.json, discord.json 0600.",
     "A looser mode, another owner, or a link where a file belongs."},
    {"COOP02", "CoopSecretInFiles", "A credential sits in a file of the data directory.", "Keys live in the sealed vault only.",
     "A credential found by the secret engine: in a state.redb row (named by table, key and field; a stale copy only: warning) or any other file."},
    {"COOP03", "CoopDiscordToken", "discord.json keeps the bot token in plain text.", "The file is 0600.", "A non-empty token."},
    {"COOP04", "CoopVaultShape", "vault.json is not a sealed vault.", "{version 1, salt, nonce, ciphertext} in hex.", "Any other shape."},
    {"COOP05", "CoopWorkdirName", "A workdir name no hen can have.", "<coop>__<name>.", "A name outside the pattern."},
    {"COOP06", "CoopOrphanWorkdir", "A workdir no hen owns.", "One workdir per hen.", "A workdir with no hen record."},
    {"MAN00", "ManifestSyntax", "coop's parser refuses the manifest.", "A YAML or JSON mapping of AgentManifest's fields and types.", "A parse error, a wrong type, an unknown sex."},
    {"MAN01", "ManifestSpecVersion", "coop refuses the spec_version.", "spec_version present and coop/v1.", "Missing or another spec_version."},
    {"MAN02", "ManifestName", "coop refuses the hen name.", "name present, [a-z][a-z0-9-]{0,31} (HenId::new at create).", "Missing or another name."},
    {"MAN03", "ManifestAgentKind", "coop refuses the agent kind.", "anthropic (the default when absent), claude-code, codex, gh-copilot, shell.", "Another kind."},
    {"MAN04", "ManifestNetworkPolicy", "coop refuses the network block.", "policy present (off, allowlist, open); allow only under allowlist.", "A missing or unknown policy, or allow under another policy."},
    {"MAN05", "ManifestHost", "A host pattern coop refuses.", "A bare ASCII host, * only as one leading *. label followed by a domain.", "Another host."},
    {"MAN06", "ManifestPort", "A port coop refuses.", "Ports 1-65535.", "Port 0, or not a u16."},
    {"MAN07", "ManifestBrain", "coop refuses the brain.", "brain with provider_id and model; for anthropic hens non-empty, a known provider, openai-compat with an http(s) base_url off the metadata address; fallbacks alike.", "A missing brain or field, an empty model, an unknown provider, a bad base_url."},
    {"MAN08", "ManifestLease", "A lease coop refuses.", "allow_lease with require_framework (default true) needs a CLI agent_kind; booleans true/false.", "Another kind, or a non-boolean."},
    {"MAN09", "ManifestAllowedTools", "Allowed tools outside tools.", "allowed_tools is a subset of tools.", "An extra tool."},
    {"MAN10", "ManifestStrictPolicyTmux", "A strict network policy with a tmux CLI agent.", "Refused at hatch.", "off or allowlist with a CLI agent."},
    {"MAN12", "ManifestSecret", "A credential written in the manifest (coop accepts this).", "Keys live in the vault.", "A credential found by the secret engine."},
    {"MAN13", "ManifestMetadataUrl", "A base_url at the cloud metadata address that coop does not check (coop accepts this).", "No base_url at 169.254.169.254.", "A tmux CLI agent's brain pointing at it."},
};

}  // namespace

std::span<const GapRule> coop_rules() { return kCoopRules; }

// Built once, on first use (after every check has registered): verify
// first, then GC01..GC13 in order.
std::span<const GapRule> gap_rules() {
  static const std::vector<GapRule> all = [] {
    std::vector<GapRule> rules(std::begin(kRules), std::end(kRules));
    for (const RegisteredCheck& c : registered_checks()) rules.push_back(c.rule);
    std::sort(rules.begin(), rules.end(), [](const GapRule& a, const GapRule& b) {
      return std::pair(a.id != "verify", a.id) < std::pair(b.id != "verify", b.id);
    });
    return rules;
  }();
  return all;
}

const GapRule* gap_rule(std::string_view id) {
  for (const auto& r : gap_rules()) {
    if (r.id == id) return &r;
  }
  for (const auto& r : kCoopRules) {
    if (r.id == id) return &r;
  }
  return nullptr;
}

}  // namespace goalcup::cheat
