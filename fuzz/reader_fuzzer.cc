// The reader and framing, through to the verifier: any bytes, plain, zstd,
// .tar or .tar.zst, must give a report without crashing or reading out of
// bounds.
#include <cstdint>
#include <string>

#include "core/walk.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace goalcup;
  WalkOptions opt;
  opt.limits.max_line_bytes = 1 << 20;
  opt.limits.max_total_bytes = 64 << 20;
  opt.limits.ack_window = 1024;
  opt.limits.max_archive_members = 64;
  auto opened = open_layers(memory_source(std::string(reinterpret_cast<const char*>(data), size)), "", opt.limits);
  if (!opened) return 0;
  VerifyReport r = walk_source(std::move(opened->source), opt);
  // A report with no errors must be for a trace that parsed completely.
  if (r.error_count == 0 && r.records == 0) __builtin_trap();
  return 0;
}
