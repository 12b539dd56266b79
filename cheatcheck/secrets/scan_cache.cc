#include "cheatcheck/secrets/scan_cache.h"

#include <xxhash.h>

namespace goalcup::cheat {
namespace {

size_t entry_bytes(const ScanCache::Entry& e) {
  size_t n = e.text.size() + e.chain.size() + sizeof e;
  for (const auto& h : e.hits) n += sizeof h + h.secret.size() + h.chain.size() + h.note.size();
  return n;
}

}  // namespace

uint64_t ScanCache::key(std::string_view text, std::string_view chain, int depth) {
  XXH64_hash_t h = XXH3_64bits_withSeed(text.data(), text.size(), static_cast<XXH64_hash_t>(depth));
  return XXH3_64bits_withSeed(chain.data(), chain.size(), h);
}

std::shared_ptr<const ScanCache::Entry> ScanCache::find(uint64_t key, std::string_view text, std::string_view chain,
                                                        int depth) const {
  std::shared_ptr<const Entry> e;
  {
    std::lock_guard lock(mu_);
    auto it = by_key_.find(key);
    if (it == by_key_.end()) return nullptr;
    e = it->second;
  }
  // The hash only finds the entry; the bytes decide.
  if (e->depth != depth || e->chain != chain || e->text != text) return nullptr;
  ++found_;
  return e;
}

void ScanCache::store(uint64_t key, std::shared_ptr<const Entry> entry) {
  const size_t size = entry_bytes(*entry);
  if (size > kMaxBytes / 4) return;
  std::lock_guard lock(mu_);
  auto [it, added] = by_key_.try_emplace(key, nullptr);
  if (!added) return;  // the same text (or a hash twin) is there already
  it->second = std::move(entry);
  order_.push_back(key);
  bytes_ += size;
  while (bytes_ > kMaxBytes && !order_.empty()) {
    auto old = by_key_.find(order_.front());
    order_.pop_front();
    if (old == by_key_.end()) continue;
    bytes_ -= entry_bytes(*old->second);
    by_key_.erase(old);
  }
}

}  // namespace goalcup::cheat
