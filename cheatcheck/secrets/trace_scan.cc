#include "cheatcheck/secrets/trace_scan.h"

#include <absl/cleanup/cleanup.h>
#include <strings.h>

#include <cstring>

#include "cheatcheck/secrets/prefilter.h"
#include "cheatcheck/secrets/rules.h"
#include "core/keyring.h"
#include "core/bodies.h"
#include "core/record.h"
#include "core/sha256.h"

namespace goalcup::cheat {
namespace {

// The credential in a header value, without its scheme ("Bearer x" -> "x").
std::string_view header_secret(std::string_view value) {
  for (std::string_view scheme : {"Bearer ", "bearer ", "Basic ", "basic ", "Token ", "token "}) {
    if (value.starts_with(scheme)) value.remove_prefix(scheme.size());
  }
  return value;
}

// The rule a credential header's value is reported under: auth-header for
// (proxy-)authorization, aws-session-token for X-Amz-Security-Token,
// api-key-header for the others.
uint32_t credential_header_rule(std::string_view name) {
  static const auto kAuthRule = static_cast<uint32_t>(*rule_index("auth-header"));
  static const auto kKeyRule = static_cast<uint32_t>(*rule_index("api-key-header"));
  static const auto kSessionRule = static_cast<uint32_t>(*rule_index("aws-session-token"));
  const auto ends_with = [&](std::string_view tail) {
    return name.size() >= tail.size() && strncasecmp(name.data() + name.size() - tail.size(), tail.data(), tail.size()) == 0;
  };
  if (ends_with("authorization")) return kAuthRule;
  return name.size() == 20 && ends_with("x-amz-security-token") ? kSessionRule : kKeyRule;
}

}  // namespace

size_t redaction_marker_close(std::string_view text, size_t open) {
  constexpr size_t kMaxMarker = 80;
  const size_t close = text.substr(open, kMaxMarker + 1).find(']');
  return close == std::string_view::npos ? close : open + close;
}

void collect_markers(std::string_view text, absl::flat_hash_set<std::string>* names) {
  constexpr std::string_view kOpen = "[REDACTED:";
  for (size_t p = text.find(kOpen); p != std::string_view::npos; p = text.find(kOpen, p + 1)) {
    const size_t close = redaction_marker_close(text, p);
    if (close == std::string_view::npos) continue;
    std::string_view name = text.substr(p + kOpen.size(), close - p - kOpen.size());
    if (!name.empty() && names->size() < 1000) names->insert(std::string(name));
  }
}

void SecretCollector::add(const SecretHit& hit, uint64_t seq, const std::string& location, const std::string& file) {
  const std::string sha = to_hex(sha256(hit.secret));
  auto it = index_.find(sha);
  if (it == index_.end()) {
    if (groups_.size() >= kMaxDistinctSecrets) {
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
                (g.note.empty() ? "" : " Note: " + g.note + (g.note.ends_with('?') ? "" : "."));
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
                         std::to_string(kMaxDistinctSecrets) + ")."),
             "dropped");
  }
}

namespace {

// Keys that call a model provider's API: in the harness's log they mean a
// tool of the run could have called the model itself (GC05).
bool is_provider_key(uint32_t rule) {
  static const absl::flat_hash_set<uint32_t> kRules = [] {
    absl::flat_hash_set<uint32_t> s;
    for (const char* id : {"anthropic-key", "anthropic-oauth", "openai-key", "google-api"}) {
      if (auto i = rule_index(id)) s.insert(static_cast<uint32_t>(*i));
    }
    return s;
  }();
  return kRules.contains(rule);
}

// Every string of a record, with its place ("body.headers[2]"); wire bodies
// stored as base64 are decoded first. The record's texts come from whoever
// parsed it (the walk, in a trace check) or from this scanner's own parse.
class RecordLineScanner final : public LineScanner {
 public:
  using LineScanner::scan;
  RecordLineScanner(bool prefilter, const Limits& limits, ScanCache* cache)
      : prefilter_(prefilter), parser_(limits), engine_(limits) {
    engine_.use_cache(cache);
  }

  void scan(std::string_view line, uint64_t seq, const LineTexts* texts, ScanOutput* out) override {
    out_ = out;
    seq_ = seq;
    if (line.find("[REDACTED:") != std::string_view::npos) collect_markers(line, &out->markers);
    if (prefilter_ && !Prefilter::instance().may_hold_secret(line)) return;
    if (texts) return scan_texts(*texts, line, nullptr);
    auto r = parser_.parse(line, seq);
    if (!r) return scan_string(line, "line");  // the verifier reports why; the text is still scanned
    own_.clear();
    scan_texts(LineTexts{&own_, own_.add(*r)}, line, &*r);
    // Grown for a long line: freed (assigning an empty arena kept its text buffer).
    if (own_.capacity() > kKeepArenaBytes) (void)std::exchange(own_, TextArena());
  }

 private:
  static constexpr size_t kKeepArenaBytes = 4 << 20;

  // A string's hit, whose place is found once the record's scan is over.
  struct Unplaced {
    size_t hit;     // in out_->hits
    uint64_t rank;  // of its string in the record
  };

  // `parsed` is the line's record when this scanner parsed it.
  void scan_texts(const LineTexts& texts, std::string_view line, const Record* parsed) {
    const TextArena& arena = *texts.arena;
    const size_t before = out_->hits.size();
    unplaced_.clear();
    const std::span<const TextItem> items = arena.items(texts.record);
    for (size_t i = 0; i < items.size(); ++i) {
      const TextItem& item = items[i];
      switch (item.role) {
        case TextItem::Role::header: scan_header(item.index, arena.name(item), arena.text(item)); break;
        case TextItem::Role::wire_body:
          scan_wire_body(arena.text(item), item.base64, arena.name(item), texts.answer);
          break;
        case TextItem::Role::json_body: i += scan_parsed(item, items.subspan(i + 1), arena, "body.body"); break;
        case TextItem::Role::json_field: {
          const size_t first = out_->hits.size();
          i += scan_parsed(item, items.subspan(i + 1), arena, std::string());
          for (size_t h = first; h < out_->hits.size(); ++h) unplaced_.push_back({h, item.index});
          break;
        }
        case TextItem::Role::json_string:
        case TextItem::Role::json_member: break;  // read with their json_body
        case TextItem::Role::field:
          const size_t first = out_->hits.size();
          scan_string(arena.text(item), std::string());
          for (size_t h = first; h < out_->hits.size(); ++h) unplaced_.push_back({h, item.index});
          break;
      }
    }
    if (!unplaced_.empty()) place_hits(line, parsed);
    if (texts.record.kind == Kind::native &&
        std::any_of(out_->hits.begin() + static_cast<ptrdiff_t>(before), out_->hits.end(),
                    [](const LocatedHit& h) { return is_provider_key(h.hit.rule); })) {
      out_->provider_key_lines.push_back(seq_);
    }
  }

  // Names the place of each string that held a secret: rare, so the line
  // is parsed again for it when the walk's texts were scanned.
  void place_hits(std::string_view line, const Record* parsed) {
    Result<Record> again = parsed ? Result<Record>(*parsed) : parser_.parse(line, seq_);
    size_t next = 0;  // unplaced_ is in rank order
    if (again) {
      for_each_record_string(*again, [&](uint64_t rank, const std::string& path, std::string_view) {
        for (; next < unplaced_.size() && unplaced_[next].rank == rank; ++next) out_->hits[unplaced_[next].hit].location = path;
      });
    }
    for (; next < unplaced_.size(); ++next) out_->hits[unplaced_[next].hit].location = "body";  // not reached: same parser, same line
  }

  // A body under a content coding is scanned as the content it carried (a
  // bomb's first 32 MiB): a key inside gzip or zstd bytes is still a key.
  // `answer`, when given, is the checks' rebuild of its content as a stream
  // (lent only for a body without a content coding that decodes).
  void scan_wire_body(std::string_view stored, bool base64, std::string_view coding, const RebuiltAnswer* answer) {
    const WireBody wire = wire_body(stored, base64, SIZE_MAX, std::string(coding));
    if (answer && wire.content_encoding.empty() && (!wire.base64 || wire.base64_ok)) {
      engine_.lend_answer(wire.bytes(), answer);  // what is scanned below, the checks' content()
      const absl::Cleanup unlend = [&] { engine_.lend_answer({}, nullptr); };
      return scan_string(wire.bytes(), "body.body", wire.base64 ? "base64" : "");
    }
    const bool inflated = !wire.content_encoding.empty() && (wire.content_status == ContentDecoding::ok ||
                                                             wire.content_status == ContentDecoding::too_large);
    if (inflated || (wire.base64 && wire.base64_ok)) {
      return scan_string(inflated ? wire.content() : wire.bytes(), "body.body", wire.base64 ? "base64" : "");
    }
    scan_string(wire.stored, "body.body");
  }

  // JSON given parsed (TextArena::add_parsed), scanned as scan_wire_body()
  // scans a body's content or scan_string() a field: `parts` starts with
  // its strings and members. Returns how many items of `parts` were its own.
  size_t scan_parsed(const TextItem& json, std::span<const TextItem> parts, const TextArena& arena,
                     const std::string& path) {
    strings_.clear();
    members_.clear();
    size_t n = 0;
    for (; n < parts.size(); ++n) {
      if (parts[n].role == TextItem::Role::json_string) {
        strings_.push_back(arena.text(parts[n]));
      } else if (parts[n].role == TextItem::Role::json_member) {
        members_.emplace_back(arena.name(parts[n]), arena.text(parts[n]));
      } else {
        break;
      }
    }
    hits_.clear();
    engine_.scan_parsed(json.parsed_bytes, json.base64 ? "base64" : "", strings_, members_, &hits_);
    for (auto& h : hits_) out_->hits.push_back({std::move(h), seq_, path});
    return n;
  }

  void scan_string(std::string_view s, const std::string& path, std::string_view chain = "") {
    hits_.clear();
    engine_.scan(s, chain, &hits_);
    for (auto& h : hits_) out_->hits.push_back({std::move(h), seq_, path});
  }

  // A credential header is a finding even when no rule knows its value.
  void scan_header(uint64_t index, std::string_view name, std::string_view value) {
    const std::string path = "body.headers[" + std::to_string(index) + "]";
    hits_.clear();
    engine_.scan(value, "", &hits_);
    std::string_view secret = header_secret(value);
    if (sensitive_header(name) && hits_.empty() && value.find("[REDACTED:") == std::string_view::npos &&
        secret.size() >= 8) {
      hits_.push_back({credential_header_rule(name), std::string(secret), "", Severity::high,
                       "a credential header value the recorder did not redact"});
    }
    for (auto& hit : hits_) out_->hits.push_back({std::move(hit), seq_, path});
  }

  bool prefilter_;
  RecordParser parser_;
  SecretEngine engine_;
  TextArena own_;  // the texts of a line this scanner parsed itself
  std::vector<Unplaced> unplaced_;
  std::vector<SecretHit> hits_;
  std::vector<std::string_view> strings_;  // of a parsed body
  std::vector<std::pair<std::string_view, std::string_view>> members_;
  ScanOutput* out_ = nullptr;
  uint64_t seq_ = 0;
};

class TextLineScanner final : public LineScanner {
 public:
  using LineScanner::scan;
  TextLineScanner(bool prefilter, const Limits& limits, ScanCache* cache) : prefilter_(prefilter), engine_(limits) {
    engine_.use_cache(cache);
  }

  void scan(std::string_view line, uint64_t seq, const LineTexts*, ScanOutput* out) override {
    if (line.find("[REDACTED:") != std::string_view::npos) collect_markers(line, &out->markers);
    if (prefilter_ && !Prefilter::instance().may_hold_secret(line)) return;
    hits_.clear();
    engine_.scan(line, "", &hits_);
    if (hits_.empty()) return;
    const std::string where = "line " + std::to_string(seq + 1);
    for (auto& h : hits_) out->hits.push_back({std::move(h), seq, where});
  }

 private:
  bool prefilter_;
  SecretEngine engine_;
  std::vector<SecretHit> hits_;
};

}  // namespace

std::unique_ptr<LineScanner> make_text_line_scanner(bool prefilter, const Limits& limits, ScanCache* cache) {
  return std::make_unique<TextLineScanner>(prefilter, limits, cache);
}

std::unique_ptr<LineScanner> make_record_line_scanner(bool prefilter, const Limits& limits, ScanCache* cache) {
  return std::make_unique<RecordLineScanner>(prefilter, limits, cache);
}

TraceSecretScan::TraceSecretScan(unsigned threads, bool keep_text, const Limits& limits)
    : collector_(keep_text),
      max_depth_(limits.max_depth),
      pool_(threads, [this, limits] { return make_record_line_scanner(true, limits, &cache_); }, [this](ScanOutput& out) { collect(out); }) {}

void TraceSecretScan::collect(ScanOutput& out) {
  for (const auto& m : out.markers) {
    if (markers_.size() < 1000) markers_.insert(m);
  }
  for (const auto& h : out.hits) collector_.add(h.hit, h.seq, h.location);
  for (uint64_t seq : out.provider_key_lines) provider_key_lines_.add(seq);
  for (uint64_t seq : out.digest_mismatches) digest_mismatches_.add(seq);
}

void TraceSecretScan::finish(Context& ctx) {
  pool_.finish();
  absl::flat_hash_set<std::string> known = markers_;
  for (const auto& r : ctx.policy().redactor_rules) known.insert(r);
  collector_.emit(ctx, known);
  if (!provider_key_lines_.empty()) {
    ctx.emit(finding("GC05", Severity::warning, provider_key_lines_.seqs,
                     std::to_string(provider_key_lines_.count) + " harness log line(s) show a model provider's API "
                     "key (see GC02/GC03): a tool of the run could have called the model with it, outside the proxy."),
             "provider-key-in-log");
  }
}

}  // namespace goalcup::cheat
