#include "core/json_digest.h"

#include <xxhash.h>

#include <algorithm>
#include <charconv>
#include <deque>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace goalcup::json {
namespace {

// Long strings recently digested, so that a text met again is not hashed
// again: a harness logs a tool's output and then sends it in every later
// request, each digested. Found by XXH3, then compared byte for byte, so a
// crafted XXH3 twin is only a miss; at most kBucket strings share an XXH3
// and kCacheBytes are kept (oldest out first), so no input makes a lookup
// or the cache grow without bound. 2 MiB holds more text than a model's
// context window: what a request re-sends was digested one request before.
class LongStrings {
 public:
  static constexpr size_t kLongBytes = 4096;
  static constexpr size_t kCacheBytes = 2 << 20, kBucket = 4;

  Digest digest(std::string_view s) {
    const uint64_t key = XXH3_64bits(s.data(), s.size());
    auto [first, last] = index_.equal_range(key);
    size_t shared = 0;
    for (auto it = first; it != last; ++it, ++shared) {
      if (it->second->text == s) return it->second->digest;
    }
    const Digest d = sha256(s);
    if (shared < kBucket && s.size() <= kCacheBytes / 4) keep(key, s, d);
    return d;
  }

 private:
  struct Entry {
    uint64_t key;
    std::string text;
    Digest digest;
  };

  void keep(uint64_t key, std::string_view s, const Digest& d) {
    while (bytes_ + s.size() > kCacheBytes) drop_oldest();
    entries_.push_back(std::make_unique<Entry>(Entry{key, std::string(s), d}));
    index_.emplace(key, entries_.back().get());
    bytes_ += s.size();
  }
  void drop_oldest() {
    const Entry* e = entries_.front().get();
    auto [first, last] = index_.equal_range(e->key);
    for (auto it = first; it != last; ++it) {
      if (it->second == e) {
        index_.erase(it);
        break;
      }
    }
    bytes_ -= e->text.size();
    entries_.pop_front();
  }

  std::deque<std::unique_ptr<Entry>> entries_;  // oldest first
  std::unordered_multimap<uint64_t, const Entry*> index_;
  size_t bytes_ = 0;
};

// A string as its length and bytes; a long one as its length and its
// SHA-256 (after '#', never ':', so the two forms cannot be confused).
void put_string(Sha256& h, std::string_view s) {
  h.update(std::to_string(s.size()));
  if (s.size() < LongStrings::kLongBytes) {
    h.update(":");
    h.update(s);
    return;
  }
  thread_local LongStrings cache;
  const Digest d = cache.digest(s);
  h.update("#");
  h.update(std::string_view(reinterpret_cast<const char*>(d.data()), d.size()));
}

// Numbers by value: integers (and doubles that hold one exactly) as
// integers, other doubles in their shortest round-trip form.
void put_number(Sha256& h, simdjson::dom::element e) {
  int64_t i = 0;
  uint64_t u = 0;
  double d = 0;
  if (!e.get(i)) return h.update("i" + std::to_string(i) + ";");
  if (!e.get(u)) return h.update("i" + std::to_string(u) + ";");
  if (e.get(d)) return;
  if (d >= -9.2e18 && d <= 9.2e18 && d == static_cast<double>(static_cast<int64_t>(d))) {
    return h.update("i" + std::to_string(static_cast<int64_t>(d)) + ";");
  }
  char buf[40];
  const auto res = std::to_chars(buf, buf + sizeof buf, d);
  h.update("d");
  h.update(std::string_view(buf, static_cast<size_t>(res.ptr - buf)));
  h.update(";");
}

// `skipped`: a member name left out of every object (none when empty).
void put_value(Sha256& h, simdjson::dom::element e, std::string_view skipped = {}) {
  using T = simdjson::dom::element_type;
  switch (e.type()) {
    case T::OBJECT: {
      simdjson::dom::object o;
      if (e.get(o)) return;
      std::vector<std::pair<std::string_view, simdjson::dom::element>> members;
      for (auto [k, v] : o) {
        if (skipped.empty() || k != skipped) members.emplace_back(k, v);
      }
      std::sort(members.begin(), members.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
      h.update("{");
      for (const auto& [k, v] : members) {
        put_string(h, k);
        put_value(h, v, skipped);
      }
      h.update("}");
      break;
    }
    case T::ARRAY: {
      simdjson::dom::array a;
      if (e.get(a)) return;
      h.update("[");
      for (auto v : a) put_value(h, v, skipped);
      h.update("]");
      break;
    }
    case T::STRING: {
      std::string_view s;
      if (e.get(s)) return;
      h.update("s");
      put_string(h, s);
      break;
    }
    case T::INT64:
    case T::UINT64:
    case T::DOUBLE: put_number(h, e); break;
    case T::BOOL: {
      bool b = false;
      if (e.get(b)) return;
      h.update(b ? "t" : "f");
      break;
    }
    case T::NULL_VALUE: h.update("n"); break;
  }
}

}  // namespace

Digest value_digest(simdjson::dom::element e) {
  // One context per thread, reused (finish() starts it afresh): a new one
  // per value cost an allocation and an initialization, and the checks
  // digest every member of every Claude Code line. put_value() never comes
  // back here, so no digest is under way when one starts.
  thread_local Sha256 h;
  put_value(h, e);
  return h.finish();
}

Digest empty_object_digest() {
  Sha256 h;
  h.update("{}");  // what put_value writes for an object with no members
  return h.finish();
}

Digest text_value_digest(std::string_view text, StrictJsonParser& parser) {
  if (text.find_first_not_of(" \t\r\n") == std::string_view::npos) return empty_object_digest();
  auto root = parser.parse_copy(text, -1);
  if (root) return value_digest(*root);
  Sha256 h;
  h.update("s");
  put_string(h, text);
  return h.finish();
}

Digest value_digest_without(simdjson::dom::element e, std::string_view skipped) {
  Sha256 h;
  put_value(h, e, skipped);
  return h.finish();
}

Digest text_block_message_digest(simdjson::dom::object message, std::string_view text) {
  constexpr std::string_view kSkipped = "cache_control";
  std::vector<std::pair<std::string_view, simdjson::dom::element>> members;
  for (auto [k, v] : message) {
    if (k != kSkipped) members.emplace_back(k, v);
  }
  std::sort(members.begin(), members.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  // As put_value writes the object, with content as [{"text":...,"type":"text"}].
  Sha256 h;
  h.update("{");
  for (const auto& [k, v] : members) {
    put_string(h, k);
    if (k != "content") {
      put_value(h, v, kSkipped);
      continue;
    }
    h.update("[{");
    put_string(h, "text");
    h.update("s");
    put_string(h, text);
    put_string(h, "type");
    h.update("s");
    put_string(h, "text");
    h.update("}]");
  }
  h.update("}");
  return h.finish();
}

Digest value_digest_without_false_members(simdjson::dom::element e) {
  simdjson::dom::object o;
  if (e.get(o)) return value_digest(e);
  std::vector<std::pair<std::string_view, simdjson::dom::element>> members;
  for (auto [k, v] : o) {
    bool flag = true;
    if (v.is_bool() && !v.get(flag) && !flag) continue;
    members.emplace_back(k, v);
  }
  std::sort(members.begin(), members.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  // As put_value writes an object, so that an input without false members
  // digests as value_digest does.
  Sha256 h;
  h.update("{");
  for (const auto& [k, v] : members) {
    put_string(h, k);
    put_value(h, v);
  }
  h.update("}");
  return h.finish();
}

Digest text_value_digest_without_false_members(std::string_view text, StrictJsonParser& parser) {
  if (text.find_first_not_of(" \t\r\n") == std::string_view::npos) return empty_object_digest();
  auto root = parser.parse_copy(text, -1);
  if (root) return value_digest_without_false_members(*root);
  return text_value_digest(text, parser);
}

}  // namespace goalcup::json
