#include "cheatcheck/secrets/engine.h"

#include <algorithm>
#include <cctype>

#include "cheatcheck/secrets/decoders.h"
#include "cheatcheck/secrets/matcher.h"
#include "cheatcheck/secrets/rules.h"
#include "cheatcheck/secrets/scan_cache.h"
#include "core/sse.h"

namespace goalcup::cheat {
namespace {

constexpr int kMaxDepth = 6;
constexpr uint64_t kBudgetFactor = 8;  // derived bytes per input byte, at most
constexpr size_t kFreeAbove = 1 << 20;  // a decoded text this long frees what it came from

std::string extend(const std::string& chain, std::string_view step) {
  return chain.empty() ? std::string(step) : chain + ">" + std::string(step);
}

bool generic(uint32_t rule) { return secret_rules()[rule].id == "generic-secret"; }

size_t steps(const std::string& chain) { return chain.empty() ? 0 : 1 + std::count(chain.begin(), chain.end(), '>'); }

// Calls f(key, value) for every member of every object whose value is a string.
template <typename F>
void for_each_member(simdjson::dom::element e, F&& f) {
  simdjson::dom::object o;
  simdjson::dom::array a;
  if (!e.get(o)) {
    for (auto field : o) {
      std::string_view s;
      if (!field.value.get(s)) f(field.key, s);
      else for_each_member(field.value, f);
    }
  } else if (!e.get(a)) {
    for (auto v : a) for_each_member(v, f);
  }
}

// A value that is base64 of text holding a redaction marker: the copy of a
// credential-carrying value (a Basic header, a Docker auth) whose credential
// was redacted inside it. The marker is no credential, nor is what holds it.
bool encodes_a_marker(std::string_view secret) {
  std::string decoded;
  return secret.size() >= 16 && decode_base64_text(secret, &decoded) && decoded.find("[REDACTED:") != std::string::npos;
}

bool assignment(const Candidate& c) {
  const Rule& rule = secret_rules()[c.rule];
  return rule.extract == Extract::value && rule.id == "generic-secret";
}

// Where each generic assignment's name begins, sorted.
std::vector<size_t> assignment_starts(std::string_view text, const std::vector<Candidate>& cands) {
  std::vector<size_t> starts;
  for (const Candidate& c : cands) {
    if (assignment(c)) starts.push_back(assignment_start(text, c.end));
  }
  std::sort(starts.begin(), starts.end());
  return starts;
}

}  // namespace

namespace {

// `hit` in place of `h`, the same secret: a more specific rule, or the same kind by a shorter chain.
void keep_better(SecretHit& h, SecretHit&& hit) {
  const bool better_rule = generic(h.rule) && !generic(hit.rule);
  const bool shorter = !generic(hit.rule) == !generic(h.rule) && steps(hit.chain) < steps(h.chain);
  if (better_rule || shorter) h = std::move(hit);
}

constexpr size_t kIndexFrom = 32;  // hits in an out before keep_hit indexes it

}  // namespace

void add_hit(SecretHit hit, std::vector<SecretHit>* out) {
  for (auto& h : *out) {
    if (h.secret == hit.secret) return keep_better(h, std::move(hit));
  }
  out->push_back(std::move(hit));
}

void SecretEngine::keep_hit(SecretHit hit, std::vector<SecretHit>* out) {
  if (out->size() < kIndexFrom) return add_hit(std::move(hit), out);
  HitIndex& index = hit_index_[out];
  const std::hash<std::string> hash;
  for (; index.indexed < out->size(); ++index.indexed) index.at.emplace(hash((*out)[index.indexed].secret), index.indexed);
  const size_t key = hash(hit.secret);
  for (auto [it, last] = index.at.equal_range(key); it != last; ++it) {
    SecretHit& h = (*out)[it->second];
    if (h.secret == hit.secret) return keep_better(h, std::move(hit));
  }
  index.at.emplace(key, out->size());
  ++index.indexed;
  out->push_back(std::move(hit));
}

SecretEngine::SecretEngine(const Limits& limits) : limits_(limits) {
  parsers_.reserve(kMaxDepth + 1);
  for (int i = 0; i <= kMaxDepth; ++i) parsers_.emplace_back(limits);
}

void SecretEngine::scan(std::string_view text, std::string_view chain, std::vector<SecretHit>* out) {
  budget_ = kBudgetFactor * text.size() + (1 << 20);
  hit_index_.clear();
  scan_at(text, std::string(chain), 0, out);
}

void SecretEngine::scan_parsed(size_t text_bytes, std::string_view chain, std::span<const std::string_view> strings,
                               std::span<const std::pair<std::string_view, std::string_view>> members,
                               std::vector<SecretHit>* out) {
  // scan() then scan_at() at depth 0, down to scan_json()'s walk.
  budget_ = kBudgetFactor * text_bytes + (1 << 20);
  hit_index_.clear();
  if (text_bytes < kMinText) return;
  scanned_ += text_bytes;
  const std::string next = extend(std::string(chain), "json");
  for (std::string_view s : strings) scan_at(s, next, 1, out);
  for (const auto& [key, value] : members) judge_member(key, value, next, out);
}

void SecretEngine::scan_at(std::string_view text, const std::string& chain, int depth, std::vector<SecretHit>* out,
                           std::string* owner) {
  if (text.size() < kMinText) return;
  scanned_ += text.size();
  // JSON text: its strings are what it says; scanning them decoded finds
  // both plain and escaped secrets.
  if (depth < kMaxDepth && (text.front() == '{' || text.front() == '[') && scan_json(text, chain, depth, out)) return;
  // A text under kFreeAbove cannot free its owner (nothing decoded from it
  // is longer), so it is whole after its scan and may be kept.
  if (cache_ && text.size() >= ScanCache::kMinBytes && text.size() < kFreeAbove) {
    return scan_text_cached(text, chain, depth, out);
  }
  scan_text(text, chain, depth, out, owner);
}

void SecretEngine::scan_text(std::string_view text, const std::string& chain, int depth, std::vector<SecretHit>* out,
                             std::string* owner) {
  match(text, chain, out);
  if (depth >= kMaxDepth) return;
  if (looks_like_sse(text)) scan_sse(text, chain, depth, out);
  decode_more(text, chain, depth, out, owner);  // last: it may free `text`
}

// The hits a scan of the same text added, added again in the same order:
// add_hit keeps, per secret, the first of the best, so the result is the
// same as scanning it again.
void SecretEngine::scan_text_cached(std::string_view text, const std::string& chain, int depth,
                                    std::vector<SecretHit>* out) {
  const uint64_t key = ScanCache::key(text, chain, depth);  // hashed once, outside the lock the workers share
  if (auto seen = cache_->find(key, text, chain, depth); seen && seen->budget_used <= budget_) {
    budget_ -= seen->budget_used;
    scanned_ += seen->scanned;
    for (const SecretHit& h : seen->hits) keep_hit(h, out);
    return;
  }
  auto entry = std::make_shared<ScanCache::Entry>();
  const uint64_t budget_before = budget_, scanned_before = scanned_, refused_before = refused_;
  scan_text(text, chain, depth, &entry->hits, nullptr);
  hit_index_.erase(&entry->hits);  // its address may hold another entry's hits next
  for (const SecretHit& h : entry->hits) keep_hit(h, out);
  if (refused_ != refused_before) return;  // cut short by the budget: not what a fuller budget finds
  entry->text = text;
  entry->chain = chain;
  entry->depth = depth;
  entry->budget_used = budget_before - budget_;
  entry->scanned = scanned_ - scanned_before;
  cache_->store(key, std::move(entry));
}

bool SecretEngine::within_budget(size_t bytes) {
  if (bytes <= budget_) return true;
  ++refused_;
  return false;
}

void SecretEngine::match(std::string_view text, const std::string& chain, std::vector<SecretHit>* out) {
  thread_local std::vector<Candidate> cands, after;
  const Matcher& matcher = Matcher::instance();
  if (matcher.scan(text, &cands)) return match_candidates(text, cands, SIZE_MAX, chain, out);
  // More candidates than the matcher keeps (a line of a million decoys
  // before a key): the text is read again in windows too short to fill the
  // list, each judged with the next one read, so that no number of decoys
  // hides what comes after them. Two windows' candidates are held at a time.
  const size_t w = Matcher::window_bytes();
  matcher.scan_range(text, 0, w, &cands);
  for (size_t from = 0; from < text.size(); from += w) {
    matcher.scan_range(text, from + w, from + 2 * w, &after);
    // A bare value ends where the next assignment begins, and here at the
    // end of the next window at the latest (or one value could be read to
    // the end of the text from every window).
    const std::vector<size_t> next = assignment_starts(text, after);
    match_candidates(text, cands, next.empty() ? std::min(text.size(), from + 2 * w) : next.front(), chain, out);
    cands.swap(after);
  }
  if (cands.capacity() > Matcher::kMaxCandidates / 4) std::vector<Candidate>().swap(cands);
  if (after.capacity() > Matcher::kMaxCandidates / 4) std::vector<Candidate>().swap(after);
}

void SecretEngine::match_candidates(std::string_view text, const std::vector<Candidate>& cands, size_t limit,
                                    const std::string& chain, std::vector<SecretHit>* out) {
  auto rules = secret_rules();
  std::vector<std::pair<size_t, size_t>> specific;  // spans of specific rules, to drop generic overlaps
  std::vector<std::pair<SecretHit, std::pair<size_t, size_t>>> found;  // generic hits and their spans
  const std::vector<size_t> assignments = assignment_starts(text, cands);
  for (const Candidate& c : cands) {
    // A bare value ends where the next assignment begins (or at `limit`).
    const auto next = std::upper_bound(assignments.begin(), assignments.end(), c.end - 1);
    auto e = extract_secret(rules[c.rule], text, c.start, c.end, next == assignments.end() ? limit : *next);
    if (!e || encodes_a_marker(text.substr(e->start, e->end - e->start))) continue;
    SecretHit hit{c.rule, std::string(text.substr(e->start, e->end - e->start)), chain, e->severity, e->note};
    if (generic(c.rule)) {
      found.emplace_back(std::move(hit), std::pair{e->start, e->end});  // judged once every specific span is known
    } else {
      specific.emplace_back(e->start, e->end);
      keep_hit(std::move(hit), out);
    }
  }
  std::sort(specific.begin(), specific.end());
  for (auto& [h, span] : found) {
    // A generic assignment whose value holds a known format, plainly or as
    // base64 text, is reported as that format instead.
    if (holds_known_format(h.secret, span, specific)) continue;
    keep_hit(std::move(h), out);
  }
}

bool SecretEngine::holds_known_format(const std::string& value, std::pair<size_t, size_t> span,
                                      const std::vector<std::pair<size_t, size_t>>& specific) {
  // The specific spans that start inside the value (sorted): only those can
  // lie in it, so that many values and spans on a line cost their number.
  for (auto it = std::lower_bound(specific.begin(), specific.end(), std::pair{span.first, size_t{0}});
       it != specific.end() && it->first < span.second; ++it) {
    if (it->second <= span.second) return true;
  }
  // The value decoded the ways decode_more would decode it.
  std::string decoded;
  const bool any = decode_base64_text(value, &decoded) || decode_percent(value, &decoded) ||
                   (has_escapes(value) && decode_escapes(value, &decoded));
  if (!any) return false;
  if (decoded.find("[REDACTED:") != std::string::npos) return true;  // a redaction marker, encoded: not a secret
  std::vector<Candidate> cands;
  Matcher::instance().scan(decoded, &cands);
  auto rules = secret_rules();
  for (const Candidate& c : cands) {
    if (!generic(c.rule) && extract_secret(rules[c.rule], decoded, c.start, c.end)) return true;
  }
  return false;
}

void SecretEngine::decode_more(std::string_view text, const std::string& chain, int depth, std::vector<SecretHit>* out,
                               std::string* owner) {
  std::string decoded;
  if (has_escapes(text) && decode_escapes(text, &decoded) && within_budget(decoded.size())) {
    budget_ -= decoded.size();
    scan_at(decoded, extend(chain, "unicode-escape"), depth + 1, out, &decoded);
  }
  if (text.find('%') != std::string_view::npos && decode_percent(text, &decoded) && within_budget(decoded.size())) {
    budget_ -= decoded.size();
    scan_at(decoded, extend(chain, "url"), depth + 1, out, &decoded);
  }
  std::vector<Run> runs;
  find_base64_runs(text, &runs);
  add_wrapped_base64_runs(text, &runs);
  std::string later;  // the runs still to decode, once `text` is freed
  std::string joined;  // a wrapped run's lines, joined
  for (size_t i = 0; i < runs.size(); ++i) {
    // A wrapped run is decoded whole, and its lines alone after it: lines of
    // one width may also be separate values (a list of base64 tokens), whose
    // texts joined would glue each to the one before.
    if (!decode_base64_text(base64_chars(text, runs[i], &joined), &decoded)) continue;
    if (!within_budget(decoded.size())) continue;
    budget_ -= decoded.size();
    // A long run decoded, `text` is needed only for the runs after it: those
    // are kept and `text` freed, so that base64 inside base64 holds two
    // layers at a time instead of every layer down the chain.
    if (owner && decoded.size() >= kFreeAbove) {
      std::vector<Run> rest;
      for (size_t j = i + 1; j < runs.size(); ++j) {
        rest.push_back({later.size(), runs[j].length, runs[j].width, runs[j].pieces});
        later += text.substr(runs[j].start, runs[j].length);
      }
      std::string().swap(*owner);
      owner = nullptr;
      text = later;
      runs = std::move(rest);
      i = SIZE_MAX;  // the loop goes on with rest[0]
    }
    scan_at(decoded, extend(chain, "base64"), depth + 1, out, &decoded);
  }
}

bool SecretEngine::scan_json(std::string_view text, const std::string& chain, int depth, std::vector<SecretHit>* out) {
  auto root = parsers_[static_cast<size_t>(depth)].parse_copy(text, -1);
  if (!root) return false;
  const std::string next = extend(chain, "json");
  any_json_string(*root, JsonNames::visit, [&](std::string_view s) {
    scan_at(s, next, depth + 1, out);
    return false;
  });
  for_each_member(*root, [&](std::string_view key, std::string_view value) { judge_member(key, value, next, out); });
  if (text.find("\"kty\"") != std::string_view::npos) match_json_web_keys(text, next, out);
  parsers_[static_cast<size_t>(depth)].release_if_large(text.size());
  return true;
}

// A JSON Web Key's private member is known by the object it is in ("kty",
// the public part), which the scan of its strings alone cannot see: the
// JSON text itself is read for them.
void SecretEngine::match_json_web_keys(std::string_view text, const std::string& chain, std::vector<SecretHit>* out) {
  thread_local std::vector<Candidate> cands;
  if (!Matcher::instance().scan(text, &cands)) return;
  auto rules = secret_rules();
  for (const Candidate& c : cands) {
    if (rules[c.rule].extract != Extract::jwk_member) continue;
    auto e = extract_secret(rules[c.rule], text, c.start, c.end);
    if (!e) continue;
    keep_hit({c.rule, std::string(text.substr(e->start, e->end - e->start)), chain, e->severity, e->note}, out);
  }
}

// {"api_token": "v"}: the key names the value, which its own scan cannot see.
void SecretEngine::judge_member(std::string_view key, std::string_view value, const std::string& chain,
                                std::vector<SecretHit>* out) {
  if (judge_aws_member(key, value, chain, out)) return;
  if (!generic_assignment(key, value) || encodes_a_marker(value)) return;
  thread_local std::vector<Candidate> cands;
  Matcher::instance().scan(value, &cands);
  auto rules = secret_rules();
  for (const Candidate& c : cands) {
    if (!generic(c.rule) && extract_secret(rules[c.rule], value, c.start, c.end)) return;  // reported as that format
  }
  static const uint32_t kGeneric = static_cast<uint32_t>(*rule_index("generic-secret"));
  keep_hit({kGeneric, std::string(value), chain, rules[kGeneric].severity, ""}, out);
}

// {"SecretAccessKey": "v"}, {"SessionToken": "v"} (the AWS CLI's JSON
// output): the AWS rules that read a name and its value, which the scan of
// a JSON text's strings shows apart, read the member written as one.
bool SecretEngine::judge_aws_member(std::string_view key, std::string_view value, const std::string& chain,
                                    std::vector<SecretHit>* out) {
  if (value.size() < 40 || key.size() > 64) return false;
  std::string folded;
  for (char c : key) {
    if (c != '_' && c != '-') folded += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  if (!folded.ends_with("secretaccesskey") && !folded.ends_with("sessiontoken")) return false;
  const std::string text = "\"" + std::string(key) + "\": \"" + std::string(value) + "\"";
  thread_local std::vector<Candidate> cands;
  if (!Matcher::instance().scan(text, &cands)) return false;
  auto rules = secret_rules();
  for (const Candidate& c : cands) {
    const Rule& rule = rules[c.rule];
    if (rule.extract != Extract::value || !rule.id.starts_with("aws-")) continue;
    if (auto e = extract_secret(rule, text, c.start, c.end)) {
      keep_hit({c.rule, text.substr(e->start, e->end - e->start), chain, e->severity, e->note}, out);
      return true;
    }
  }
  return false;
}

void SecretEngine::scan_sse(std::string_view text, const std::string& chain, int depth, std::vector<SecretHit>* out) {
  const bool lent = lent_answer_ && text.data() == lent_text_.data() && text.size() == lent_text_.size();
  std::optional<RebuiltAnswer> own;
  if (!lent) own = rebuild_answer(text, limits_);
  const RebuiltAnswer& a = lent ? *lent_answer_ : *own;
  const std::string next = extend(chain, "sse-join");
  for (std::string_view block : a.text_blocks()) scan_at(block, next, depth + 1, out);
  for (const auto& call : a.tool_calls) scan_at(call.input, next, depth + 1, out);
  // Thinking, reasoning summaries and compaction summaries stream as deltas too.
  for (const auto& block : a.blocks) {
    if (block.kind == RebuiltBlock::Kind::thinking || block.kind == RebuiltBlock::Kind::reasoning ||
        block.kind == RebuiltBlock::Kind::other) {
      scan_at(block.text, next, depth + 1, out);
    }
  }
}

}  // namespace goalcup::cheat
