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
  HsDatabase db;
};

namespace {

// The database compile_rules made at build time (see that file).
constexpr unsigned char kPrecompiled[] = {
#include "secret_rules_db.inc"
};

}  // namespace

Matcher::Matcher() : impl_(new Impl) {
  impl_->db = load_database(kPrecompiled, sizeof kPrecompiled, compile_rule_database);
}

Matcher::~Matcher() { delete impl_; }

const Matcher& Matcher::instance() {
  static const Matcher m;
  return m;
}

namespace {

int on_match(unsigned id, unsigned long long, unsigned long long to, unsigned, void* ctx) {
  auto* out = static_cast<std::vector<Candidate>*>(ctx);
  if (out->size() >= Matcher::kMaxCandidates) return 1;  // a pathological text: scan() says so
  const size_t end = static_cast<size_t>(to);
  const size_t len = secret_rules()[id].match_len;
  out->push_back({id, end >= len ? end - len : 0, end});
  return 0;
}

// Keeps the longest end for each (rule, start).
void longest_per_start(std::vector<Candidate>* out) {
  std::sort(out->begin(), out->end(), [](const Candidate& a, const Candidate& b) {
    return a.rule != b.rule ? a.rule < b.rule : a.start != b.start ? a.start < b.start : a.end > b.end;
  });
  out->erase(std::unique(out->begin(), out->end(),
                         [](const Candidate& a, const Candidate& b) { return a.rule == b.rule && a.start == b.start; }),
             out->end());
}

bool whitespace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

// A value rule's pattern ends in spaces ("token:\s*", "--password[ \t]+")
// and Hyperscan reports every end: a name followed by n spaces is n
// candidates, each of whose extractors walks back over the spaces before
// it (quadratic). Inside a run of whitespace a candidate reads the same
// name and the same value as the run's last one, so only the first (next
// to the operator or quote) and the last of each run are kept. Expects
// longest_per_start's order.
void one_per_whitespace_run(std::string_view text, std::vector<Candidate>* out) {
  const auto rules = secret_rules();
  size_t kept = 0;
  for (size_t i = 0; i < out->size(); ++i) {
    const Candidate& c = (*out)[i];
    const bool inside_run = rules[c.rule].match_len == 0 && c.start > 0 && c.start < text.size() &&
                            whitespace(text[c.start - 1]) && whitespace(text[c.start]) && i + 1 < out->size() &&
                            (*out)[i + 1].rule == c.rule && (*out)[i + 1].start == c.start + 1;
    if (!inside_run) (*out)[kept++] = c;
  }
  out->resize(kept);
}

// A scan that cannot run would report a text as free of credentials when it
// was never read: no input causes it (the database is part of the build, the
// scratch is this thread's own), so it ends the program as a build or memory
// defect, never as a verdict.
[[noreturn]] void fail(const char* what) {
  std::fprintf(stderr, "goalcup: secret scan: %s\n", what);
  std::abort();
}

// Stopping on a pathological text (on_match) is a result; any other error is not.
void check(hs_error_t r) {
  if (r != HS_SUCCESS && r != HS_SCAN_TERMINATED) fail("Vectorscan could not scan");
}

}  // namespace

bool Matcher::scan(std::string_view text, std::vector<Candidate>* out) const {
  out->clear();
  note_new_scan();
  if (text.empty()) return true;
  thread_local HsScratch scratch;
  hs_scratch_t* s = ready_scratch(scratch, impl_->db.get());
  if (!s) fail("cannot allocate scratch space");
  // Hyperscan takes an unsigned length: scan huge texts in overlapping pieces.
  constexpr size_t kPiece = 1u << 30, kOverlap = 1u << 16;
  bool whole = true;
  if (text.size() <= kPiece) {
    check(hs_scan(impl_->db.get(), text.data(), static_cast<unsigned>(text.size()), 0, s, on_match, out));
    whole = out->size() < kMaxCandidates;
  } else for (size_t base = 0; base < text.size(); base += kPiece - kOverlap) {
    const size_t len = std::min(kPiece, text.size() - base);
    std::vector<Candidate> part;
    check(hs_scan(impl_->db.get(), text.data() + base, static_cast<unsigned>(len), 0, s, on_match, &part));
    whole &= part.size() < kMaxCandidates;
    for (auto& c : part) out->push_back({c.rule, c.start + base, c.end + base});
    if (base + len >= text.size()) break;
  }
  longest_per_start(out);
  one_per_whitespace_run(text, out);
  return whole;
}

// Each byte ends at most one match per rule (Hyperscan reports a pattern
// once per end), so a range of this many bytes, its context included,
// holds at most kMaxCandidates / 2.
size_t Matcher::window_bytes() {
  static const size_t bytes = [] {
    const size_t read = kMaxCandidates / 2 / std::max<size_t>(secret_rules().size(), 1);
    return read > 4 * kContext ? read - 2 * kContext : 2 * kContext;
  }();
  return bytes;
}

void Matcher::scan_range(std::string_view text, size_t from, size_t to, std::vector<Candidate>* out) const {
  out->clear();
  note_new_scan();
  to = std::min(to, text.size());
  if (from >= to) return;
  thread_local HsScratch scratch;
  hs_scratch_t* s = ready_scratch(scratch, impl_->db.get());
  if (!s) fail("cannot allocate scratch space");
  const size_t begin = from > kContext ? from - kContext : 0;
  const size_t end = std::min(text.size(), to + kContext);
  check(hs_scan(impl_->db.get(), text.data() + begin, static_cast<unsigned>(end - begin), 0, s, on_match, out));
  std::erase_if(*out, [&](Candidate& c) {
    c.start += begin;
    c.end += begin;
    return c.end <= from || c.end > to;
  });
  longest_per_start(out);
  one_per_whitespace_run(text, out);
}

}  // namespace goalcup::cheat
