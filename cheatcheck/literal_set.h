// A few fixed strings sought in one pass over a text. The checks look for
// markers ("truncated", "[REDACTED:") and provider hosts in every tool
// output, most of a trace's bytes: one memmem per string read each text
// once per string (and a case-blind search lowercased a copy first), where
// Hyperscan's literal matcher reads it once for all of them, several times
// faster. The answers are memmem's: where each string first starts.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace goalcup::cheat {

class LiteralSet {
 public:
  enum class Case { exact, blind };  // blind: ASCII letters match either case
  // At most 64 non-empty literals.
  LiteralSet(std::vector<std::string> literals, Case c);
  ~LiteralSet();
  LiteralSet(const LiteralSet&) = delete;
  LiteralSet& operator=(const LiteralSet&) = delete;

  size_t size() const { return literals_.size(); }
  // Bit i is set when literal i occurs in `text`.
  uint64_t present(std::string_view text) const;
  // first[i]: where literal i first starts in `text`, npos if nowhere.
  // `first` has size() elements.
  void first_positions(std::string_view text, std::span<size_t> first) const;

 private:
  struct Db;
  bool scan(std::string_view text, std::span<size_t> first, bool stop_when_all_found) const;
  void scan_slowly(std::string_view text, std::span<size_t> first) const;

  std::vector<std::string> literals_;
  Case case_;
  std::unique_ptr<Db> db_;  // null when Hyperscan could not compile them: every scan is slow
};

}  // namespace goalcup::cheat
