// The secret engine: scans a text and everything decodable inside it (JSON
// strings at every level, SSE deltas joined, \u escapes, percent-encoding,
// base64 runs), and reports each secret with the chain of decodings that
// revealed it ("json>json>base64", "sse-join"). Used for traces and for plain
// files alike.
#pragma once

#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "cheatcheck/finding.h"
#include "cheatcheck/secrets/matcher.h"
#include "core/json_strict.h"
#include "core/sse.h"

namespace goalcup::cheat {

class ScanCache;

struct SecretHit {
  uint32_t rule = 0;    // index into secret_rules()
  std::string secret;   // the exact text (never printed)
  std::string chain;    // decodings, "" for plain text
  Severity severity = Severity::high;
  std::string note;
};

class SecretEngine {
 public:
  // A text shorter than this holds no secret any rule finds; it is not scanned.
  static constexpr size_t kMinText = 12;

  // JSON found in a string is parsed under `limits` (the run's, so that
  // --max-depth reaches it; a text past them is scanned as plain text).
  explicit SecretEngine(const Limits& limits);
  // Scans `text`; hits go to `out` (deduplicated by secret, most specific
  // rule and shortest chain kept).
  void scan(std::string_view text, std::string_view chain, std::vector<SecretHit>* out);
  // What scan(text, chain, out) does when `text` (of `text_bytes`, opening
  // with '{' or '[') parses as JSON, from what was read out of its parse
  // elsewhere: its keys and string values of kMinText bytes or more, in
  // document order, then its string members that may be generic
  // assignments (TextArena::add_parsed).
  void scan_parsed(size_t text_bytes, std::string_view chain, std::span<const std::string_view> strings,
                   std::span<const std::pair<std::string_view, std::string_view>> members,
                   std::vector<SecretHit>* out);
  // Bytes scanned so far, derived texts included (for tests and budgets).
  uint64_t scanned_bytes() const { return scanned_; }
  // Texts scanned before (by any engine sharing `cache`) are not scanned
  // again; `cache` must outlive the engine.
  void use_cache(ScanCache* cache) { cache_ = cache; }
  // Until lent again, the SSE of exactly `text` (these bytes, in place) is
  // read from `answer`, rebuild_answer() of it under the same limits made
  // by the checks, instead of rebuilding it; null lends nothing.
  void lend_answer(std::string_view text, const RebuiltAnswer* answer) {
    lent_text_ = text;
    lent_answer_ = answer;
  }

 private:
  // `owner`, when given, holds `text` and may be freed once `text` is no
  // longer needed: nested decodings then hold two layers, not all of them.
  void scan_at(std::string_view text, const std::string& chain, int depth, std::vector<SecretHit>* out,
               std::string* owner = nullptr);
  // A text that is not JSON: the rules, SSE joins and decodings.
  void scan_text(std::string_view text, const std::string& chain, int depth, std::vector<SecretHit>* out,
                 std::string* owner);
  void scan_text_cached(std::string_view text, const std::string& chain, int depth, std::vector<SecretHit>* out);
  // False (and counted) when decoding `bytes` more would pass the budget.
  bool within_budget(size_t bytes);
  void match(std::string_view text, const std::string& chain, std::vector<SecretHit>* out);
  // The hits of `cands` (the matcher's, of `text` or of a window of it); a
  // bare value with no assignment after it among them ends at `limit`.
  void match_candidates(std::string_view text, const std::vector<Candidate>& cands, size_t limit,
                        const std::string& chain, std::vector<SecretHit>* out);
  // add_hit through an index of `out` by secret once it is long, so that a
  // text holding many distinct secrets costs their number, not its square.
  void keep_hit(SecretHit hit, std::vector<SecretHit>* out);
  void decode_more(std::string_view text, const std::string& chain, int depth, std::vector<SecretHit>* out,
                   std::string* owner);
  bool scan_json(std::string_view text, const std::string& chain, int depth, std::vector<SecretHit>* out);
  void match_json_web_keys(std::string_view text, const std::string& chain, std::vector<SecretHit>* out);
  bool judge_aws_member(std::string_view key, std::string_view value, const std::string& chain,
                        std::vector<SecretHit>* out);
  void judge_member(std::string_view key, std::string_view value, const std::string& chain,
                    std::vector<SecretHit>* out);
  void scan_sse(std::string_view text, const std::string& chain, int depth, std::vector<SecretHit>* out);
  // `specific`: the spans of specific rules' secrets in the text, sorted.
  static bool holds_known_format(const std::string& value, std::pair<size_t, size_t> span,
                                 const std::vector<std::pair<size_t, size_t>>& specific);

  Limits limits_;                          // the run's, for SSE events too
  std::vector<StrictJsonParser> parsers_;  // one per nesting depth
  uint64_t scanned_ = 0;
  struct HitIndex {
    size_t indexed = 0;  // out's first hits, in the index
    std::unordered_multimap<size_t, size_t> at;  // hash of a secret -> its place in out
  };
  std::unordered_map<const std::vector<SecretHit>*, HitIndex> hit_index_;  // for the current top-level scan
  uint64_t budget_ = 0;  // derived bytes left for the current top-level scan
  uint64_t refused_ = 0;  // decodings the budget refused
  ScanCache* cache_ = nullptr;
  std::string_view lent_text_;
  const RebuiltAnswer* lent_answer_ = nullptr;
};

// Calls f(text, path) for every string value under `e`, with its place
// appended to `path` ("body.headers[2]", ".key"); `path` is restored after.
// Recursion is bounded by the parser's depth limit.
template <typename F>
void for_each_string_at(simdjson::dom::element e, std::string& path, F&& f) {
  simdjson::dom::object o;
  simdjson::dom::array a;
  std::string_view s;
  if (!e.get(s)) {
    f(s, path);
  } else if (!e.get(o)) {
    for (auto field : o) {
      const size_t len = path.size();
      path += ".";
      path += field.key;
      for_each_string_at(field.value, path, f);
      path.resize(len);
    }
  } else if (!e.get(a)) {
    size_t i = 0;
    for (auto v : a) {
      const size_t len = path.size();
      path += "[" + std::to_string(i++) + "]";
      for_each_string_at(v, path, f);
      path.resize(len);
    }
  }
}

// Adds `hit` to `out` unless the same secret is there already (keeping the
// more specific rule and the shorter chain).
void add_hit(SecretHit hit, std::vector<SecretHit>* out);

}  // namespace goalcup::cheat
