#include "inspect/align.h"

#include <algorithm>
#include <limits>

namespace goalcup::inspect {
namespace {

constexpr uint32_t kUnreached = std::numeric_limits<uint32_t>::max();

struct Edit {
  bool removed = false;  // a[a] removed; else b[b] added before a[a]
  uint64_t a = 0, b = 0;
};

// One window of Myers' greedy search from (0, 0) toward (n, m). Row d holds
// the furthest x reached on each diagonal k in [-d, d] with d edits.
class Window {
 public:
  Window(std::span<const Digest> a, std::span<const Digest> b, uint64_t* steps, uint64_t max_steps)
      : a_(a), b_(b), n_(static_cast<int64_t>(a.size())), m_(static_cast<int64_t>(b.size())), steps_(steps),
        max_steps_(max_steps) {}

  // The end, or the furthest point reached within `max_edits` edits or the
  // step budget; `edits` gets the edits of the path to it, in order.
  std::pair<uint64_t, uint64_t> run(int64_t max_edits, std::vector<Edit>* edits) {
    int64_t best_d = 0, best_k = 0, best_sum = -1;
    for (int64_t d = 0; d <= max_edits; ++d) {
      rows_.resize(static_cast<size_t>((d + 1) * (d + 1)), kUnreached);
      for (int64_t k = -d; k <= d; k += 2) {
        int64_t x = 0;
        if (d > 0) {
          auto s = start(d, k);
          if (!s) continue;
          x = s->first;
        }
        x = snake(x, x - k);
        at(d, k) = static_cast<uint32_t>(x);
        if (x == n_ && x - k == m_) return trace(d, k, edits);
        if (2 * x - k > best_sum) {
          best_sum = 2 * x - k;
          best_d = d;
          best_k = k;
        }
      }
      if (*steps_ >= max_steps_) break;
    }
    return trace(best_d, best_k, edits);
  }

 private:
  uint32_t& at(int64_t d, int64_t k) { return rows_[static_cast<size_t>(d * d + k + d)]; }

  // Where the d-th edit on diagonal k starts: x, and whether it is an
  // addition (from diagonal k + 1) rather than a removal (from k - 1).
  std::optional<std::pair<int64_t, bool>> start(int64_t d, int64_t k) {
    ++*steps_;
    std::optional<std::pair<int64_t, bool>> best;
    if (k + 1 <= d - 1 && at(d - 1, k + 1) != kUnreached) {
      const int64_t x = at(d - 1, k + 1);
      if (x <= n_ && x - k <= m_) best = {x, true};
    }
    if (k - 1 >= -(d - 1) && at(d - 1, k - 1) != kUnreached) {
      const int64_t x = at(d - 1, k - 1) + 1;
      if (x <= n_ && x - k <= m_ && (!best || x > best->first)) best = {x, false};
    }
    return best;
  }

  int64_t snake(int64_t x, int64_t y) {
    while (x < n_ && y < m_ && a_[static_cast<size_t>(x)] == b_[static_cast<size_t>(y)]) {
      ++x;
      ++y;
      ++*steps_;
    }
    return x;
  }

  std::pair<uint64_t, uint64_t> trace(int64_t d, int64_t k, std::vector<Edit>* edits) {
    const int64_t x_end = at(d, k), y_end = x_end - k;
    const size_t first = edits->size();
    for (; d > 0; --d) {
      const auto s = start(d, k);  // as the search chose it
      const int64_t x = s->first;
      if (s->second) {
        edits->push_back({false, static_cast<uint64_t>(x), static_cast<uint64_t>(x - k - 1)});
        ++k;
      } else {
        edits->push_back({true, static_cast<uint64_t>(x - 1), static_cast<uint64_t>(x - k)});
        --k;
      }
    }
    std::reverse(edits->begin() + static_cast<std::ptrdiff_t>(first), edits->end());
    return {static_cast<uint64_t>(x_end), static_cast<uint64_t>(y_end)};
  }

  std::span<const Digest> a_, b_;
  int64_t n_, m_;
  uint64_t* steps_;
  uint64_t max_steps_;
  std::vector<uint32_t> rows_;
};

void add_edits(const std::vector<Edit>& edits, uint64_t x0, uint64_t y0, std::vector<Hunk>* hunks) {
  uint64_t end_a = UINT64_MAX, end_b = UINT64_MAX;  // where the last hunk ends
  for (const Edit& e : edits) {
    const uint64_t a = e.a + x0, b = e.b + y0;
    if (hunks->empty() || a != end_a || b != end_b) hunks->push_back({a, 0, b, 0});
    Hunk& h = hunks->back();
    if (e.removed) ++h.a_count;
    else ++h.b_count;
    end_a = h.a_from + h.a_count;
    end_b = h.b_from + h.b_count;
  }
}

}  // namespace

Alignment align(std::span<const Digest> a, std::span<const Digest> b, const AlignLimits& limits) {
  Alignment out;
  uint64_t head = 0;
  while (head < a.size() && head < b.size() && a[head] == b[head]) ++head;
  uint64_t tail = 0;
  while (tail < a.size() - head && tail < b.size() - head && a[a.size() - 1 - tail] == b[b.size() - 1 - tail]) ++tail;
  uint64_t x = head, y = head;
  const uint64_t end_a = a.size() - tail, end_b = b.size() - tail;
  if (end_a - x >= kUnreached || end_b - y >= kUnreached) {  // offsets are kept in 32 bits
    out.stopped_at = {{x, y}};
    return out;
  }
  uint64_t steps = 0;
  const int64_t max_edits = std::max<int64_t>(1, limits.max_edits);
  while (x < end_a || y < end_b) {
    if (steps >= limits.max_steps) {
      out.stopped_at = {{x, y}};
      return out;
    }
    std::vector<Edit> edits;
    Window w(a.subspan(x, end_a - x), b.subspan(y, end_b - y), &steps, limits.max_steps);
    const auto [dx, dy] = w.run(max_edits, &edits);
    // Hunks that touch across windows are one.
    const size_t before = out.hunks.size();
    add_edits(edits, x, y, &out.hunks);
    if (before > 0 && out.hunks.size() > before) {
      Hunk& prev = out.hunks[before - 1];
      const Hunk next = out.hunks[before];
      if (prev.a_from + prev.a_count == next.a_from && prev.b_from + prev.b_count == next.b_from) {
        prev.a_count += next.a_count;
        prev.b_count += next.b_count;
        out.hunks.erase(out.hunks.begin() + static_cast<std::ptrdiff_t>(before));
      }
    }
    x += dx;
    y += dy;
  }
  return out;
}

}  // namespace goalcup::inspect
