// The block-wise base64 run finder and decoder: runs stay inside the input
// and do not overlap; decoding never outgrows 3/4 of a run. Runs wrapped
// over lines are well formed.
#include <cstdint>
#include <string>
#include <vector>

#include "cheatcheck/secrets/decoders.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view in(reinterpret_cast<const char*>(data), size);
  std::vector<goalcup::cheat::Run> runs;
  goalcup::cheat::find_base64_runs(in, &runs);
  size_t last_end = 0;
  std::string out;
  for (const auto& r : runs) {
    if (r.start < last_end || r.start + r.length > size) __builtin_trap();
    last_end = r.start + r.length;
    goalcup::cheat::decode_base64_text(in.substr(r.start, r.length), &out);
    if (out.size() > r.length) __builtin_trap();
  }
  // Wrapped runs stay inside the input, each before the runs it counts as
  // its pieces (which start inside it), and do not overlap one another.
  const size_t single = runs.size();
  goalcup::cheat::add_wrapped_base64_runs(in, &runs);
  size_t wrapped_end = 0, counted = 0;
  std::string joined;
  for (size_t i = 0; i < runs.size(); ++i) {
    const auto& r = runs[i];
    if (r.start + r.length > size) __builtin_trap();
    if (r.width == 0) continue;
    if (r.start < wrapped_end || i + r.pieces >= runs.size() + 1) __builtin_trap();
    for (size_t j = i + 1; j <= i + r.pieces; ++j) {
      if (runs[j].width != 0 || runs[j].start >= r.start + r.length) __builtin_trap();
    }
    wrapped_end = r.start + r.length;
    ++counted;
    const std::string_view chars = goalcup::cheat::base64_chars(in, r, &joined);
    if (chars.size() > r.length) __builtin_trap();
    goalcup::cheat::decode_base64_text(chars, &out);
    if (goalcup::cheat::wrap_like(chars, in, r).size() < chars.size()) __builtin_trap();
  }
  if (runs.size() != single + counted) __builtin_trap();
  return 0;
}
