// \u and backslash escapes: never grows beyond 4 bytes per escape, never reads out of bounds.
#include <cstdint>
#include <string>

#include "cheatcheck/secrets/decoders.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view in(reinterpret_cast<const char*>(data), size);
  std::string out;
  (void)goalcup::cheat::has_escapes(in);
  goalcup::cheat::decode_escapes(in, &out);
  if (out.size() > size * 4) __builtin_trap();
  return 0;
}
