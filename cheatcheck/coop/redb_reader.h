// A read-only reader of redb's file format (redb 2.x, file format v2/v3;
// redb's docs/design.md): the super-header, the two commit slots (the one
// redb itself would open), the user table tree and each table's B-tree.
// It lists every live row of every table, then hands over the bytes no live
// page uses (freed pages, and the slack after a live page's last entry),
// where overwritten and deleted rows can still lie: leaf pages found there
// are split into their entries, anything else is passed on as raw bytes.
//
// Hostile input is expected: every offset is bounds-checked, checksums
// (XXH3-128) are verified as redb verifies them, pages are read one at a
// time with pread (never the whole file, and of a page only the bytes its
// checksum covers), the walk is bounded in depth, pages and page size, its
// memory does not grow with a branch's width, a page is visited at most
// once, and every byte read counts against the upload's time budget.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <optional>
#include <string_view>

#include "core/error.h"

namespace goalcup {
class UploadBudget;
}

namespace goalcup::cheat {

struct RedbRow {
  std::string_view table;  // the table's name
  std::string_view key;
  std::string_view value;
  uint64_t offset = 0;  // of the page in the file
};

// Where bytes no live tree reaches were found: an entry of a stale leaf
// page (`key` set), or raw bytes (`key` empty, `value` the bytes). A long
// run of raw bytes comes in pieces that repeat the previous piece's last
// `repeated` bytes, so that a value across the cut is whole in one piece:
// what ends within them was seen before.
struct RedbStale {
  bool leaf_entry = false;
  std::string_view key;
  std::string_view value;
  uint64_t offset = 0;    // of the page (entry) or of the bytes (raw)
  size_t repeated = 0;    // raw: leading bytes already handed over
};

struct RedbReadResult {
  bool understood = false;  // false: `why` says what was not understood
  std::string why;
  std::string note;  // how the commit slot was chosen, anything skipped
  uint64_t transaction_id = 0;
  uint64_t live_rows = 0;
  uint64_t pages_read = 0;
  uint64_t bytes_read = 0;  // from the file, live trees and stale bytes together
  // Set when the upload's budget (--max-seconds) ran out: what was read so
  // far is not the whole file, and the file was not judged.
  std::optional<Error> limit;
};

struct RedbCallbacks {
  std::function<void(const RedbRow&)> on_row;
  std::function<void(const RedbStale&)> on_stale;
};

// Reads the redb file open at `fd` (`size` bytes). Rows come first, then
// stale bytes; when the file is not understood, neither callback runs.
// Every byte read is counted against `budget` (may be null); when it runs
// out, reading stops and `limit` says why.
RedbReadResult read_redb(int fd, uint64_t size, const RedbCallbacks& callbacks, UploadBudget* budget = nullptr);

}  // namespace goalcup::cheat
