// Streaming zstd: several frames, skippable frames, frames split anywhere.
// Bounded by a window cap (a frame declaring a huge window is refused before
// any allocation) and a ratio cap (a small bomb cannot inflate unseen).
#include <zstd.h>
#include <zstd_errors.h>

#include <cstring>
#include <optional>
#include <string_view>
#include <vector>

#include "core/owned.h"
#include "core/source.h"
#include "core/source_internal.h"

namespace goalcup {
namespace {

class ZstdSource final : public ByteSource {
 public:
  ZstdSource(std::unique_ptr<ByteSource> inner, const Limits& limits, std::shared_ptr<UploadBudget> budget,
             ZstdCounts counts)
      : inner_(std::move(inner)), limits_(limits), budget_(std::move(budget)), dctx_(ZSTD_createDCtx()),
        in_buf_(ZSTD_DStreamInSize()), consumed_(counts.consumed), produced_(counts.produced) {
    if (!dctx_) {
      setup_error_ = Error{Code::internal_error, -1, "zstd: cannot create a decompression context"};
      return;
    }
    // Without the window cap a frame could make zstd allocate what it declares.
    const size_t r = ZSTD_DCtx_setParameter(dctx_.get(), ZSTD_d_windowLogMax, static_cast<int>(limits.max_zstd_window_log));
    if (ZSTD_isError(r)) setup_error_ = zstd_error(r);
  }
  std::optional<Error> cut() const override { return cut_; }

  Result<size_t> read(char* buf, size_t cap) override {
    if (setup_error_) return *setup_error_;
    ZSTD_outBuffer out{buf, cap, 0};
    for (;;) {
      if (in_.pos == in_.size && !eof_ && !pending_output_) {
        GOALCUP_ASSIGN_OR_RETURN(const size_t n, inner_->read(in_buf_.data(), in_buf_.size()));
        in_ = ZSTD_inBuffer{in_buf_.data(), n, 0};
        eof_ = n == 0;
      }
      if (in_.pos == in_.size && eof_ && !pending_output_) {
        // A recorder that dies leaves its last frame open: what was flushed
        // before is the trace, cut there.
        if (frame_open_ && !cut_) {
          cut_ = Error{Code::zstd_truncated, -1, "the zstd stream ends inside a frame: the file was cut, and is "
                                                 "judged as far as it goes"};
        }
        return size_t{0};
      }
      const size_t before = in_.pos, out_before = out.pos;
      const size_t r = ZSTD_decompressStream(dctx_.get(), &out, &in_);
      if (ZSTD_isError(r)) return zstd_error(r);
      consumed_ += in_.pos - before;
      produced_ += out.pos;
      // A call that moved nothing leaves the frame as it was: after a frame
      // ended on a full buffer, the next call only asks for a new header.
      if (in_.pos != before || out.pos != out_before) frame_open_ = r != 0;
      pending_output_ = out.pos == out.size;  // the decoder may hold more
      if (produced_ > kZstdRatioSlack + uint64_t{limits_.max_zstd_ratio} * consumed_) {
        return Error{Code::limit_zstd_ratio, -1,
                     "zstd output exceeds " + std::to_string(limits_.max_zstd_ratio) +
                         "x its input (a decompression bomb?); raise --max-zstd-ratio to read it"};
      }
      if (budget_) {
        GOALCUP_RETURN_IF_ERROR(budget_->add_inflated(out.pos));
      }
      if (out.pos > 0) return out.pos;
    }
  }

 private:
  Error zstd_error(size_t r) const {
    if (ZSTD_getErrorCode(r) == ZSTD_error_frameParameter_windowTooLarge) {
      return Error{Code::limit_zstd_window, -1,
                   "a zstd frame declares a window above 2^" +
                       std::to_string(limits_.max_zstd_window_log) + " bytes; raise --max-zstd-window-log"};
    }
    return Error{Code::zstd_error, -1, std::string("zstd: ") + ZSTD_getErrorName(r)};
  }

  std::unique_ptr<ByteSource> inner_;
  Limits limits_;
  std::shared_ptr<UploadBudget> budget_;
  Owned<ZSTD_DCtx, &ZSTD_freeDCtx> dctx_;
  std::optional<Error> setup_error_;  // the context could not be made or capped
  std::vector<char> in_buf_;
  ZSTD_inBuffer in_{nullptr, 0, 0};
  bool eof_ = false;
  bool frame_open_ = false;
  bool pending_output_ = false;
  std::optional<Error> cut_;
  uint64_t consumed_ = 0;
  uint64_t produced_ = 0;
};

class PrefixedSource final : public ByteSource {
 public:
  PrefixedSource(std::string prefix, std::unique_ptr<ByteSource> inner)
      : prefix_(std::move(prefix)), inner_(std::move(inner)) {}
  Result<size_t> read(char* buf, size_t cap) override {
    if (pos_ < prefix_.size()) {
      size_t n = std::min(cap, prefix_.size() - pos_);
      std::memcpy(buf, prefix_.data() + pos_, n);
      pos_ += n;
      return n;
    }
    return inner_->read(buf, cap);
  }
  std::optional<Error> cut() const override { return inner_->cut(); }
  void use_threads(unsigned threads) override { inner_->use_threads(threads); }

 private:
  std::string prefix_;
  size_t pos_ = 0;
  std::unique_ptr<ByteSource> inner_;
};

bool is_zstd_magic(const std::string& p) {
  if (p.size() < 4) return false;
  uint32_t m = 0;  // the magic is little-endian
  for (int i = 3; i >= 0; --i) m = (m << 8) | static_cast<uint8_t>(p[static_cast<size_t>(i)]);
  return m == ZSTD_MAGICNUMBER || (m & ZSTD_MAGIC_SKIPPABLE_MASK) == ZSTD_MAGIC_SKIPPABLE_START;
}

// Another compressor's magic at the start of an upload (or of a tar
// member): a trace line starts with '{', so these are never a trace, and
// reading such bytes as lines would call an honest upload malformed.
std::optional<std::string_view> other_compression(const std::string& p) {
  struct Magic {
    std::string_view bytes, name;
  };
  static constexpr Magic kMagics[] = {{"\x1f\x8b", "gzip"},
                                      {"BZh", "bzip2"},
                                      {"\xfd" "7zXZ", "xz"},
                                      {"PK\x03\x04", "zip"},
                                      {"7z\xbc\xaf", "7-Zip"},
                                      {"\x04\x22\x4d\x18", "lz4"}};
  for (const Magic& m : kMagics) {
    if (std::string_view(p).starts_with(m.bytes)) return m.name;
  }
  return std::nullopt;
}

}  // namespace

std::unique_ptr<ByteSource> zstd_stream_source(std::unique_ptr<ByteSource> inner, const Limits& limits,
                                               std::shared_ptr<UploadBudget> budget, ZstdCounts counts) {
  return std::make_unique<ZstdSource>(std::move(inner), limits, std::move(budget), counts);
}

std::unique_ptr<ByteSource> zstd_source(std::unique_ptr<ByteSource> inner, const Limits& limits,
                                        std::shared_ptr<UploadBudget> budget) {
  return framed_zstd_source(std::move(inner), limits, std::move(budget));
}

std::unique_ptr<ByteSource> prefixed_source(std::string prefix, std::unique_ptr<ByteSource> inner) {
  return std::make_unique<PrefixedSource>(std::move(prefix), std::move(inner));
}

Result<std::string> read_prefix(ByteSource& src, size_t n) {
  std::string out(n, '\0');
  size_t have = 0;
  while (have < n) {
    GOALCUP_ASSIGN_OR_RETURN(const size_t got, src.read(out.data() + have, n - have));
    if (got == 0) break;
    have += got;
  }
  out.resize(have);
  return out;
}

Result<std::unique_ptr<ByteSource>> sniff_compression(std::unique_ptr<ByteSource> inner,
                                                      const Limits& limits, bool* is_zstd,
                                                      std::shared_ptr<UploadBudget> budget) {
  GOALCUP_ASSIGN_OR_RETURN(std::string bytes, read_prefix(*inner, 6));  // the longest magic below
  *is_zstd = is_zstd_magic(bytes);
  if (auto other = other_compression(bytes)) {
    return Error{Code::unsupported_format, -1,
                 "the bytes are " + std::string(*other) +
                     "-compressed: traces are read as .jsonl, .jsonl.zst, or a .tar or .tar.zst holding one; "
                     "decompress it (or recompress with zstd) first"};
  }
  auto src = prefixed_source(std::move(bytes), std::move(inner));
  if (*is_zstd) return zstd_source(std::move(src), limits, std::move(budget));
  return src;
}

}  // namespace goalcup
