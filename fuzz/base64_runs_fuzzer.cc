// The block-wise base64 run finder and decoder: runs stay inside the input
// and do not overlap; decoding never outgrows 3/4 of a run.
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
  return 0;
}
