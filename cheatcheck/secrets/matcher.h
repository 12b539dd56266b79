// One pass over a text for every rule at once, with Vectorscan (Hyperscan's
// portable fork). A loop of regexes would read the text once per rule.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace goalcup::cheat {

struct Candidate {
  uint32_t rule = 0;  // index into secret_rules()
  size_t start = 0, end = 0;
};

class Matcher {
 public:
  // Compiled once, shared by all threads (each has its own scratch).
  static const Matcher& instance();
  ~Matcher();
  Matcher(const Matcher&) = delete;
  Matcher& operator=(const Matcher&) = delete;

  // Every candidate, one per (rule, start) with the longest end. False when
  // the text has more than kMaxCandidates (a line of decoys): `out` then
  // holds the first ones only, and scan_range reads the rest.
  bool scan(std::string_view text, std::vector<Candidate>* out) const;
  // The candidates of `text` whose match ends in (from, to], read with
  // kContext bytes on each side so that a match across `from` is whole and
  // boundaries at `to` see the text after it. A range of window_bytes()
  // holds at most kMaxCandidates / 2, whatever the text.
  void scan_range(std::string_view text, size_t from, size_t to, std::vector<Candidate>* out) const;
  static size_t window_bytes();

  static constexpr size_t kMaxCandidates = 1u << 20;
  static constexpr size_t kContext = 256;  // longer than any fixed-width pattern (96)

 private:
  Matcher();
  struct Impl;
  Impl* impl_;
};

}  // namespace goalcup::cheat
