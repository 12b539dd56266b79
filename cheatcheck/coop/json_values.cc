#include "cheatcheck/coop/json_values.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <deque>
#include <vector>

#include "core/json_strict.h"

namespace goalcup::cheat {
namespace {

// How long each '{' that starts a candidate runs until it closes (balanced
// braces and brackets outside strings, as a strict JSON object would),
// found in one pass. The scan from a '{' is a walk of a three-state lexer
// (outside a string, inside one, after a backslash in one): walks from
// different starts that reach one byte in one state read the rest alike,
// so at most three walks are live at a time and the opens of merged walks
// close together. Trying each '{' on its own instead read up to 4 MiB a
// '{' (review 18 #6).
class BraceMatcher {
 public:
  // lengths[p - first]: the length of the candidate at p (closed within
  // kMaxEmbeddedObject), or 0. Opens nested deeper than `max_depth` below
  // others are dropped: the parser refuses such an object anyway, and
  // the walks' memory stays small on a run of '{'.
  struct Lengths {
    size_t first = 0;
    std::vector<uint32_t> of;
    size_t at(size_t p) const { return p >= first && p - first < of.size() ? of[p - first] : 0; }
  };

  static Lengths lengths(std::string_view s, size_t start_limit, size_t max_depth) {
    BraceMatcher m(max_depth);
    const size_t first = s.find('{');
    const size_t last_start = std::min(start_limit, s.size());
    if (first == std::string_view::npos || first >= last_start) return {};
    m.out_.first = first;
    m.out_.of.assign(last_start - first, 0);
    const size_t limit = s.size() - last_start > kMaxEmbeddedObject ? last_start + kMaxEmbeddedObject : s.size();
    for (size_t i = first; i < limit; ++i) m.step(s[i], i, i < last_start);
    return std::move(m.out_);
  }

 private:
  enum State { kOut, kIn, kEscaped, kStates };
  using Group = std::vector<size_t>;  // the candidates that close at one closer
  using Stack = std::deque<Group>;    // the innermost open last

  explicit BraceMatcher(size_t max_depth) : max_stack_(max_depth + 2) {}

  size_t max_stack_;
  std::array<std::unique_ptr<Stack>, kStates> walks_;  // by pointer: a deque allocates when moved
  Lengths out_;

  void step(char c, size_t i, bool candidate) {
    if (c == '{' && candidate && !walks_[kOut]) walks_[kOut] = std::make_unique<Stack>();  // a walk starts here
    std::array<std::unique_ptr<Stack>, kStates> next;
    for (int st = 0; st < kStates; ++st) {
      if (!walks_[st]) continue;
      const std::optional<State> to = advance(static_cast<State>(st), c, i, candidate, *walks_[st]);
      if (to && !walks_[st]->empty()) merge(std::move(walks_[st]), &next[*to]);
    }
    walks_ = std::move(next);
  }

  // The lexer's next state, the walk's stack updated; nullopt: the walk
  // fails here (a byte no JSON text holds), its opens never close.
  std::optional<State> advance(State st, char c, size_t i, bool candidate, Stack& stack) {
    const auto byte = static_cast<unsigned char>(c);
    if (st == kEscaped) return kIn;
    if (st == kIn) {
      if (c == '\\') return kEscaped;
      if (c == '"') return kOut;
      if (byte < 0x20) return std::nullopt;
      return kIn;
    }
    if (c == '"') return kIn;
    if (c == '{' || c == '[') {
      stack.emplace_back();
      if (c == '{' && candidate) stack.back().push_back(i);
      if (stack.size() > max_stack_) stack.pop_front();
    } else if (c == '}' || c == ']') {
      for (const size_t p : stack.back()) {
        if (i + 1 - p <= kMaxEmbeddedObject) out_.of[p - out_.first] = static_cast<uint32_t>(i + 1 - p);
      }
      stack.pop_back();
    } else if (byte < 0x09) {
      return std::nullopt;
    }
    return kOut;
  }

  // Two walks in one state at one byte read on alike: their opens pair up
  // from the innermost, and each pair closes at the same closer.
  static void merge(std::unique_ptr<Stack> from, std::unique_ptr<Stack>* into) {
    if (!*into) {
      *into = std::move(from);
      return;
    }
    if (from->size() > (*into)->size()) std::swap(from, *into);
    Stack& longer = **into;
    for (size_t k = 1; k <= from->size(); ++k) {
      Group& to = longer[longer.size() - k];
      Group& more = (*from)[from->size() - k];
      if (more.size() > to.size()) std::swap(more, to);
      to.insert(to.end(), more.begin(), more.end());
    }
  }
};

}  // namespace

size_t for_each_embedded_object(std::string_view bytes,
                                const std::function<void(size_t, simdjson::dom::object)>& on_object,
                                const Limits& limits, size_t start_limit, size_t min_end,
                                const std::function<bool()>& stop) {
  constexpr size_t kStopEvery = 16;  // candidates between two asks
  StrictJsonParser parser{limits};
  size_t resume = std::min(start_limit, bytes.size());
  const BraceMatcher::Lengths lengths = BraceMatcher::lengths(bytes, start_limit, limits.max_depth);
  size_t tried = 0;
  for (size_t p = bytes.find('{'); p != std::string_view::npos && p < start_limit; p = bytes.find('{', p + 1)) {
    if (stop && ++tried % kStopEvery == 0 && stop()) return bytes.size();
    const size_t length = lengths.at(p);
    if (length == 0) continue;
    const size_t end = p + length;
    auto root = parser.parse_copy(bytes.substr(p, end - p), -1);
    simdjson::dom::object o;
    if (!root || root->get(o)) continue;
    if (end > min_end) on_object(p, o);
    resume = std::max(resume, end);
    p = end - 1;  // outermost only
  }
  return resume;
}

}  // namespace goalcup::cheat
