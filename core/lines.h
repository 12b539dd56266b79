// Stage 2: line framing. The byte stream is cut into blocks of complete
// lines; each block owns its bytes, so a block can be handed to another
// thread while the next one is read (see walk.cc). A block holds at most one
// read chunk plus one line, and at most kMaxLinesPerBlock lines, so memory
// follows the longest line, not the trace or its number of lines.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "core/limits.h"
#include "core/sha256.h"
#include "core/source.h"

namespace goalcup {

// Lines framed into one block at most: a chunk of blank lines must not
// cost 56 bytes of bookkeeping per byte (the rest waits for the next block).
inline constexpr size_t kMaxLinesPerBlock = 1 << 16;

// Bytes asked of the source per read. A block is hashed on one core and
// parsed on another soon after: 512 KiB blocks stay in the cores' caches
// between the two (2 MiB blocks measured 7% slower on two cores, with a
// third more system time), while a read still costs little per byte.
inline constexpr size_t kReadChunk = 512 << 10;

// Bytes readable past the end of every line (the JSON parser reads in
// 64-byte blocks and needs them).
inline constexpr size_t kLinePadding = 64;

struct Line {
  std::string_view bytes;  // without the LF
  uint64_t index = 0;      // 0-based line number (= the record's seq if valid)
};

// A run of complete lines, with room for their hashes.
class LineBlock {
 public:
  size_t size() const { return lines_.size(); }
  const Line& line(size_t i) const { return lines_[i]; }
  const Digest& hash(size_t i) const { return hashes_[i]; }
  bool hashed() const { return hashes_.size() == lines_.size(); }
  // Bytes the reader had read when it framed this block: what a report
  // says was read when reading stops after this block, on any thread.
  uint64_t bytes_through() const { return bytes_through_; }
  // The source had ended (read returned 0) when this block was framed.
  bool source_ended() const { return source_ended_; }
  void hash_lines();  // SHA-256 of each line's bytes
  size_t capacity() const { return cap_; }

 private:
  friend class LineReader;
  void reserve(size_t cap);  // keeps the bytes
  struct Free {
    void operator()(char* p) const { std::free(p); }
  };
  std::unique_ptr<char, Free> data_;  // malloc'd: realloc moves a long line's pages instead of copying them
  size_t cap_ = 0;
  std::vector<Line> lines_;
  std::vector<Digest> hashes_;
  uint64_t bytes_through_ = 0;
  bool source_ended_ = false;
};

class LineReader {
 public:
  enum class Status { line, end, error };

  // `lenient_end`: a last line without LF is delivered instead of being an
  // error (for scanning arbitrary text files, never for traces).
  LineReader(std::unique_ptr<ByteSource> source, const Limits& limits, bool lenient_end = false);

  // Refills `block` with the next complete lines (reusing its memory).
  Status next_block(LineBlock* block);
  // One line at a time; the view stays valid until the next call.
  Status next(Line* line);
  // After Status::error.
  const Error& error() const { return error_; }
  // Once the source is exhausted: its reason for ending early, if any
  // (ByteSource::cut); the last line may then lack its LF.
  std::optional<Error> cut() const { return source_->cut(); }
  uint64_t bytes_read() const { return total_; }

 private:
  Status fail(Code code, std::string message);
  Status frame(LineBlock* b, size_t len, size_t scan, size_t last_lf);

  std::unique_ptr<ByteSource> source_;
  Limits limits_;
  std::string carry_;  // the start of a line cut by the end of a read
  uint64_t index_ = 0;
  uint64_t total_ = 0;
  bool eof_ = false;
  bool lenient_end_ = false;
  Error error_{Code::internal_error, -1, ""};
  LineBlock own_;  // for next()
  size_t own_pos_ = 0;
};

}  // namespace goalcup
