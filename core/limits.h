// Every bound the readers enforce, in one place. Each has a command-line
// option to raise it (docs/LIMITS.md); hitting one is reported by name as a
// "could not judge" error, never silently.
#pragma once

#include <cstdint>

namespace goalcup {

struct Limits {
  // The format's own bounds (the recorder never exceeds them).
  uint64_t max_line_bytes = 64ull << 20;  // without the LF
  uint32_t max_depth = 64;                // JSON nesting inside one line
  uint64_t max_records = 1ull << 32;
  // The tools' own bounds, so that no upload can exhaust them.
  uint64_t max_total_bytes = 64ull << 30;  // decompressed trace bytes
  uint32_t max_zstd_window_log = 27;       // 128 MiB, zstd's own default cap
  uint32_t max_zstd_ratio = 200;           // decompressed : compressed so far
  uint32_t max_archive_members = 10000;    // members scanned in a .tar
  uint32_t max_statements = 100000;        // Ed25519 checks per trace
  uint32_t ack_window = 1u << 16;          // how far back (in records) an ack may point
  uint32_t max_errors = 10000;             // errors before reading stops (the verdict is settled)
};

}  // namespace goalcup
