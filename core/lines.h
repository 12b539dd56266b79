// Stage 2: line framing. Splits the byte stream on LF and hands out one line
// at a time as a view into an internal buffer that holds at most one line
// plus one read chunk, so memory follows the longest line, not the trace.
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "core/limits.h"
#include "core/source.h"

namespace goalcup {

// Bytes readable past the end of every line view (the JSON parser reads in
// 64-byte blocks and needs them).
inline constexpr size_t kLinePadding = 64;

struct Line {
  std::string_view bytes;  // without the LF
  uint64_t index = 0;      // 0-based line number (= the record's seq if valid)
};

class LineReader {
 public:
  enum class Status { line, end, error };

  LineReader(std::unique_ptr<ByteSource> source, const Limits& limits);

  // Next line; the view stays valid until the next call.
  Status next(Line* line);
  // After Status::error.
  const Error& error() const { return error_; }
  uint64_t bytes_read() const { return total_; }

 private:
  bool fill();  // false on error or end of input
  void grow(size_t cap);
  Status fail(Code code, std::string message);

  std::unique_ptr<ByteSource> source_;
  Limits limits_;
  std::unique_ptr<char[]> buf_;
  size_t cap_ = 0;
  size_t begin_ = 0;  // first unconsumed byte
  size_t scan_ = 0;   // bytes before this hold no LF
  size_t end_ = 0;    // end of valid data
  bool eof_ = false;
  uint64_t index_ = 0;
  uint64_t total_ = 0;
  Error error_{Code::internal_error, -1, ""};
};

}  // namespace goalcup
