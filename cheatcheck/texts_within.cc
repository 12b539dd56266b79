#include "cheatcheck/texts_within.h"

#include <hs/hs.h>

#include <algorithm>

#include "cheatcheck/secrets/rule_database.h"

namespace goalcup::cheat {

namespace {
// absl's heterogeneous lookup takes absl::string_view (not std:: in Debian's build).
absl::string_view key(std::string_view s) { return {s.data(), s.size()}; }

// What ends each short haystack in a pack: a byte no UTF-8 text holds (nor
// loose_text()'s output), where a NUL may be in any (a JSON "\u0000").
constexpr char kSeparator = '\xFF';

// Vectorscan's literal API takes a literal that starts with a NUL for an
// empty one and refuses the whole set: a text is sought from its first
// other byte, and so, when it starts with a NUL, is only ever said not held.
std::string_view seekable(std::string_view text) { return text.substr(std::min(text.find_first_not_of('\0'), text.size())); }

// What a literal costs Vectorscan's compiler beyond its length: the squares
// of the runs of one byte it starts and ends with.
uint64_t run_cost(std::string_view literal) {
  const size_t lead = std::min(literal.find_first_not_of(literal.front()), literal.size());
  const size_t other = literal.find_last_not_of(literal.back());
  const size_t trail = other == std::string_view::npos ? literal.size() : literal.size() - 1 - other;
  return uint64_t{lead} * lead + uint64_t{trail} * trail;
}
}  // namespace

// Windows overlapping by half, so that a text joined from two pieces held
// (words between them left out or put in) has a window across the join.
template <typename Visit>
void TextsWithin::for_each_window(std::string_view text, const Visit& visit) {
  const size_t last = text.size() - kWindowBytes;
  for (size_t at = 0;; at = std::min(at + kWindowBytes / 2, last)) {
    if (!visit(text.substr(at, kWindowBytes)) || at == last) return;
  }
}

void TextsWithin::want(std::string_view text) {
  if (text.empty() || text.find(kSeparator) != std::string_view::npos) return;
  if (text.size() <= kWholeBytes) return add_literal(seekable(text));
  for_each_window(text, [&](std::string_view window) {
    add_literal(seekable(window));
    return true;
  });
}

void TextsWithin::add_literal(std::string_view literal) {
  // After search(): found_ has no place for it (the text stays unknown).
  if (literal.empty() || closed_ || ids_.size() >= kMaxLiterals || literal_bytes_ + literal.size() > kMaxLiteralBytes) return;
  const uint64_t cost = run_cost(literal);
  if (run_cost_ + cost > kMaxRunCost || ids_.contains(key(literal))) return;
  literal_bytes_ += literal.size();
  run_cost_ += cost;
  ids_.emplace(literal, static_cast<uint32_t>(ids_.size()));
}

TextsWithin::Held TextsWithin::held(std::string_view text) const {
  if (text.empty()) return Held::yes;  // as memmem has it
  if (text.size() <= kWholeBytes) {
    const std::string_view sought = seekable(text);
    const Held h = literal_held(sought);
    return h == Held::yes && sought.size() < text.size() ? Held::unknown : h;
  }
  Held h = Held::unknown;
  for_each_window(text, [&](std::string_view window) {
    if (literal_held(seekable(window)) == Held::no) h = Held::no;
    return h != Held::no;
  });
  return h;
}

TextsWithin::Held TextsWithin::literal_held(std::string_view literal) const {
  if (!searched_) return Held::unknown;
  const auto it = ids_.find(key(literal));
  if (it == ids_.end()) return Held::unknown;
  return found_[it->second] ? Held::yes : Held::no;
}

void TextsWithin::search(std::span<const std::string> haystacks) {
  closed_ = true;
  found_.assign(ids_.size(), false);
  searched_ = ids_.empty() || scan_all(haystacks);
}

namespace {

struct HeldScan {
  std::vector<bool>* found;
  size_t missing;
};

int on_held(unsigned id, unsigned long long, unsigned long long, unsigned, void* context) {
  auto* st = static_cast<HeldScan*>(context);
  if (!(*st->found)[id]) {
    (*st->found)[id] = true;
    --st->missing;
  }
  return st->missing == 0 ? 1 : 0;  // every text found: stop
}

}  // namespace

// Short haystacks are scanned a megabyte at a time, each followed by
// kSeparator, which no literal holds (so that none is found across two of them): a
// literal is then reported once per scan, not once per haystack, whatever
// their number.
bool TextsWithin::scan_all(std::span<const std::string> haystacks) {
  std::vector<std::string_view> by_id(ids_.size());
  for (const auto& [literal, id] : ids_) by_id[id] = literal;
  const HsDatabase db = compile_literal_database(by_id, HS_FLAG_SINGLEMATCH);
  if (!db) return false;
  HsScratch scratch;
  if (ready_scratch(scratch, db.get()) == nullptr) return false;
  HeldScan st{&found_, ids_.size()};
  auto scan = [&](std::string_view text) {
    if (text.empty() || st.missing == 0) return true;
    if (text.size() >= (1ull << 31)) return false;
    const hs_error_t r = hs_scan(db.get(), text.data(), static_cast<unsigned>(text.size()), 0, scratch.get(), on_held, &st);
    return r == HS_SUCCESS || r == HS_SCAN_TERMINATED;
  };
  constexpr size_t kPackBytes = 1u << 20;
  std::string pack;
  for (const std::string& haystack : haystacks) {
    if (haystack.size() >= kPackBytes) {
      if (!scan(haystack)) return false;
      continue;
    }
    if (pack.size() + haystack.size() + 1 > kPackBytes) {
      if (!scan(pack)) return false;
      pack.clear();
    }
    pack += haystack;
    pack += kSeparator;
  }
  return scan(pack);
}

}  // namespace goalcup::cheat
