// The calls and copies of a trace whose toolUseResult GC04 holds to the
// call or to the result logged (result_copies.h), judged at the trace's
// end: a copy that says another input than its call's is high (the call is
// held to the wire as streamed); one that says another result than the one
// logged joins the result copies GC04 holds to what was sent.
#pragma once

#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include <absl/container/flat_hash_map.h>

#include "cheatcheck/checks/check.h"
#include "cheatcheck/result_copies.h"

namespace goalcup::cheat {

class HeldCopies {
 public:
  // A call of a held tool (others are not kept); within kMaxTracked.
  void call(const Identity& id, std::string_view name, const std::optional<Digest>& key);
  void copy(uint64_t seq, const Identity& call, const CopyClaims& claims);
  // Emits the input contradictions; adds (call, seq) of the others to
  // `result_differs`.
  void judge(Context& ctx, std::vector<std::pair<Identity, uint64_t>>& result_differs) const;
  size_t size() const { return calls_.size() + copies_.size(); }

 private:
  struct HeldCall {
    CopiedTool tool = CopiedTool::other;
    std::optional<Digest> key;
  };
  struct HeldCopy {
    uint64_t seq = 0;
    Identity call{};
    CopyClaims claims;
  };
  absl::flat_hash_map<Identity, HeldCall> calls_;
  std::vector<HeldCopy> copies_;
};

}  // namespace goalcup::cheat
