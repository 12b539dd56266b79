#include "core/lines.h"

#include <cstring>

namespace goalcup {
namespace {
constexpr size_t kChunk = 1 << 20;
}

LineReader::LineReader(std::unique_ptr<ByteSource> source, const Limits& limits)
    : source_(std::move(source)), limits_(limits) {
  grow(4 * kChunk + kLinePadding);
}

// Not zero-filled on purpose: untouched pages cost no memory, so a buffer
// grown for one long line costs only what that line fills.
void LineReader::grow(size_t cap) {
  std::unique_ptr<char[]> bigger(new char[cap]);
  if (end_ > 0) std::memcpy(bigger.get(), buf_.get(), end_);
  buf_ = std::move(bigger);
  cap_ = cap;
}

LineReader::Status LineReader::fail(Code code, std::string message) {
  error_ = Error{code, static_cast<int64_t>(index_), std::move(message)};
  return Status::error;
}

bool LineReader::fill() {
  // Keep the unconsumed tail, then make room for at least one chunk.
  if (begin_ > 0) {
    std::memmove(buf_.get(), buf_.get() + begin_, end_ - begin_);
    end_ -= begin_;
    scan_ -= begin_;
    begin_ = 0;
  }
  const size_t want = end_ + kChunk + kLinePadding;
  if (cap_ < want) grow(std::max(want, cap_ + cap_ / 2));
  auto n = source_->read(buf_.get() + end_, cap_ - kLinePadding - end_);
  if (!n) {
    error_ = n.take_error();
    error_.seq = static_cast<int64_t>(index_);
    return false;
  }
  if (*n == 0) {
    eof_ = true;
    return false;
  }
  end_ += *n;
  total_ += *n;
  std::memset(buf_.get() + end_, 0, kLinePadding);  // defined bytes past the last line
  return true;
}

LineReader::Status LineReader::next(Line* line) {
  for (;;) {
    const char* lf = static_cast<const char*>(std::memchr(buf_.get() + scan_, '\n', end_ - scan_));
    if (lf) {
      const size_t pos = static_cast<size_t>(lf - buf_.get());
      if (pos - begin_ > limits_.max_line_bytes) break;
      line->bytes = std::string_view(buf_.get() + begin_, pos - begin_);
      line->index = index_++;
      begin_ = scan_ = pos + 1;
      return Status::line;
    }
    scan_ = end_;
    if (end_ - begin_ > limits_.max_line_bytes) break;
    if (total_ > limits_.max_total_bytes) {
      return fail(Code::limit_total_bytes, "the trace exceeds " + std::to_string(limits_.max_total_bytes) +
                                               " bytes; raise --max-total-bytes");
    }
    if (!fill()) {
      if (!eof_) return Status::error;
      if (begin_ == end_) return Status::end;
      return fail(Code::missing_final_lf, "the last line has no LF: the record was cut");
    }
  }
  return fail(Code::limit_line_bytes, "line " + std::to_string(index_) + " is longer than " +
                                          std::to_string(limits_.max_line_bytes) +
                                          " bytes; raise --max-line-bytes");
}

}  // namespace goalcup
