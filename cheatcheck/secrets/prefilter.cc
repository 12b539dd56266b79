#include "cheatcheck/secrets/prefilter.h"

#include <hs/hs.h>

#include <string>
#include <vector>

#include "cheatcheck/secrets/decoders.h"
#include "cheatcheck/secrets/rule_database.h"

namespace goalcup::cheat {

struct Prefilter::Impl {
  HsDatabase db;
};

namespace {

constexpr unsigned char kPrecompiledPrefilter[] = {
#include "secret_prefilter_db.inc"
};

struct ScanState {
  std::string_view text;
  bool hit = false;
};

// Stops the scan at the first match that needs decoding.
int on_prefilter_match(unsigned id, unsigned long long, unsigned long long to, unsigned, void* ctx) {
  auto* st = static_cast<ScanState*>(ctx);
  if (id == kPrefilterHeader && st->text.substr(static_cast<size_t>(to)).starts_with("[REDACTED:")) return 0;
  st->hit = true;
  return 1;
}

bool base64_reveals_text(std::string_view line) {
  thread_local std::vector<Run> runs;
  thread_local std::string decoded, joined;
  find_base64_runs(line, &runs);
  add_wrapped_base64_runs(line, &runs);  // base64 wrapped over lines, as the engine reads it
  bool reveals = false;
  for (const Run& r : runs) {
    const std::string_view run = base64_chars(line, r, &joined);
    // "\nQUJD..." reads as the run "nQUJD...": try it without the escape's letter.
    reveals = decode_base64_text(run, &decoded) ||
              (r.width == 0 && r.start > 0 && line[r.start - 1] == '\\' && decode_base64_text(run.substr(1), &decoded));
    if (reveals) break;
  }
  // Buffers grown for a long line are not kept for the thread's life.
  if (decoded.capacity() > (1 << 20)) std::string().swap(decoded);
  if (joined.capacity() > (1 << 20)) std::string().swap(joined);
  if (runs.capacity() > (1 << 16)) std::vector<Run>().swap(runs);
  return reveals;
}

}  // namespace

Prefilter::Prefilter() : impl_(new Impl) {
  impl_->db = load_database(kPrecompiledPrefilter, sizeof kPrecompiledPrefilter, compile_prefilter_database);
}

Prefilter::~Prefilter() { delete impl_; }

const Prefilter& Prefilter::instance() {
  static const Prefilter p;
  return p;
}

bool Prefilter::may_hold_secret(std::string_view line) const {
  // Hyperscan takes an unsigned length; lines are far shorter (max_line_bytes).
  if (line.size() >= (1ull << 31)) return true;
  // A scan that cannot run or fails says "decode it": the full scan decides.
  thread_local HsScratch scratch;
  hs_scratch_t* s = ready_scratch(scratch, impl_->db.get());
  if (!s) return true;
  ScanState st{line};
  const hs_error_t r = hs_scan(impl_->db.get(), line.data(), static_cast<unsigned>(line.size()), 0, s, on_prefilter_match, &st);
  if (r != HS_SUCCESS && r != HS_SCAN_TERMINATED) return true;
  return st.hit || base64_reveals_text(line);
}

}  // namespace goalcup::cheat
