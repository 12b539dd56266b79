#include "cheatcheck/literal_set.h"

#include <hs/hs.h>
#include <string.h>

#include <algorithm>
#include <cassert>

#include "cheatcheck/secrets/rule_database.h"

namespace goalcup::cheat {

struct LiteralSet::Db {
  HsDatabase db;
};

namespace {

char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

struct ScanState {
  std::span<size_t> first;
  const std::vector<std::string>* literals;
  size_t missing;  // literals not found yet
  bool stop_when_all_found;
};

int on_literal_match(unsigned id, unsigned long long, unsigned long long to, unsigned, void* context) {
  auto* st = static_cast<ScanState*>(context);
  const size_t start = static_cast<size_t>(to) - (*st->literals)[id].size();
  size_t& first = st->first[id];
  if (first == std::string_view::npos) --st->missing;
  first = std::min(first, start);  // the earliest, whatever order matches come in
  return st->stop_when_all_found && st->missing == 0 ? 1 : 0;
}

}  // namespace

LiteralSet::LiteralSet(std::vector<std::string> literals, Case c) : literals_(std::move(literals)), case_(c) {
  assert(literals_.size() <= 64);
  const std::vector<std::string_view> views(literals_.begin(), literals_.end());
  HsDatabase db = compile_literal_database(views, c == Case::blind ? HS_FLAG_CASELESS : 0u);
  if (!db) return;  // scanned slowly, with the same answers
  db_ = std::make_unique<Db>();
  db_->db = std::move(db);
}

LiteralSet::~LiteralSet() = default;

uint64_t LiteralSet::present(std::string_view text) const {
  std::vector<size_t> first(literals_.size(), std::string_view::npos);
  if (!scan(text, first, /*stop_when_all_found=*/true)) scan_slowly(text, first);
  uint64_t bits = 0;
  for (size_t i = 0; i < first.size(); ++i) bits |= uint64_t{first[i] != std::string_view::npos} << i;
  return bits;
}

void LiteralSet::first_positions(std::string_view text, std::span<size_t> first) const {
  std::fill(first.begin(), first.end(), std::string_view::npos);
  if (!scan(text, first, /*stop_when_all_found=*/false)) scan_slowly(text, first);
}

// False when Hyperscan cannot answer (no database or scratch, a text past
// its 32-bit lengths, a failed scan): `first` is then reset for the slow way.
bool LiteralSet::scan(std::string_view text, std::span<size_t> first, bool stop_when_all_found) const {
  // No literal is empty, so none is in an empty text (whose data may be
  // null, which neither hs_scan nor memmem may be given: found by fuzzing).
  if (text.empty()) return true;
  if (!db_ || text.size() >= (1ull << 31)) return false;
  thread_local HsScratch scratch;  // one per thread, grown for every set it has scanned with
  hs_scratch_t* s = scratch.release();
  const bool ready = hs_alloc_scratch(db_->db.get(), &s) == HS_SUCCESS;
  scratch.reset(s);
  if (!ready) return false;
  ScanState st{first, &literals_, literals_.size(), stop_when_all_found};
  const hs_error_t r =
      hs_scan(db_->db.get(), text.data(), static_cast<unsigned>(text.size()), 0, scratch.get(), on_literal_match, &st);
  if (r == HS_SUCCESS || r == HS_SCAN_TERMINATED) return true;
  std::fill(first.begin(), first.end(), std::string_view::npos);
  return false;
}

// memmem per literal; a case-blind one over a lowercased window at a time,
// so that memory stays bounded whatever the text's size.
void LiteralSet::scan_slowly(std::string_view text, std::span<size_t> first) const {
  if (case_ == Case::exact) {
    for (size_t i = 0; i < literals_.size(); ++i) {
      const void* hit = memmem(text.data(), text.size(), literals_[i].data(), literals_[i].size());
      first[i] = hit ? static_cast<size_t>(static_cast<const char*>(hit) - text.data()) : std::string_view::npos;
    }
    return;
  }
  constexpr size_t kWindow = 1 << 16;
  size_t overlap = 0;
  std::vector<std::string> lowered;
  for (const std::string& l : literals_) {
    overlap = std::max(overlap, l.size() - 1);
    lowered.emplace_back(l.size(), '\0');
    std::transform(l.begin(), l.end(), lowered.back().begin(), lower);
  }
  std::string window;
  for (size_t start = 0; start < text.size(); start += kWindow - overlap) {
    const std::string_view part = text.substr(start, kWindow);
    window.resize(part.size());
    std::transform(part.begin(), part.end(), window.begin(), lower);
    for (size_t i = 0; i < lowered.size(); ++i) {
      if (first[i] != std::string_view::npos) continue;
      if (const void* hit = memmem(window.data(), window.size(), lowered[i].data(), lowered[i].size())) {
        first[i] = start + static_cast<size_t>(static_cast<const char*>(hit) - window.data());
      }
    }
    if (start + part.size() >= text.size()) break;
  }
}

}  // namespace goalcup::cheat
