#include "cheatcheck/secrets/matcher.h"

#include <hs/hs.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "cheatcheck/secrets/rule_database.h"
#include "cheatcheck/secrets/rules.h"

namespace goalcup::cheat {

struct Matcher::Impl {
  hs_database_t* db = nullptr;
  hs_scratch_t* proto = nullptr;  // cloned per thread
};

namespace {

// The database compile_rules made at build time (see that file).
constexpr unsigned char kPrecompiled[] = {
#include "secret_rules_db.inc"
};

}  // namespace

Matcher::Matcher() : impl_(new Impl) {
  impl_->db = load_database(kPrecompiled, sizeof kPrecompiled, compile_rule_database);
  if (hs_alloc_scratch(impl_->db, &impl_->proto) != HS_SUCCESS) std::abort();
}

Matcher::~Matcher() {
  hs_free_scratch(impl_->proto);
  hs_free_database(impl_->db);
  delete impl_;
}

const Matcher& Matcher::instance() {
  static const Matcher m;
  return m;
}

namespace {

struct ThreadScratch {
  hs_scratch_t* s = nullptr;
  ~ThreadScratch() { hs_free_scratch(s); }
};

int on_match(unsigned id, unsigned long long, unsigned long long to, unsigned, void* ctx) {
  auto* out = static_cast<std::vector<Candidate>*>(ctx);
  if (out->size() > (1u << 20)) return 1;  // a pathological text: stop, what was found stands
  const size_t end = static_cast<size_t>(to);
  const size_t len = secret_rules()[id].match_len;
  out->push_back({id, end >= len ? end - len : 0, end});
  return 0;
}

}  // namespace

void Matcher::scan(std::string_view text, std::vector<Candidate>* out) const {
  out->clear();
  if (text.empty()) return;
  thread_local ThreadScratch scratch;
  if (!scratch.s && hs_clone_scratch(impl_->proto, &scratch.s) != HS_SUCCESS) return;
  // Hyperscan takes an unsigned length: scan huge texts in overlapping pieces.
  constexpr size_t kPiece = 1u << 30, kOverlap = 1u << 16;
  if (text.size() <= kPiece) {
    hs_scan(impl_->db, text.data(), static_cast<unsigned>(text.size()), 0, scratch.s, on_match, out);
  } else for (size_t base = 0; base < text.size(); base += kPiece - kOverlap) {
    const size_t len = std::min(kPiece, text.size() - base);
    std::vector<Candidate> part;
    hs_scan(impl_->db, text.data() + base, static_cast<unsigned>(len), 0, scratch.s, on_match, &part);
    for (auto& c : part) out->push_back({c.rule, c.start + base, c.end + base});
    if (base + len >= text.size()) break;
  }
  // Keep the longest end for each (rule, start).
  std::sort(out->begin(), out->end(), [](const Candidate& a, const Candidate& b) {
    return a.rule != b.rule ? a.rule < b.rule : a.start != b.start ? a.start < b.start : a.end > b.end;
  });
  out->erase(std::unique(out->begin(), out->end(),
                         [](const Candidate& a, const Candidate& b) { return a.rule == b.rule && a.start == b.start; }),
             out->end());
}

}  // namespace goalcup::cheat
