#include "cheatcheck/sarif.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <optional>
#include <set>

#include "cheatcheck/gc_rules.h"
#include "cheatcheck/secrets/rules.h"
#include "cli/json_writer.h"
#include "cli/verify_text.h"

namespace goalcup::cheat {
namespace {

namespace fs = std::filesystem;

constexpr const char* kBaseId = "SRCROOT";

const char* sarif_level(Severity s) { return s == Severity::high ? "error" : s == Severity::warning ? "warning" : "note"; }

// Scan mode names a finding by the secret rule that matched, not by a gap
// of the recorder: a plain file has no recorder.
std::string rule_id(const Finding& f, Mode mode) {
  if (mode == Mode::scan && f.has_secret) return "secret/" + f.secret.rule;
  return f.check;
}

// Where an input's artifact is, as a SARIF artifactLocation.
struct Place {
  std::string uri;
  bool relative_to_base = false;
  // A member of a .tar: `uri` is its path inside the archive at `parent`.
  std::optional<std::string> archive;
};

class UriMaker {
 public:
  explicit UriMaker(const std::string& base_dir) {
    if (base_dir.empty()) return;
    std::error_code ec;
    base_ = fs::absolute(base_dir, ec).lexically_normal();
    if (ec) base_.clear();
  }
  bool has_base() const { return !base_.empty(); }
  std::string base_uri() const {
    std::string s = base_.generic_string();
    if (s.empty() || s.back() != '/') s += '/';
    return "file://" + percent_encode_path(s);
  }
  // A path on this machine: relative to the base when inside it, else as
  // given when relative, else an absolute file URI.
  Place file(const std::string& path) const {
    if (path == "-") return Place{"stdin", false, std::nullopt};
    std::error_code ec;
    const fs::path abs = fs::absolute(path, ec).lexically_normal();
    if (has_base() && !ec) {
      const fs::path rel = abs.lexically_relative(base_);
      if (!rel.empty() && *rel.begin() != "..") return Place{percent_encode_path(rel.generic_string()), true, {}};
    }
    const fs::path given = fs::path(path).lexically_normal();
    if (!has_base() && given.is_relative() && !given.empty() && *given.begin() != "..") {
      return Place{percent_encode_path(given.generic_string()), false, {}};
    }
    return Place{"file://" + percent_encode_path(abs.generic_string()), false, {}};
  }

 private:
  fs::path base_;
};

// The place a finding is in: its trace (or scanned file), the trace's path
// inside a submission folder, or a member of a .tar.
Place finding_place(const CheatReport& r, const Finding& f, const UriMaker& uris) {
  if (f.has_secret && !f.secret.file.empty() && f.secret.file != r.file) {
    // Scan mode names a .tar member "ARCHIVE:MEMBER".
    const std::string prefix = r.file + ":";
    if (f.secret.file.starts_with(prefix)) {
      return Place{percent_encode_path(f.secret.file.substr(prefix.size())), false, r.file};
    }
    return uris.file(f.secret.file);
  }
  if (!r.verify.member.empty()) {
    if (r.verify.member_of_archive) return Place{percent_encode_path(r.verify.member), false, r.file};
    return uris.file(r.file + "/" + r.verify.member);
  }
  return uris.file(r.file);
}

// The run's artifacts: archives holding findings, then their members.
class Artifacts {
 public:
  explicit Artifacts(const UriMaker& uris) : uris_(uris) {}
  // Index of the member's artifact (its archive's added first).
  size_t member(const std::string& archive, const std::string& uri) {
    auto key = std::make_pair(archive, uri);
    auto it = members_.find(key);
    if (it != members_.end()) return it->second;
    auto a = archives_.find(archive);
    size_t parent;
    if (a == archives_.end()) {
      parent = list_.size();
      archives_[archive] = parent;
      list_.push_back({uris_.file(archive), std::nullopt});
    } else {
      parent = a->second;
    }
    const size_t index = list_.size();
    list_.push_back({Place{uri, false, {}}, parent});
    members_[key] = index;
    return index;
  }
  bool empty() const { return list_.empty(); }
  void write(JsonWriter& w) const;

 private:
  struct Entry {
    Place place;
    std::optional<size_t> parent;
  };
  const UriMaker& uris_;
  std::vector<Entry> list_;
  std::map<std::string, size_t> archives_;
  std::map<std::pair<std::string, std::string>, size_t> members_;
};

void write_artifact_location(JsonWriter& w, const Place& p, std::optional<size_t> index = std::nullopt) {
  w.begin_object().field("uri", p.uri);
  if (p.relative_to_base) w.field("uriBaseId", kBaseId);
  if (index) w.field("index", static_cast<uint64_t>(*index));
  w.end_object();
}

void Artifacts::write(JsonWriter& w) const {
  w.key("artifacts").begin_array();
  for (const auto& e : list_) {
    w.begin_object().key("location");
    write_artifact_location(w, e.place);
    if (e.parent) w.field("parentIndex", static_cast<uint64_t>(*e.parent));
    w.end_object();
  }
  w.end_array();
}

void write_rule(JsonWriter& w, std::string_view id, std::string_view name, std::string_view short_text,
                std::string_view full_text, std::string_view help) {
  w.begin_object().field("id", id);
  if (!name.empty()) w.field("name", name);
  w.key("shortDescription").begin_object().field("text", short_text).end_object();
  w.key("fullDescription").begin_object().field("text", full_text).end_object();
  w.key("help").begin_object().field("text", help).end_object();
  w.end_object();
}

void write_rules(JsonWriter& w, Mode mode) {
  w.key("rules").begin_array();
  if (mode == Mode::scan) {
    std::set<std::string_view> seen;
    for (const auto& r : secret_rules()) {
      if (!seen.insert(r.id).second) continue;
      const std::string id = "secret/" + std::string(r.id);
      write_rule(w, id, "", r.description, std::string(r.description) + " (a credential in a scanned file)",
                 "Remove the credential from the file and revoke it; see docs/SECRETS.md.");
    }
  } else {
    const bool coop = mode == Mode::coop || mode == Mode::manifest;
    for (const GapRule& g : coop ? coop_rules() : gap_rules()) {
      write_rule(w, g.id, g.name, g.gap, std::string(g.gap) + " Stated bound: " + std::string(g.bound),
                 "Evidence: " + std::string(g.evidence));
    }
  }
  w.end_array();
}

struct SarifResult {
  Severity severity;
  std::string json;
};

// One result; tar members are added to `artifacts` as they are met.
std::string result_json(const CheatReport& r, const Finding& f, Mode mode, const UriMaker& uris,
                        Artifacts& artifacts) {
  std::string out;
  JsonWriter w(&out);
  w.begin_object().field("ruleId", rule_id(f, mode)).field("level", sarif_level(f.severity));
  w.key("message").begin_object().field("text", f.message).end_object();
  w.key("locations").begin_array().begin_object().key("physicalLocation").begin_object();
  const Place place = finding_place(r, f, uris);
  w.key("artifactLocation");
  if (place.archive) write_artifact_location(w, place, artifacts.member(*place.archive, place.uri));
  else write_artifact_location(w, place);
  // A record is a line: seq N is line N + 1 (a scanned file's lines count
  // from 0 in seqs too). Findings about the whole trace sit on line 1.
  const uint64_t line = f.seqs.empty() ? 1 : f.seqs.front() + 1;
  w.key("region").begin_object().field("startLine", line).end_object();
  w.end_object().end_object().end_array();
  // GitHub's own key is "hash of the line:occurrence"; ours is already
  // stable across edits elsewhere in the trace, so it stands in for it.
  w.key("partialFingerprints").begin_object();
  w.field("primaryLocationLineHash", f.fingerprint.substr(0, 16) + ":1");
  w.field("goalcupFingerprint/v3", f.fingerprint).end_object();
  if (f.suppressed) w.key("suppressions").begin_array().begin_object().field("kind", "external").end_object().end_array();
  w.key("properties").begin_object().field("severity", severity_name(f.severity)).field("check", f.check);
  w.key("seqs").begin_array();
  for (uint64_t s : f.seqs) w.value(s);
  w.end_array();
  if (f.has_secret) {
    w.field("rule", f.secret.rule).field("secret_sha256", f.secret.secret_sha256);
    w.field("location", f.secret.location).field("decoding", f.secret.decoding);
  }
  w.end_object().end_object();
  return out;
}

struct Notification {
  std::string level, id, text;
  std::optional<Place> place;
};

std::string notification_json(const Notification& n) {
  std::string out;
  JsonWriter w(&out);
  w.begin_object().field("level", n.level);
  w.key("message").begin_object().field("text", n.text).end_object();
  w.key("descriptor").begin_object().field("id", n.id).end_object();
  if (n.place) {
    w.key("locations").begin_array().begin_object().key("physicalLocation").begin_object().key("artifactLocation");
    write_artifact_location(w, *n.place);
    w.end_object().end_object().end_array();
  }
  w.end_object();
  return out;
}

std::vector<Notification> unjudged_notifications(const ReportSet& set, const UriMaker& uris) {
  std::vector<Notification> out;
  for (const auto& r : set.reports) {
    if (!unjudged(r)) continue;
    const Error* e = r.verify.errors.empty() ? nullptr : &r.verify.errors.front();
    out.push_back({"error", e ? std::string(code_name(e->code)) : "could_not_judge",
                   "Could not judge " + r.file + (e ? ": " + std::string(code_name(e->code)) + ": " + e->message : ""),
                   uris.file(r.file)});
  }
  return out;
}

// Traces that statements vouch for only under a key given with --dev-key:
// anyone holding that key (the development key is public) could have
// signed them, and a code-scanning view must say so (red-team 16c #9).
std::vector<Notification> supplied_key_notifications(const ReportSet& set, const UriMaker& uris) {
  std::vector<Notification> out;
  for (const auto& r : set.reports) {
    if (!vouched_by_supplied_key(r.verify)) continue;
    const std::string scope = supplied_key_scope(r.verify);
    const std::string what = scope.empty() ? ": statements hold under a key supplied with --dev-key"
                                           : ": attested through seq " + std::to_string(r.verify.attested_through_seq) +
                                                 scope + ", not by the pinned server keys";
    out.push_back({"warning", "server_key_unpinned", r.file + what + " (" + std::string(kSuppliedKeyNote) + ")",
                   uris.file(r.file)});
  }
  return out;
}

}  // namespace

std::string percent_encode_path(std::string_view path) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : path) {
    const bool keep = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
                      c == '.' || c == '_' || c == '~' || c == '/';
    if (keep) {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

std::string format_cheat_sarif(const ReportSet& set, const SarifOptions& opt) {
  const UriMaker uris(opt.base_dir);
  Artifacts artifacts(uris);
  std::vector<SarifResult> results;
  for (const auto& r : set.reports) {
    for (const auto& f : r.findings) results.push_back({f.severity, result_json(r, f, set.mode, uris, artifacts)});
  }
  // Worst first, so that a cap keeps what matters (GitHub ranks the same way).
  std::stable_sort(results.begin(), results.end(),
                   [](const SarifResult& a, const SarifResult& b) { return a.severity > b.severity; });

  std::vector<Notification> notes = unjudged_notifications(set, uris);
  for (auto& n : supplied_key_notifications(set, uris)) notes.push_back(std::move(n));
  // A run is unsuccessful when an input could not be judged, not when one
  // was judged under a supplied key.
  const bool successful = std::none_of(notes.begin(), notes.end(), [](const Notification& n) { return n.level == "error"; });
  size_t budget = opt.max_bytes > (1u << 20) ? opt.max_bytes - (1u << 20) : opt.max_bytes / 2;  // rules, headers
  for (const auto& n : notes) budget -= std::min(budget, notification_json(n).size());
  size_t kept = 0, bytes = 0;
  while (kept < results.size() && kept < opt.max_results_per_run * opt.max_runs &&
         bytes + results[kept].json.size() <= budget) {
    bytes += results[kept++].json.size();
  }
  if (kept < results.size()) {
    notes.push_back({"warning", "results_capped",
                     std::to_string(results.size() - kept) + " of " + std::to_string(results.size()) +
                         " results are not in this SARIF file (at most " + std::to_string(opt.max_results_per_run) +
                         " per run, " + std::to_string(opt.max_runs) + " runs and about " +
                         std::to_string(opt.max_bytes >> 20) + " MB); the least severe were left out. "
                         "The JSON report (--format json) has them all.",
                     std::nullopt});
  }
  const size_t runs = std::max<size_t>(1, (kept + opt.max_results_per_run - 1) / opt.max_results_per_run);

  std::string out;
  JsonWriter w(&out, true);
  w.begin_object().field("$schema", "https://json.schemastore.org/sarif-2.1.0.json").field("version", "2.1.0");
  w.key("runs").begin_array();
  for (size_t run = 0; run < runs; ++run) {
    w.begin_object();
    w.key("tool").begin_object().key("driver").begin_object();
    w.field("name", "goalcup-cheatcheck").field("version", GOALCUP_VERSION);
    w.field("informationUri", "https://goalcup.dev/docs/CHEATCHECK.md");
    write_rules(w, set.mode);
    w.end_object().end_object();
    if (runs > 1) {
      // Code scanning keeps one run per tool and category: each part its own.
      w.key("automationDetails").begin_object();
      w.field("id", "goalcup-cheatcheck/" + std::string(mode_name(set.mode)) + "/part-" + std::to_string(run + 1) + "-of-" + std::to_string(runs) + "/");
      w.end_object();
    }
    w.key("invocations").begin_array().begin_object().field("executionSuccessful", successful);
    w.key("toolExecutionNotifications").begin_array();
    if (run == 0) {
      for (const auto& n : notes) w.raw(notification_json(n));
    }
    w.end_array().end_object().end_array();
    if (uris.has_base()) {
      w.key("originalUriBaseIds").begin_object().key(kBaseId).begin_object().field("uri", uris.base_uri());
      w.end_object().end_object();
    }
    if (!artifacts.empty()) artifacts.write(w);
    w.key("results").begin_array();
    const size_t first = run * opt.max_results_per_run, last = std::min(kept, first + opt.max_results_per_run);
    for (size_t i = first; i < last; ++i) w.raw(results[i].json);
    w.end_array().end_object();
  }
  w.end_array().end_object();
  out += "\n";
  return out;
}

}  // namespace goalcup::cheat
