// HTTP content codings: any bytes under each coding, and chains of them.
// The first byte picks the coding list; the output never passes its bound.
#include <array>
#include <cstdint>
#include <string_view>

#include "core/content_encoding.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static constexpr std::array<std::string_view, 8> kCodings = {
      "gzip", "deflate", "br", "zstd", "gzip, br", "zstd, gzip", "identity", "x-gzip, deflate"};
  if (size == 0) return 0;
  const std::string_view codings = kCodings[data[0] % kCodings.size()];
  const std::string_view body(reinterpret_cast<const char*>(data + 1), size - 1);
  constexpr size_t kBound = 1 << 20;
  const goalcup::DecodedContent d = goalcup::decode_content(body, codings, kBound);
  if (d.out.size() > kBound && codings != "identity") __builtin_trap();
  return 0;
}
