// Every bound the readers enforce, in one place. Each has a command-line
// option to raise it (docs/LIMITS.md); hitting one is reported by name as a
// "could not judge" error, never silently.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

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
  uint32_t max_archive_members = 100000;   // members of a .tar, entries of a folder tree
  uint32_t max_walk_depth = 32;            // path components of a member or folder entry
  uint32_t max_statements = 100000;        // Ed25519 checks per trace
  uint32_t ack_window = 1u << 16;          // how far back (in records) an ack may point
  uint32_t max_seconds = 3600;             // reading one upload, all its members and files
  uint32_t max_errors = 10000;             // errors before reading stops (the verdict is settled)
};

// Every zstd ratio check lets this much through whatever was read: small
// uploads may inflate this much whatever their size.
inline constexpr uint64_t kZstdRatioSlack = 64ull << 20;

// A JSON text inside a record's string (a request body, a native log line,
// a tool call's input) may nest deeper than the record itself: a model's
// tool input is the model's to shape, and a harness re-sends it in every
// later request. Those texts get at least simdjson's own depth bound; past
// it a tool says the body was not read (cheatcheck: a high finding).
inline constexpr uint32_t kNestedMaxDepth = 1024;
inline Limits nested_limits(Limits limits) {
  if (limits.max_depth < kNestedMaxDepth) limits.max_depth = kNestedMaxDepth;
  return limits;
}

// Text read from a trace and kept beyond its record (a gap type, a host, a
// model, an id shown in a report): at most kMaxKeptText bytes, marked when
// cut, so that one crafted 60 MB name costs no more than a short one.
inline constexpr size_t kMaxKeptText = 120;

// The bounds for the small files a judge hands a tool outside any trace run
// (a --policy file, a --dev-key or redact --key JSON file): the judge's own
// files, read before a run's limits apply, and parsed with the default
// bounds (each is also capped in size before it is parsed, or is a file the
// judge wrote). Upload data is never parsed with these: a run's parsers get
// the run's Limits.
inline constexpr Limits kConfigFileLimits{};

// What the mark of a cut text says: the whole text's size ("... (N bytes)",
// for names kept in reports) or what was left out ("... [N more bytes]",
// for the text of a view).
enum class ClipNote : uint8_t { total_bytes, more_bytes };

// At most `max` bytes of `text`, never cutting a UTF-8 character, marked
// when cut.
inline std::string clip_text(std::string_view text, size_t max = kMaxKeptText,
                             ClipNote note = ClipNote::total_bytes) {
  if (text.size() <= max) return std::string(text);
  size_t cut = max;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;  // not inside a UTF-8 character
  return std::string(text.substr(0, cut)) +
         (note == ClipNote::total_bytes ? "... (" + std::to_string(text.size()) + " bytes)"
                                        : "... [" + std::to_string(text.size() - cut) + " more bytes]");
}

}  // namespace goalcup
