#include "cheatcheck/secrets/trace_scan.h"

#include <cstring>

#include "cheatcheck/secrets/rules.h"
#include "core/sha256.h"

namespace goalcup::cheat {
namespace {

constexpr size_t kMaxGroups = 10000;
constexpr std::string_view kSensitiveHeaders[] = {"authorization", "proxy-authorization", "x-api-key", "api-key",
                                                  "x-goog-api-key", "x-auth-token", "openai-api-key"};

bool sensitive_header(std::string_view name) {
  for (auto h : kSensitiveHeaders) {
    if (h == name) return true;
  }
  return false;
}

// The credential in a header value, without its scheme ("Bearer x" -> "x").
std::string_view header_secret(std::string_view value) {
  for (std::string_view scheme : {"Bearer ", "bearer ", "Basic ", "basic ", "Token ", "token "}) {
    if (value.starts_with(scheme)) value.remove_prefix(scheme.size());
  }
  return value;
}

}  // namespace

void collect_markers(std::string_view text, absl::flat_hash_set<std::string>* names) {
  constexpr std::string_view kOpen = "[REDACTED:";
  for (size_t p = text.find(kOpen); p != std::string_view::npos; p = text.find(kOpen, p + 1)) {
    size_t close = text.find(']', p);
    if (close == std::string_view::npos || close - p > 80) continue;
    std::string_view name = text.substr(p + kOpen.size(), close - p - kOpen.size());
    if (!name.empty() && names->size() < 1000) names->insert(std::string(name));
  }
}

void SecretCollector::add(const SecretHit& hit, uint64_t seq, const std::string& location, const std::string& file) {
  const std::string sha = to_hex(sha256(hit.secret));
  auto it = index_.find(sha);
  if (it == index_.end()) {
    if (groups_.size() >= kMaxGroups) {
      ++dropped_;
      return;
    }
    SecretGroup g;
    g.rule = hit.rule;
    g.sha256 = sha;
    g.preview = mask_secret(hit.secret);
    g.location = location;
    g.decoding = hit.chain;
    g.file = file;
    g.severity = hit.severity;
    g.note = hit.note;
    it = index_.emplace(sha, groups_.size()).first;
    groups_.push_back(std::move(g));
    if (keep_text_) texts_.push_back(hit.secret);
  }
  SecretGroup& g = groups_[it->second];
  ++g.occurrences;
  if ((g.seqs.empty() || g.seqs.back() != seq) && g.seqs.size() < kMaxSeqs) g.seqs.push_back(seq);
  if (std::count(hit.chain.begin(), hit.chain.end(), '>') < std::count(g.decoding.begin(), g.decoding.end(), '>')) {
    g.decoding = hit.chain;
  }
}

std::vector<std::pair<std::string, std::string>> SecretCollector::texts() const {
  std::vector<std::pair<std::string, std::string>> out;
  for (size_t i = 0; i < texts_.size() && i < groups_.size(); ++i) {
    out.emplace_back(texts_[i], std::string(secret_rules()[groups_[i].rule].id));
  }
  return out;
}

void SecretCollector::emit(Context& ctx, const absl::flat_hash_set<std::string>& known, std::string_view check) {
  auto rules = secret_rules();
  for (const SecretGroup& g : groups_) {
    const Rule& rule = rules[g.rule];
    const bool redactor_knows = known.contains(std::string(rule.id));
    Finding f;
    f.check = !check.empty() ? std::string(check) : redactor_knows ? "GC02" : "GC03";
    f.severity = g.severity;
    f.seqs = g.seqs;
    f.message = std::string(rule.description) + " " + g.preview + " found in " +
                (g.file.empty() ? g.location : g.file + " " + g.location) +
                (g.decoding.empty() ? "" : " after " + g.decoding) +
                (g.occurrences > 1 ? " (" + std::to_string(g.occurrences) + " places)" : "") +
                (redactor_knows && check.empty() ? "; the recorder's redactor knows this format but missed it." : ".") +
                (g.note.empty() ? "" : " Note: " + g.note + ".");
    f.has_secret = true;
    f.secret = SecretInfo{std::string(rule.id), g.location, g.decoding, g.sha256, g.preview, g.file, g.occurrences,
                          keep_text_ && &g - groups_.data() < static_cast<ptrdiff_t>(texts_.size())
                              ? texts_[static_cast<size_t>(&g - groups_.data())]
                              : std::string()};
    ctx.emit(std::move(f), std::string(rule.id) + ":" + g.sha256);
  }
  if (dropped_ > 0) {
    ctx.emit(finding("GC03", Severity::high, {},
                     std::to_string(dropped_) + " more distinct secrets were found and not listed (over " +
                         std::to_string(kMaxGroups) + ")."),
             "dropped");
  }
}

void TraceSecretScan::on_record(const Record& r, std::string_view line, Context& ctx) {
  if (line.find("[REDACTED:") != std::string_view::npos) collect_markers(line, &markers_);
  if (r.kind == Kind::wire) {
    scan_headers(r);
    // The stored body as bytes (base64 bodies decoded).
    const WireBody& body = ctx.wire_body();
    std::string_view encoding;
    (void)json::string(r.body, "encoding", &encoding);
    if (body.present) scan_string(body.bytes, "body.body", r.seq, encoding == "base64" ? "base64" : "");
    for (auto field : r.body) {
      if (field.key == "body" || field.key == "headers") continue;
      std::string path = "body." + std::string(field.key);
      walk(field.value, path, r.seq);
    }
    return;
  }
  std::string path = "body";
  for (auto field : r.body) {
    path = "body." + std::string(field.key);
    walk(field.value, path, r.seq);
  }
}

void TraceSecretScan::walk(simdjson::dom::element e, std::string& path, uint64_t seq) {
  simdjson::dom::object o;
  simdjson::dom::array a;
  std::string_view s;
  if (!e.get(s)) {
    scan_string(s, path, seq);
  } else if (!e.get(o)) {
    for (auto field : o) {
      const size_t len = path.size();
      path += ".";
      path += field.key;
      walk(field.value, path, seq);
      path.resize(len);
    }
  } else if (!e.get(a)) {
    size_t i = 0;
    for (auto v : a) {
      const size_t len = path.size();
      path += "[" + std::to_string(i++) + "]";
      walk(v, path, seq);
      path.resize(len);
    }
  }
}

void TraceSecretScan::scan_string(std::string_view s, const std::string& path, uint64_t seq, std::string_view chain) {
  hits_.clear();
  engine_.scan(s, chain, &hits_);
  for (const auto& h : hits_) collector_.add(h, seq, path);
}

void TraceSecretScan::scan_headers(const Record& r) {
  simdjson::dom::array headers;
  if (json::array(r.body, "headers", &headers) != json::Get::ok) return;
  size_t i = 0;
  static const uint32_t kAuthRule = static_cast<uint32_t>(*rule_index("auth-header"));
  static const uint32_t kKeyRule = static_cast<uint32_t>(*rule_index("api-key-header"));
  for (auto h : headers) {
    const std::string path = "body.headers[" + std::to_string(i++) + "]";
    simdjson::dom::array pair;
    std::string_view name, value;
    if (h.get(pair) || pair.size() != 2 || pair.at(0).get(name) || pair.at(1).get(value)) continue;
    hits_.clear();
    engine_.scan(value, "", &hits_);
    std::string_view secret = header_secret(value);
    if (sensitive_header(name) && hits_.empty() && value.find("[REDACTED:") == std::string_view::npos &&
        secret.size() >= 8) {
      const bool bearer = name == "authorization" || name == "proxy-authorization";
      hits_.push_back({bearer ? kAuthRule : kKeyRule, std::string(secret), "", Severity::high,
                       "a credential header value the recorder did not redact"});
    }
    for (const auto& hit : hits_) collector_.add(hit, r.seq, path);
  }
}

void TraceSecretScan::finish(Context& ctx) {
  absl::flat_hash_set<std::string> known = markers_;
  for (const auto& r : ctx.policy().redactor_rules) known.insert(r);
  collector_.emit(ctx, known);
}

}  // namespace goalcup::cheat
