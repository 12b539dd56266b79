// Percent-decoding: the output is never longer than the input.
#include <cstdint>
#include <string>

#include "cheatcheck/secrets/decoders.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view in(reinterpret_cast<const char*>(data), size);
  std::string out;
  if (goalcup::cheat::decode_percent(in, &out) && out.size() > size) __builtin_trap();
  return 0;
}
