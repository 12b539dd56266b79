// The SSE rebuilder: any event stream, well-formed or not.
#include <cstdint>
#include <string_view>

#include "core/sse.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view in(reinterpret_cast<const char*>(data), size);
  goalcup::RebuiltAnswer a = goalcup::rebuild_answer(in, goalcup::Limits{});
  // Every byte of the rebuilt text came from the input's deltas.
  if (a.text.size() > size * 6 + 64) __builtin_trap();
  return 0;
}
