// The whole secret engine: matcher, rules, every decoder and their nesting.
#include <cstdint>
#include <vector>

#include "cheatcheck/secrets/engine.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static goalcup::cheat::SecretEngine engine{goalcup::Limits{}};
  std::vector<goalcup::cheat::SecretHit> hits;
  engine.scan(std::string_view(reinterpret_cast<const char*>(data), size), "", &hits);
  for (const auto& h : hits) {
    if (h.secret.empty()) __builtin_trap();
  }
  return 0;
}
