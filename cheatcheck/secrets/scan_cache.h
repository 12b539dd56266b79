// What the secret engine found in a long text it has already scanned. A
// trace repeats the same text many times: a tool output is in the harness's
// log line, then in every later request that re-sends the conversation. A
// text seen before is not scanned again: its hits are replayed.
//
// Exact, not approximate: an entry is found by a fast hash and then compared
// byte for byte (an author of the trace cannot make two texts share an entry
// by colliding the hash), is keyed by the decoding chain and depth too, and
// is used only when the derived-bytes budget left covers what its scan used
// (a scan the budget cut short is never stored). Bounded: oldest entries
// go first past kMaxBytes, so memory does not follow the trace. Shared by
// the workers of one trace (a mutex; entries are immutable once stored).
#pragma once

#include <absl/container/flat_hash_map.h>

#include <atomic>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "cheatcheck/secrets/engine.h"

namespace goalcup::cheat {

class ScanCache {
 public:
  static constexpr size_t kMinBytes = 1024;        // shorter texts are scanned again
  static constexpr size_t kMaxBytes = 4u << 20;    // texts and hits held at most

  struct Entry {
    std::string text;
    std::string chain;
    int depth = 0;
    std::vector<SecretHit> hits;  // in the order the scan added them
    uint64_t budget_used = 0;     // derived bytes the scan decoded
    uint64_t scanned = 0;         // bytes the scan read, derived ones included
  };

  // Where (text, chain, depth) would be kept: computed once per text by
  // the caller, for find() and then store() on a miss.
  static uint64_t key(std::string_view text, std::string_view chain, int depth);
  // The entry for (text, chain, depth) at `key`, or nullptr.
  std::shared_ptr<const Entry> find(uint64_t key, std::string_view text, std::string_view chain, int depth) const;
  void store(uint64_t key, std::shared_ptr<const Entry> entry);
  // Texts found so far (for tests).
  uint64_t found() const { return found_.load(); }

 private:
  mutable std::mutex mu_;
  absl::flat_hash_map<uint64_t, std::shared_ptr<const Entry>> by_key_;
  std::deque<uint64_t> order_;  // keys, oldest first
  size_t bytes_ = 0;
  mutable std::atomic<uint64_t> found_{0};
};

}  // namespace goalcup::cheat
