// The secret scan's fast path: from a line's raw bytes, tells whether
// decoding it (JSON at every level, SSE joins, escapes, percent, base64) could
// reveal a secret. Most lines of a trace - tool output, code, history - hold
// none, and one pass over their bytes is several times cheaper than decoding
// them.
//
// It must never say no where the full scan would find something. It holds
// because JSON escaping leaves every character a rule spells as it is,
// except a quote (\" at depth 1, \\\" at depth 2), whitespace (\n ...) and
// whatever is \u- or \/-escaped. So a line goes to the full scan when:
// - any rule, written to allow those escaped quotes and whitespace, matches
//   its bytes (raw_tolerant_pattern);
// - it holds a \u, \/ or \x escape, %XX, an SSE "data:" field, or a wire
//   body stored as base64;
// - a credential header ("authorization", "x-api-key", ...) has a value
//   that is not a [REDACTED:...] marker;
// - a base64 run in it decodes to text (a run may start with the letter of
//   an escape such as \n before it, so both readings are tried), or a run
//   wrapped over lines does, its lines joined (add_wrapped_base64_runs).
// tests/secrets_test.cc and fuzz/prefilter_fuzzer.cc check the claim against
// the full scan.
#pragma once

#include <string_view>

namespace goalcup::cheat {

class Prefilter {
 public:
  static const Prefilter& instance();
  ~Prefilter();
  Prefilter(const Prefilter&) = delete;
  Prefilter& operator=(const Prefilter&) = delete;

  bool may_hold_secret(std::string_view line) const;

 private:
  Prefilter();
  struct Impl;
  Impl* impl_;
};

}  // namespace goalcup::cheat
