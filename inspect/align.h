// Aligning two sequences of content fingerprints (the records of two
// traces), bounded in time and memory whatever they hold.
//
// Myers' O((N+M)D) greedy diff, run in windows: common head and tail are
// stripped, then each window finds a shortest edit script of at most
// `max_edits` edits from where the last one ended; when a window cannot reach
// the end it keeps the furthest point it reached and the next window starts
// there. A window holds one row of at most 2 x max_edits + 1 offsets per edit
// (4 bytes each: 4 MiB at the default). The total work is capped by
// `max_steps`: past it the rest is reported as not aligned, never guessed.
// (libdtl's O(NP) diff has no such cap: two traces with nothing in common
// would cost N x P steps.)
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "core/sha256.h"

namespace goalcup::inspect {

struct AlignLimits {
  uint32_t max_edits = 1000;          // per window
  uint64_t max_steps = 200'000'000;  // comparisons and offsets computed, in all
};

// Items a[a_from, a_from + a_count) are replaced by b[b_from, b_from + b_count).
struct Hunk {
  uint64_t a_from = 0, a_count = 0, b_from = 0, b_count = 0;
};

struct Alignment {
  std::vector<Hunk> hunks;  // in order; the items between them are equal
  // When the work cap was hit: the items before these are aligned, the rest
  // of each side is not.
  std::optional<std::pair<uint64_t, uint64_t>> stopped_at;
};

Alignment align(std::span<const Digest> a, std::span<const Digest> b, const AlignLimits& limits = {});

}  // namespace goalcup::inspect
