#include "core/lines.h"

#include <algorithm>
#include <cstring>
#include <new>

namespace goalcup {

void LineBlock::hash_lines() {
  hashes_.resize(lines_.size());
  for (size_t i = 0; i < lines_.size(); ++i) hashes_[i] = sha256(lines_[i].bytes);
}

// Not zero-filled on purpose: untouched pages cost no memory, so a block
// grown for one long line costs only what that line fills. realloc keeps
// the bytes and, for a long line, remaps its pages rather than holding old
// and new copies at once.
void LineBlock::reserve(size_t cap) {
  if (cap <= cap_) return;
  char* bigger = static_cast<char*>(std::realloc(data_.get(), cap));
  if (!bigger) throw std::bad_alloc();  // as new[] would: the limits keep lines far below this
  (void)data_.release();
  data_.reset(bigger);
  cap_ = cap;
}

LineReader::LineReader(std::unique_ptr<ByteSource> source, const Limits& limits, bool lenient_end)
    : source_(std::move(source)), limits_(limits), lenient_end_(lenient_end) {}

LineReader::Status LineReader::fail(Code code, std::string message) {
  error_ = Error{code, static_cast<int64_t>(index_), std::move(message)};
  return Status::error;
}

LineReader::Status LineReader::next_block(LineBlock* b) {
  b->lines_.clear();
  b->hashes_.clear();
  size_t len = carry_.size();
  b->reserve(len + kLinePadding);
  std::memcpy(b->data_.get(), carry_.data(), len);
  carry_.clear();
  size_t scan = 0;  // bytes before this hold no LF
  for (;;) {
    // Lines carried whole from the last block are framed before reading on.
    if (len > scan) {
      if (const void* lf = ::memrchr(b->data_.get() + scan, '\n', len - scan)) {
        return frame(b, len, scan, static_cast<size_t>(static_cast<const char*>(lf) - b->data_.get()));
      }
    }
    if (len > limits_.max_line_bytes) {
      return fail(Code::limit_line_bytes, "line " + std::to_string(index_) + " is longer than " +
                                              std::to_string(limits_.max_line_bytes) + " bytes; raise --max-line-bytes");
    }
    if (eof_) {
      if (len == 0) return Status::end;
      if (!lenient_end_) return fail(Code::missing_final_lf, "the last line has no LF: the record was cut");
      b->lines_.push_back(Line{std::string_view(b->data_.get(), len), index_++});
      b->bytes_through_ = total_;
      b->source_ended_ = true;
      std::memset(b->data_.get() + len, 0, kLinePadding);
      return Status::line;
    }
    if (b->cap_ - kLinePadding - len < kReadChunk) {
      b->reserve(std::max(len + kReadChunk, b->cap_ + b->cap_ / 2) + kLinePadding);
    }
    // A chunk per read: what follows the last LF is carried to the next
    // block, and a long line must not drag a long tail with it. Always a
    // whole chunk, whatever the block's capacity: where reads end decides
    // the bytes a stopped walk reports, which must not depend on which
    // block (on which thread) was read into.
    auto n = source_->read(b->data_.get() + len, kReadChunk);
    if (!n) {
      error_ = n.take_error();
      error_.seq = static_cast<int64_t>(index_);
      return Status::error;
    }
    eof_ = *n == 0;
    total_ += *n;
    if (total_ > limits_.max_total_bytes) {
      return fail(Code::limit_total_bytes, "the trace exceeds " + std::to_string(limits_.max_total_bytes) +
                                               " bytes; raise --max-total-bytes");
    }
    scan = len;
    len += *n;
  }
}

// Frames the complete lines of the block's first `len` bytes (the first LF
// is at or after `scan`, the last at `last_lf`), at most kMaxLinesPerBlock
// of them, and carries the rest to the next block.
LineReader::Status LineReader::frame(LineBlock* b, size_t len, size_t scan, size_t last_lf) {
  const char* base = b->data_.get();
  size_t pos = 0;
  while (pos <= last_lf && b->lines_.size() < kMaxLinesPerBlock) {
    const size_t from = std::max(pos, scan);
    const size_t stop = static_cast<size_t>(static_cast<const char*>(std::memchr(base + from, '\n', last_lf + 1 - from)) - base);
    if (stop - pos > limits_.max_line_bytes) {
      // The lines before it are delivered first: a report counts and shows
      // what was read up to the limit. The long line fails the next call.
      if (!b->lines_.empty()) break;
      return fail(Code::limit_line_bytes, "line " + std::to_string(index_) + " is longer than " +
                                              std::to_string(limits_.max_line_bytes) + " bytes; raise --max-line-bytes");
    }
    b->lines_.push_back(Line{std::string_view(base + pos, stop - pos), index_++});
    pos = stop + 1;
  }
  carry_.assign(base + pos, len - pos);
  b->bytes_through_ = total_;
  b->source_ended_ = eof_;
  std::memset(b->data_.get() + pos, 0, kLinePadding);  // defined bytes past the last line
  return Status::line;
}

LineReader::Status LineReader::next(Line* line) {
  while (own_pos_ == own_.size()) {
    own_pos_ = 0;
    auto st = next_block(&own_);
    if (st != Status::line) return st;
  }
  *line = own_.line(own_pos_++);
  return Status::line;
}

}  // namespace goalcup
