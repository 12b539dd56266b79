// Which of many texts lie within some of many longer ones, all found in
// one pass. GC04 looks for the texts Claude Code logs and sends inside a
// <system-reminder> (queued messages, attachments, task notifications) in
// the reminders requests sent. Searched one text at a time, the work is the
// number of texts times the reminders' bytes, so that search must stop at a
// budget; and then a log editor who adds texts that are found only late
// (sent in the reverse order) could spend the budget and leave a forged
// text unsearched, a warning instead of a high. Found here at once, with
// Vectorscan's literal matcher, a text's answer does not depend on the
// others or on their order.
#pragma once

#include <absl/container/flat_hash_map.h>

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace goalcup::cheat {

class TextsWithin {
 public:
  enum class Held { yes, no, unknown };

  // A text to look for; all before search(). A text of at most kWholeBytes
  // is sought whole; a longer one by windows of kWindowBytes starting every
  // half window, which can only say that it is not held (as can the rest
  // of a text that starts with a NUL). Texts past the bounds below, or
  // holding a byte 0xFF (never in UTF-8), are not sought (unknown).
  void want(std::string_view text);
  // One pass over `haystacks`; a text is held when one of them holds it.
  void search(std::span<const std::string> haystacks);
  // unknown: not sought (or the search failed): search it another way.
  Held held(std::string_view text) const;

  static constexpr size_t kWholeBytes = 8192, kWindowBytes = 4096;
  // Vectorscan compiles 20,000 literals of 256 bytes in about 1.5 s and
  // scans 30 MB with them in about 1 s; its literals are at most 16,000
  // bytes. Crafted shapes cost more (20,000 literals ending in a run of 32
  // bytes: 3 s and 360 MB; 4,000 of any shape tried: under a second and
  // 100 MB), so 4,000.
  static constexpr size_t kMaxLiterals = 4000, kMaxLiteralBytes = 8u << 20;
  // But its compile time and memory grow with the square of a run of one
  // byte at a literal's end (review 111: 2,000 literals ending in 1,600
  // `a`s took 39 s and 874 MB, about 8 ns and 0.2 bytes per unit of
  // literals x run^2): the squares of the runs at both ends of every
  // literal are bounded in all, to about half a second.
  static constexpr uint64_t kMaxRunCost = uint64_t{1} << 26;

 private:
  Held literal_held(std::string_view literal) const;
  template <typename Visit>
  static void for_each_window(std::string_view text, const Visit& visit);
  void add_literal(std::string_view literal);
  bool scan_all(std::span<const std::string> haystacks);

  absl::flat_hash_map<std::string, uint32_t> ids_;  // literal -> its id
  std::vector<bool> found_;                          // by id
  size_t literal_bytes_ = 0;
  uint64_t run_cost_ = 0;  // of the literals kept (kMaxRunCost)
  bool closed_ = false;    // search() ran: no more literals
  bool searched_ = false;  // and succeeded
};

}  // namespace goalcup::cheat
