#include "cheatcheck/coop/audit.h"

#include <sys/stat.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "cheatcheck/context.h"
#include "cheatcheck/coop/json_values.h"
#include "cheatcheck/secrets/engine.h"
#include "cheatcheck/secrets/trace_scan.h"
#include "core/json_strict.h"
#include "core/sha256.h"

namespace goalcup::cheat {
namespace {

namespace fs = std::filesystem;

constexpr uint64_t kMaxFile = 256ull << 20;  // bytes read of any one file

std::string mode_text(mode_t m) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "%04o", static_cast<unsigned>(m & 07777));
  return buf;
}

// A regular file's bytes, at most kMaxFile of them (links are not followed).
std::optional<std::string> read_file(const std::string& path) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return std::nullopt;
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::string out(std::min<uint64_t>(static_cast<uint64_t>(st.st_size), kMaxFile), '\0');
  in.read(out.data(), static_cast<std::streamsize>(out.size()));
  out.resize(static_cast<size_t>(in.gcount()));
  return out;
}

std::string str(simdjson::dom::object o, std::string_view key) {
  std::string_view v;
  return json::string(o, key, &v) == json::Get::ok ? std::string(v) : std::string();
}

class CoopAudit {
 public:
  CoopAudit(const std::string& dir, const Policy& policy) : dir_(dir), ctx_(policy) {}

  CheatReport run() {
    CheatReport rep;
    rep.file = dir_;
    rep.verify.verdict = Verdict::verified;  // "read": there is no chain here
    struct stat st {};
    if (::lstat(dir_.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
      rep.verify.verdict = Verdict::error;
      rep.verify.errors.push_back(Error{Code::not_found, -1, dir_ + " is not a directory"});
      return rep;
    }
    owner_ = st.st_uid;
    modes(st);
    secrets();
    discord();
    vault();
    workdirs();
    absl::flat_hash_set<std::string> known;
    collector_.emit(ctx_, known, "COOP02");
    rep.findings = std::move(ctx_.findings());
    for (auto& f : rep.findings) f.seqs.clear();  // no records here: places are in the message
    rep.skipped = std::move(ctx_.skipped());
    sort_findings(rep.findings);
    return rep;
  }

 private:
  void emit(const char* check, Severity sev, const std::string& message, const std::string& key) {
    ctx_.emit(finding(check, sev, {}, message), key);
  }

  // COOP01: the modes and owners coop promises (set best-effort, so a
  // failure to set them was silent).
  void modes(const struct stat& dir_st) {
    if (dir_st.st_mode & 077) {
      emit("COOP01", Severity::high,
           "The data directory has mode " + mode_text(dir_st.st_mode) + "; coop promises 0700.", "mode:dir");
    }
    for (const char* name : {"state.redb", "vault.json", "discord.json"}) {
      struct stat st {};
      const std::string path = dir_ + "/" + name;
      if (::lstat(path.c_str(), &st) != 0) continue;
      if (S_ISLNK(st.st_mode)) {
        emit("COOP01", Severity::high, std::string(name) + " is a symbolic link; coop writes a regular file.",
             std::string("link:") + name);
        continue;
      }
      if (st.st_mode & 077) {
        emit("COOP01", Severity::high,
             std::string(name) + " has mode " + mode_text(st.st_mode) + "; coop promises 0600.", std::string("mode:") + name);
      }
      if (st.st_uid != owner_) {
        emit("COOP01", Severity::warning,
             std::string(name) + " is owned by uid " + std::to_string(st.st_uid) + ", not the data directory's owner " +
                 std::to_string(owner_) + ".",
             std::string("owner:") + name);
      }
    }
  }

  // COOP02: every file through the secret engine; inside state.redb, each
  // embedded JSON value by its fields, with its id and hen_id.
  void secrets() {
    std::error_code ec;
    for (auto it = fs::recursive_directory_iterator(dir_, ec); !ec && it != fs::recursive_directory_iterator();
         it.increment(ec)) {
      if (!it->is_regular_file() || it->is_symlink()) continue;
      const std::string path = it->path().string();
      const std::string rel = fs::relative(it->path(), dir_).string();
      auto bytes = read_file(path);
      if (!bytes) continue;
      if (rel == "state.redb") redb(*bytes);
      std::vector<SecretHit> hits;
      engine_.scan(*bytes, "", &hits);
      for (const auto& h : hits) collector_.add(h, 0, "raw bytes", rel);
    }
  }

  void redb(const std::string& bytes) {
    for_each_embedded_object(bytes, [&](size_t offset, simdjson::dom::object o) {
      const std::string id = str(o, "id"), hen = str(o, "hen_id");
      std::string what = !hen.empty() || o.at_key("prompt").error() == simdjson::SUCCESS
                             ? "value " + (id.empty() ? "@" + std::to_string(offset) : id) +
                                   (hen.empty() ? "" : " (hen " + hen + ")")
                             : "value @" + std::to_string(offset);
      for (auto f : o) {
        std::string path = what + " ." + std::string(f.key);
        for_each_string_at(f.value, path, [&](std::string_view text, const std::string& at) {
          std::vector<SecretHit> hits;
          engine_.scan(text, "", &hits);
          for (const auto& h : hits) collector_.add(h, 0, at, "state.redb");
        });
      }
      // A hen record: coop + name, or an id shaped like a workdir name.
      const std::string coop = str(o, "coop"), name = str(o, "name");
      if (!name.empty() && (!coop.empty() || !str(o, "agent_kind").empty() || !str(o, "spec_version").empty())) {
        hens_.insert(coop.empty() ? name : coop + "__" + name);
        if (coop.empty()) hen_names_.insert(name);
      }
    });
  }

  // COOP03: discord.json keeps the bot token in plain text.
  void discord() {
    auto bytes = read_file(dir_ + "/discord.json");
    if (!bytes) return;
    StrictJsonParser p{Limits{}};
    auto root = p.parse_copy(*bytes, -1);
    simdjson::dom::object o;
    if (!root || root->get(o)) {
      emit("COOP03", Severity::warning, "discord.json is not a JSON object.", "discord-shape");
      return;
    }
    const std::string token = str(o, "token");
    if (!token.empty()) {
      emit("COOP03", Severity::high,
           "discord.json holds the Discord bot token in plain text (" + std::to_string(token.size()) +
               " chars, SHA-256 " + to_hex(sha256(token)).substr(0, 16) + "...): anyone who reads this copy can run the bot.",
           "discord-token");
    }
  }

  // COOP04: vault.json must be {version: 1, salt: 32-byte hex, nonce:
  // 24-byte hex, ciphertext: hex}. It is never opened.
  void vault() {
    auto bytes = read_file(dir_ + "/vault.json");
    if (!bytes) return;
    StrictJsonParser p{Limits{}};
    auto root = p.parse_copy(*bytes, -1);
    simdjson::dom::object o;
    std::vector<std::string> wrong;
    if (!root || root->get(o)) {
      wrong.push_back("not a JSON object");
    } else {
      uint64_t version = 0;
      if (json::uint(o, "version", &version) != json::Get::ok || version != 1) wrong.push_back("version is not 1");
      if (!is_lower_hex(str(o, "salt"), 64)) wrong.push_back("salt is not 32 bytes of hex");
      if (!is_lower_hex(str(o, "nonce"), 48)) wrong.push_back("nonce is not 24 bytes of hex");
      const std::string ct = str(o, "ciphertext");
      if (ct.empty() || ct.size() % 2 || !is_lower_hex(ct, ct.size())) wrong.push_back("ciphertext is not hex");
      for (auto f : o) {
        if (f.key != "version" && f.key != "salt" && f.key != "nonce" && f.key != "ciphertext") {
          wrong.push_back("unexpected member \"" + std::string(f.key) + "\"");
        }
      }
    }
    if (wrong.empty()) return;
    std::string what;
    for (const auto& w : wrong) what += (what.empty() ? "" : "; ") + w;
    emit("COOP04", Severity::high, "vault.json does not have the sealed vault's shape: " + what + ".", "vault-shape");
  }

  // COOP05 and COOP06: workdir names, and workdirs no hen owns.
  void workdirs() {
    static const std::regex kName("^[a-z0-9-]+__[a-z][a-z0-9-]{0,31}$");
    std::error_code ec;
    const std::string root = dir_ + "/workdirs";
    if (!fs::is_directory(root, ec)) return;
    bool any = false;
    for (const auto& e : fs::directory_iterator(root, ec)) {
      const std::string name = e.path().filename().string();
      any = true;
      if (!std::regex_match(name, kName)) {
        emit("COOP05", Severity::warning,
             "workdirs/" + name + " does not match coop's <coop>__<name> pattern, so no hen can own it.", "name:" + name);
        continue;
      }
      const std::string hen = name.substr(name.find("__") + 2);
      if (!hens_.empty() && !hens_.contains(name) && !hen_names_.contains(hen)) {
        emit("COOP06", Severity::warning, "workdirs/" + name + " belongs to no hen recorded in state.redb.", "orphan:" + name);
      }
    }
    if (any && hens_.empty()) ctx_.skip("COOP06", "no hen records could be read from state.redb");
  }

  std::string dir_;
  Context ctx_;
  uid_t owner_ = 0;
  SecretEngine engine_;
  SecretCollector collector_;
  std::set<std::string> hens_, hen_names_;
};

// ---- manifests --------------------------------------------------------

bool is_cli_agent(const std::string& kind) { return kind == "claude-code" || kind == "codex" || kind == "gh-copilot"; }

class ManifestAudit {
 public:
  ManifestAudit(const std::string& path, const Policy& policy) : path_(path), ctx_(policy) {}

  CheatReport run() {
    CheatReport rep;
    rep.file = path_;
    rep.verify.verdict = Verdict::verified;
    auto text = read_file(path_);
    if (!text) {
      rep.verify.verdict = Verdict::error;
      rep.verify.errors.push_back(Error{Code::not_found, -1, path_ + ": cannot read"});
      return rep;
    }
    try {
      check(YAML::Load(*text));
    } catch (const YAML::Exception& e) {
      emit("MAN00", Severity::high, "", std::string("the manifest is not valid YAML or JSON: ") + e.what());
    }
    std::istringstream lines(*text);
    size_t n = 0;
    for (std::string line; std::getline(lines, line);) {
      ++n;
      std::vector<SecretHit> hits;
      engine_.scan(line, "", &hits);
      for (const auto& h : hits) collector_.add(h, 0, "line " + std::to_string(n), path_);
    }
    collector_.emit(ctx_, {}, "MAN12");
    rep.findings = std::move(ctx_.findings());
    for (auto& f : rep.findings) f.seqs.clear();
    sort_findings(rep.findings);
    return rep;
  }

 private:
  void emit(const char* check, Severity sev, const std::string& key, const std::string& message) {
    ctx_.emit(finding(check, sev, {}, (key.empty() ? "" : key + ": ") + message), key + ":" + message);
  }

  static std::string scalar(const YAML::Node& n) { return n && n.IsScalar() ? n.Scalar() : std::string(); }

  void check(const YAML::Node& m) {
    if (!m.IsMap()) return emit("MAN00", Severity::high, "", "the manifest is not a mapping");
    if (scalar(m["spec_version"]) != "coop/v1") {
      emit("MAN01", Severity::high, "spec_version", "is \"" + scalar(m["spec_version"]) + "\", not coop/v1");
    }
    static const std::regex kName("^[a-z][a-z0-9-]{0,31}$");
    if (!std::regex_match(scalar(m["name"]), kName)) {
      emit("MAN02", Severity::high, "name", "\"" + scalar(m["name"]) + "\" is not a valid hen name ([a-z][a-z0-9-]{0,31})");
    }
    const std::string kind = scalar(m["agent_kind"]);
    static const std::set<std::string> kKinds = {"anthropic", "claude-code", "codex", "gh-copilot", "shell"};
    if (!kKinds.count(kind)) emit("MAN03", Severity::high, "agent_kind", "\"" + kind + "\" is not a known agent kind");
    network(m["network"], kind);
    brain(m["brain"]);
    lease(m, kind);
  }

  void network(const YAML::Node& n, const std::string& kind) {
    std::string policy = "open";
    if (n && n.IsMap() && n["policy"]) policy = scalar(n["policy"]);
    if (policy != "off" && policy != "allowlist" && policy != "open") {
      emit("MAN04", Severity::high, "network.policy", "\"" + policy + "\" is not off, allowlist or open");
    }
    const YAML::Node allow = n && n.IsMap() ? n["allow"] : YAML::Node();
    if (allow && allow.IsSequence() && allow.size() > 0 && policy != "allowlist") {
      emit("MAN04", Severity::high, "network.allow", "is set but network.policy is \"" + policy + "\", not allowlist");
    }
    if (allow && allow.IsSequence()) {
      for (size_t i = 0; i < allow.size(); ++i) {
        const std::string key = "network.allow[" + std::to_string(i) + "]";
        const std::string host = scalar(allow[i]["host"]);
        std::string_view h = host;
        if (h.starts_with("*.")) h.remove_prefix(2);
        const bool ascii = std::all_of(h.begin(), h.end(), [](char c) {
          return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '-';
        });
        if (host.empty() || !ascii) {
          emit("MAN05", Severity::high, key + ".host", "\"" + host + "\" is not an ASCII host with at most a leading *.");
        }
        const YAML::Node ports = allow[i]["ports"];
        if (ports && ports.IsSequence()) {
          for (size_t j = 0; j < ports.size(); ++j) {
            long port = -1;
            try {
              port = ports[j].as<long>();
            } catch (const YAML::Exception&) {
            }
            if (port <= 0 || port > 65535) {
              emit("MAN06", Severity::high, key + ".ports[" + std::to_string(j) + "]", "port " + scalar(ports[j]) + " is not 1-65535");
            }
          }
        }
      }
    }
    if ((policy == "off" || policy == "allowlist") && kind != "anthropic" && !kind.empty()) {
      emit("MAN10", Severity::high, "network.policy",
           "\"" + policy + "\" with a tmux CLI agent (" + kind + ") is refused at hatch: only anthropic runs in-process");
    }
  }

  void brain(const YAML::Node& b) {
    if (!b || !b.IsMap() || scalar(b["provider"]) != "openai-compat") return;
    const std::string url = scalar(b["base_url"]);
    if (!(url.starts_with("http://") || url.starts_with("https://"))) {
      emit("MAN07", Severity::high, "brain.base_url", "\"" + url + "\" is not an http(s) URL");
    }
    if (url.find("169.254.169.254") != std::string::npos) {
      emit("MAN07", Severity::high, "brain.base_url", "points at the cloud metadata address 169.254.169.254");
    }
  }

  void lease(const YAML::Node& m, const std::string& kind) {
    const YAML::Node l = m["lease"];
    if (!l || !l.IsMap()) return;
    const bool allow = scalar(l["allow_lease"]) == "true";
    const bool framework = !l["require_framework"] || scalar(l["require_framework"]) != "false";
    if (allow && framework && !is_cli_agent(kind)) {
      emit("MAN08", Severity::high, "lease.allow_lease",
           "with require_framework needs a CLI agent_kind (claude-code, codex, gh-copilot), not \"" + kind + "\"");
    }
    std::set<std::string> tools;
    if (m["tools"] && m["tools"].IsSequence()) {
      for (const auto& t : m["tools"]) tools.insert(scalar(t));
    }
    if (l["allowed_tools"] && l["allowed_tools"].IsSequence()) {
      for (const auto& t : l["allowed_tools"]) {
        if (!tools.count(scalar(t))) {
          emit("MAN09", Severity::high, "lease.allowed_tools", "\"" + scalar(t) + "\" is not among tools");
        }
      }
    }
  }

  std::string path_;
  Context ctx_;
  SecretEngine engine_;
  SecretCollector collector_;
};

}  // namespace

CheatReport audit_coop_dir(const std::string& dir, const Limits&, const Policy& policy) {
  return CoopAudit(dir, policy).run();
}

CheatReport audit_manifest(const std::string& path, const Limits&, const Policy& policy) {
  return ManifestAudit(path, policy).run();
}

}  // namespace goalcup::cheat
