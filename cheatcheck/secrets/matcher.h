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

  // Every candidate, one per (rule, start) with the longest end.
  void scan(std::string_view text, std::vector<Candidate>* out) const;

 private:
  Matcher();
  struct Impl;
  Impl* impl_;
};

}  // namespace goalcup::cheat
