// HTTP content codings of wire bodies: each coding undone, a bomb stopped at
// the bound, damaged and unknown codings said, never guessed.
#include "core/content_encoding.h"

#include <brotli/encode.h>
#include <gtest/gtest.h>
#include <zlib.h>
#include <zstd.h>

#include <chrono>
#include <string>

namespace goalcup {
namespace {

std::string deflated(std::string_view text, int window_bits, int level = 6) {
  z_stream z{};
  EXPECT_EQ(deflateInit2(&z, level, Z_DEFLATED, window_bits, 8, Z_DEFAULT_STRATEGY), Z_OK);
  std::string out(deflateBound(&z, static_cast<uLong>(text.size())) + 32, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
  z.avail_in = static_cast<uInt>(text.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  EXPECT_EQ(deflate(&z, Z_FINISH), Z_STREAM_END);
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}
std::string gzip(std::string_view text) { return deflated(text, 16 + MAX_WBITS); }

std::string zstd(std::string_view text) {
  std::string out(ZSTD_compressBound(text.size()), '\0');
  out.resize(ZSTD_compress(out.data(), out.size(), text.data(), text.size(), 3));
  return out;
}

std::string brotli(std::string_view text) {
  size_t n = BrotliEncoderMaxCompressedSize(text.size());
  std::string out(n, '\0');
  EXPECT_TRUE(BrotliEncoderCompress(BROTLI_DEFAULT_QUALITY, BROTLI_DEFAULT_WINDOW, BROTLI_MODE_TEXT, text.size(),
                                    reinterpret_cast<const uint8_t*>(text.data()), &n,
                                    reinterpret_cast<uint8_t*>(out.data())));
  out.resize(n);
  return out;
}

constexpr std::string_view kBody = R"({"model":"claude-sonnet-4-5","messages":[{"role":"user","content":"Make it twice as fast"}]})";

TEST(ContentEncoding, EachCodingIsUndone) {
  for (const auto& [coding, bytes] : {std::pair<std::string, std::string>{"gzip", gzip(kBody)},
                                      {"x-gzip", gzip(kBody)},
                                      {"deflate", deflated(kBody, MAX_WBITS)},
                                      {"deflate", deflated(kBody, -MAX_WBITS)},  // raw, as some servers send it
                                      {"zstd", zstd(kBody)},
                                      {"br", brotli(kBody)},
                                      {" GZIP ", gzip(kBody)}}) {
    const DecodedContent d = decode_content(bytes, coding, 1 << 20);
    EXPECT_EQ(d.status, ContentDecoding::ok) << coding;
    EXPECT_EQ(d.out, kBody) << coding;
  }
}

TEST(ContentEncoding, CodingsAreUndoneLastFirstAndIdentityIsNone) {
  const DecodedContent two = decode_content(gzip(zstd(kBody)), "zstd, gzip", 1 << 20);
  EXPECT_EQ(two.status, ContentDecoding::ok);
  EXPECT_EQ(two.out, kBody);
  EXPECT_EQ(decode_content(kBody, "identity", 1 << 20).out, kBody);
  // Two gzip members are one body, as HTTP clients read them.
  const DecodedContent members = decode_content(gzip("abc") + gzip("def"), "gzip", 1 << 20);
  EXPECT_EQ(members.status, ContentDecoding::ok);
  EXPECT_EQ(members.out, "abcdef");
}

TEST(ContentEncoding, DamagedCutAndUnknownCodingsAreSaid) {
  std::string cut = gzip(kBody);
  cut.resize(cut.size() / 2);
  EXPECT_EQ(decode_content(cut, "gzip", 1 << 20).status, ContentDecoding::corrupt);
  std::string zcut = zstd(kBody);
  zcut.resize(zcut.size() - 3);
  EXPECT_EQ(decode_content(zcut, "zstd", 1 << 20).status, ContentDecoding::corrupt);
  std::string bcut = brotli(kBody);
  bcut.resize(bcut.size() / 2);
  EXPECT_EQ(decode_content(bcut, "br", 1 << 20).status, ContentDecoding::corrupt);
  EXPECT_EQ(decode_content(kBody, "gzip", 1 << 20).status, ContentDecoding::corrupt);  // plain text is no gzip
  EXPECT_EQ(decode_content(brotli(kBody) + "tail", "br", 1 << 20).status, ContentDecoding::corrupt);
  const DecodedContent unknown = decode_content(kBody, "compress", 1 << 20);
  EXPECT_EQ(unknown.status, ContentDecoding::unknown);
  EXPECT_EQ(unknown.coding, "compress");
  EXPECT_EQ(decode_content("", "zstd", 1 << 20).status, ContentDecoding::corrupt);
}

TEST(ContentEncoding, ABombStopsAtTheBoundWithItsPrefix) {
  const std::string zeros(16 << 20, '0');
  for (const auto& [coding, bytes] : {std::pair<std::string, std::string>{"gzip", gzip(zeros)},
                                      {"zstd", zstd(zeros)},
                                      {"br", brotli(zeros)}}) {
    ASSERT_LT(bytes.size(), 1u << 20) << coding;
    const DecodedContent d = decode_content(bytes, coding, 1 << 20);
    EXPECT_EQ(d.status, ContentDecoding::too_large) << coding;
    EXPECT_EQ(d.out, std::string(1 << 20, '0')) << coding;
  }
}

// Thousands of stored (level 0) gzip layers: each is about as large as the
// body, so undoing all of them cost layers^2 bytes of work (16000 layers, a
// 1.1 MB trace: 4.35 s; review 18 #4). More codings than any server stacks
// are refused, none undone; a few still are, all charged to one bound.
std::string stored_gzip(std::string_view text) { return deflated(text, 16 + MAX_WBITS, 0); }

TEST(ContentEncoding, StackedCodingsPastAFewAreRefused) {
  std::string bytes(kBody);
  std::string header;
  for (size_t k = 0; k < 5000; ++k) {
    bytes = stored_gzip(bytes);
    header += k == 0 ? "gzip" : ", gzip";
  }
  const auto start = std::chrono::steady_clock::now();
  const DecodedContent many = decode_content(bytes, header, 32u << 20);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2));
  EXPECT_EQ(many.status, ContentDecoding::too_many);
  EXPECT_EQ(many.coding, "5000 codings");
  EXPECT_TRUE(many.out.empty());

  std::string four(kBody);
  for (int k = 0; k < 4; ++k) four = stored_gzip(four);
  const DecodedContent d = decode_content(four, "gzip, identity, gzip,gzip, GZIP", 1 << 20);
  EXPECT_EQ(d.status, ContentDecoding::ok);
  EXPECT_EQ(d.out, kBody);
  EXPECT_EQ(decode_content(stored_gzip(four), "gzip, gzip, gzip, gzip, gzip", 1 << 20).status,
            ContentDecoding::too_many);
}

TEST(ContentEncoding, EveryLayerIsChargedToOneBound) {
  const std::string text(600 << 10, 'a');
  const std::string twice = stored_gzip(stored_gzip(text));  // each layer about as large as the text
  EXPECT_EQ(decode_content(twice, "gzip, gzip", 2 << 20).out, text);
  // 600 KiB of inner layer and 600 KiB of content: past a 1 MiB bound,
  // where each layer alone would pass it.
  const DecodedContent d = decode_content(twice, "gzip, gzip", 1 << 20);
  EXPECT_EQ(d.status, ContentDecoding::too_large);
  EXPECT_LT(d.out.size(), text.size());
  EXPECT_EQ(d.out, text.substr(0, d.out.size()));
}

}  // namespace
}  // namespace goalcup
