#include "core/content_encoding.h"

#include <brotli/decode.h>
#include <zlib.h>
#include <zstd.h>

#include <algorithm>
#include <cctype>
#include <memory>
#include <vector>

namespace goalcup {
namespace {

constexpr size_t kStep = 64 << 10;  // output grows by this much at a time

std::string lower_trimmed(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// Grows `out` by a step (never past `max`); false once it is at the bound.
bool grow(std::string& out, size_t used, size_t max) {
  if (used >= max) return false;
  out.resize(std::min(max, used + kStep));
  return true;
}

// gzip (several members are one body, as HTTP clients read them), zlib or
// raw deflate (servers send both for "deflate").
ContentDecoding inflate_zlib(std::string_view in, int window_bits, size_t max, std::string& out) {
  z_stream z{};
  if (inflateInit2(&z, window_bits) != Z_OK) return ContentDecoding::corrupt;
  const std::unique_ptr<z_stream, int (*)(z_stream*)> end(&z, inflateEnd);
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  size_t used = 0;
  size_t left = in.size();
  for (;;) {
    if (used == out.size() && !grow(out, used, max)) return ContentDecoding::too_large;
    const uInt in_chunk = static_cast<uInt>(std::min<size_t>(left, 1u << 30));
    z.avail_in = in_chunk;
    z.next_out = reinterpret_cast<Bytef*>(out.data() + used);
    z.avail_out = static_cast<uInt>(out.size() - used);
    const uInt out_before = z.avail_out;
    const int rc = inflate(&z, Z_NO_FLUSH);
    left -= in_chunk - z.avail_in;
    used += out_before - z.avail_out;
    if (rc == Z_STREAM_END) {
      if (left == 0) break;
      if (inflateReset(&z) != Z_OK) return ContentDecoding::corrupt;  // the next gzip member
      continue;
    }
    if (rc == Z_BUF_ERROR && left == 0 && z.avail_out > 0) return ContentDecoding::corrupt;  // cut short
    if (rc != Z_OK && rc != Z_BUF_ERROR) return ContentDecoding::corrupt;
  }
  out.resize(used);
  return ContentDecoding::ok;
}

ContentDecoding inflate_zstd(std::string_view in, size_t max, std::string& out) {
  const std::unique_ptr<ZSTD_DCtx, size_t (*)(ZSTD_DCtx*)> d(ZSTD_createDCtx(), ZSTD_freeDCtx);
  if (!d) return ContentDecoding::corrupt;
  ZSTD_DCtx_setParameter(d.get(), ZSTD_d_windowLogMax, 27);  // as for traces (docs/LIMITS.md)
  ZSTD_inBuffer src{in.data(), in.size(), 0};
  size_t used = 0;
  size_t hint = 1;
  while (src.pos < src.size || hint != 0) {
    if (used == out.size() && !grow(out, used, max)) return ContentDecoding::too_large;
    ZSTD_outBuffer dst{out.data(), out.size(), used};
    hint = ZSTD_decompressStream(d.get(), &dst, &src);
    if (ZSTD_isError(hint)) return ContentDecoding::corrupt;
    const bool stalled = dst.pos == used && src.pos == src.size;
    used = dst.pos;
    if (stalled && hint != 0 && used < out.size()) return ContentDecoding::corrupt;  // cut short
  }
  out.resize(used);
  return ContentDecoding::ok;
}

ContentDecoding inflate_brotli(std::string_view in, size_t max, std::string& out) {
  const std::unique_ptr<BrotliDecoderState, void (*)(BrotliDecoderState*)> s(
      BrotliDecoderCreateInstance(nullptr, nullptr, nullptr), BrotliDecoderDestroyInstance);
  if (!s) return ContentDecoding::corrupt;
  size_t avail_in = in.size();
  const auto* next_in = reinterpret_cast<const uint8_t*>(in.data());
  size_t used = 0;
  for (;;) {
    if (used == out.size() && !grow(out, used, max)) return ContentDecoding::too_large;
    size_t avail_out = out.size() - used;
    auto* next_out = reinterpret_cast<uint8_t*>(out.data() + used);
    const BrotliDecoderResult rc =
        BrotliDecoderDecompressStream(s.get(), &avail_in, &next_in, &avail_out, &next_out, nullptr);
    used = out.size() - avail_out;
    if (rc == BROTLI_DECODER_RESULT_SUCCESS) break;
    if (rc != BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT) return ContentDecoding::corrupt;  // error, or cut short
  }
  if (avail_in != 0) return ContentDecoding::corrupt;  // bytes after the stream
  out.resize(used);
  return ContentDecoding::ok;
}

ContentDecoding undo(std::string_view coding, std::string_view in, size_t max, std::string& out) {
  out.clear();
  if (coding == "gzip" || coding == "x-gzip") return inflate_zlib(in, 16 + MAX_WBITS, max, out);
  if (coding == "deflate") {
    if (inflate_zlib(in, MAX_WBITS, max, out) == ContentDecoding::ok) return ContentDecoding::ok;
    out.clear();
    return inflate_zlib(in, -MAX_WBITS, max, out);
  }
  if (coding == "zstd") return inflate_zstd(in, max, out);
  if (coding == "br") return inflate_brotli(in, max, out);
  return ContentDecoding::unknown;
}

}  // namespace

DecodedContent decode_content(std::string_view bytes, std::string_view codings, size_t max_bytes) {
  std::vector<std::string> names;
  for (size_t start = 0; start <= codings.size();) {
    const size_t comma = std::min(codings.find(',', start), codings.size());
    std::string name = lower_trimmed(codings.substr(start, comma - start));
    if (!name.empty() && name != "identity") names.push_back(std::move(name));
    start = comma + 1;
  }
  DecodedContent d;
  if (names.size() > kMaxContentCodings) {
    // Each layer would be inflated in full: thousands of stored gzip layers
    // cost layers^2 bytes of work from a body that grows only with layers.
    d.status = ContentDecoding::too_many;
    d.coding = std::to_string(names.size()) + " codings";
    return d;
  }
  d.out.assign(bytes);
  std::string next;
  size_t budget = max_bytes;  // every layer's output is charged to it
  for (auto it = names.rbegin(); it != names.rend(); ++it) {
    d.status = undo(*it, d.out, budget, next);
    if (d.status != ContentDecoding::ok) {
      d.coding = *it;
      // Past the bound, the last coding's output so far is a true prefix.
      if (d.status == ContentDecoding::too_large && it + 1 == names.rend()) d.out.swap(next);
      else d.out.clear();
      return d;
    }
    if (it + 1 != names.rend()) budget -= next.size();  // an inner layer's bytes are spent
    d.out.swap(next);
  }
  return d;
}

}  // namespace goalcup
