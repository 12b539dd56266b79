// The prefilter's promise: a line it lets pass holds nothing the full scan
// would find. Any input where the full scan (record or text reading) finds
// a secret the prefilter would have skipped is a crash.
#include <cstdint>
#include <string>

#include "cheatcheck/secrets/prefilter.h"
#include "cheatcheck/secrets/trace_scan.h"
#include "core/lines.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace goalcup::cheat;
  static auto record = make_record_line_scanner(false, goalcup::Limits{});
  static auto text = make_text_line_scanner(false, goalcup::Limits{});
  std::string padded(reinterpret_cast<const char*>(data), size);
  padded.append(goalcup::kLinePadding, '\0');
  const std::string_view line(padded.data(), size);
  ScanOutput out;
  record->scan(line, 0, &out);
  text->scan(line, 0, &out);
  if (!out.hits.empty() && !Prefilter::instance().may_hold_secret(line)) __builtin_trap();
  return 0;
}
