#include "cheatcheck/secrets/decoders.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <optional>

#include <simdjson.h>
#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace goalcup::cheat {
namespace {

constexpr size_t kMinRun = 20;  // base64 of the shortest secrets we know (20 chars -> 28)

int hex(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

void put_utf8(uint32_t cp, std::string* out) {
  if (cp < 0x80) {
    out->push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out->push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out->push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out->push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

int u4(std::string_view s, size_t i) {
  if (i + 4 > s.size()) return -1;
  int v = 0;
  for (size_t k = 0; k < 4; ++k) {
    int h = hex(s[i + k]);
    if (h < 0) return -1;
    v = v * 16 + h;
  }
  return v;
}

// 0..63 for the base64 alphabets (standard and url), 64 for '=', 255 otherwise.
constexpr std::array<uint8_t, 256> kB64 = [] {
  std::array<uint8_t, 256> t{};
  t.fill(255);
  const char* std_alpha = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  for (uint8_t i = 0; i < 64; ++i) t[static_cast<uint8_t>(std_alpha[i])] = i;
  t['-'] = 62;
  t['_'] = 63;
  t['='] = 64;
  return t;
}();

// Valid UTF-8, mostly ASCII, almost no control bytes: what a secret and
// the text around it look like (random bytes do not).
bool looks_like_text(std::string_view s) {
  if (s.size() < 12 || !simdjson::validate_utf8(s.data(), s.size())) return false;
  size_t printable = 0, ascii = 0;
  for (unsigned char c : s) {
    ascii += c < 0x80;
    if ((c >= 0x20 && c < 0x7f) || c == '\n' || c == '\r' || c == '\t') ++printable;
  }
  return printable * 100 >= s.size() * 90 && ascii * 100 >= s.size() * 90;
}

}  // namespace

bool has_escapes(std::string_view in) {
  for (size_t p = in.find('\\'); p != std::string_view::npos; p = in.find('\\', p + 1)) {
    if (p + 1 < in.size() && (in[p + 1] == 'u' || in[p + 1] == '/' || in[p + 1] == 'x')) return true;
  }
  return false;
}

bool decode_escapes(std::string_view in, std::string* out, std::vector<uint32_t>* src) {
  out->clear();
  out->reserve(in.size());
  if (src) src->clear();
  auto mark = [&](size_t from) {
    if (src) src->resize(out->size(), static_cast<uint32_t>(from));
  };
  bool changed = false;
  for (size_t i = 0; i < in.size(); ++i) {
    if (in[i] != '\\' || i + 1 >= in.size()) {
      out->push_back(in[i]);
      mark(i);
      continue;
    }
    const char e = in[i + 1];
    int cp = -1;
    size_t used = 2;
    switch (e) {
      case 'n': cp = '\n'; break;
      case 't': cp = '\t'; break;
      case 'r': cp = '\r'; break;
      case '"': cp = '"'; break;
      case '\'': cp = '\''; break;
      case '\\': cp = '\\'; break;
      case '/': cp = '/'; break;
      case 'x':
        if (i + 3 < in.size() && hex(in[i + 2]) >= 0 && hex(in[i + 3]) >= 0) {
          cp = hex(in[i + 2]) * 16 + hex(in[i + 3]);
          used = 4;
        }
        break;
      case 'u': {
        cp = u4(in, i + 2);
        used = 6;
        if (cp >= 0xD800 && cp <= 0xDBFF && i + 12 <= in.size() && in.substr(i + 6, 2) == "\\u") {
          int lo = u4(in, i + 8);
          if (lo >= 0xDC00 && lo <= 0xDFFF) {
            cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
            used = 12;
          }
        }
        break;
      }
      default: break;
    }
    if (cp < 0) {
      out->push_back(in[i]);
      mark(i);
      continue;
    }
    put_utf8(static_cast<uint32_t>(cp), out);
    mark(i);
    i += used - 1;
    changed = true;
  }
  return changed;
}

bool decode_percent(std::string_view in, std::string* out, std::vector<uint32_t>* src) {
  if (in.find('%') == std::string_view::npos) return false;
  out->clear();
  out->reserve(in.size());
  if (src) src->clear();
  bool changed = false;
  for (size_t i = 0; i < in.size(); ++i) {
    if (src) src->push_back(static_cast<uint32_t>(i));
    if (in[i] == '%' && i + 2 < in.size() && hex(in[i + 1]) >= 0 && hex(in[i + 2]) >= 0) {
      out->push_back(static_cast<char>(hex(in[i + 1]) * 16 + hex(in[i + 2])));
      i += 2;
      changed = true;
    } else {
      out->push_back(in[i]);
    }
  }
  return changed;
}

std::string encode_base64_like(std::string_view bytes, std::string_view like) {
  static constexpr char kStd[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  const bool url = like.find_first_of("-_") != std::string_view::npos;
  const bool pad = !like.empty() && like.back() == '=';
  std::string out;
  uint32_t acc = 0;
  int bits = 0;
  for (unsigned char c : bytes) {
    acc = (acc << 8) | c;
    bits += 8;
    while (bits >= 6) {
      bits -= 6;
      out.push_back(kStd[(acc >> bits) & 63]);
    }
  }
  if (bits > 0) out.push_back(kStd[(acc << (6 - bits)) & 63]);
  if (url) {
    for (auto& c : out) c = c == '+' ? '-' : c == '/' ? '_' : c;
  }
  if (pad) {
    while (out.size() % 4) out.push_back('=');
  }
  return out;
}

namespace {

// Bit i set when p[i] is a base64 or base64url character (not '=').
uint64_t b64_mask_scalar(const uint8_t* p, size_t n) {
  uint64_t m = 0;
  for (size_t i = 0; i < n; ++i) m |= uint64_t{kB64[p[i]] < 64} << i;
  return m;
}

uint64_t b64_mask64_scalar(const uint8_t* p) { return b64_mask_scalar(p, 64); }

#if defined(__x86_64__)
// Classifies 32 bytes with two nibble lookups (as base64 validators do): a
// byte is in the alphabet when the group its high nibble selects is one its
// low nibble allows. Groups (bits): 1 = 0x2_ (+ - /), 2 = 0x3_ (digits),
// 4 = 0x4_ and 0x6_ (letters from 1), 8 = 0x5_ (letters to A, and _),
// 16 = 0x7_ (letters to A).
__attribute__((target("avx2"))) inline uint32_t b64_mask32_avx2(const uint8_t* q) {
  constexpr char kD = 2 | 4 | 8 | 16;  // low nibble 1-9: digits and letters
  const __m256i by_hi = _mm256_setr_epi8(0, 0, 1, 2, 4, 8, 4, 16, 0, 0, 0, 0, 0, 0, 0, 0,  //
                                         0, 0, 1, 2, 4, 8, 4, 16, 0, 0, 0, 0, 0, 0, 0, 0);
  const __m256i by_lo = _mm256_setr_epi8(2 | 8 | 16, kD, kD, kD, kD, kD, kD, kD, kD, kD, 4 | 8 | 16, 1 | 4, 4, 1 | 4, 4,
                                         1 | 4 | 8,  //
                                         2 | 8 | 16, kD, kD, kD, kD, kD, kD, kD, kD, kD, 4 | 8 | 16, 1 | 4, 4, 1 | 4, 4,
                                         1 | 4 | 8);
  const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(q));
  const __m256i nibble = _mm256_set1_epi8(0x0F);
  const __m256i hi = _mm256_shuffle_epi8(by_hi, _mm256_and_si256(_mm256_srli_epi16(v, 4), nibble));
  const __m256i lo = _mm256_shuffle_epi8(by_lo, _mm256_and_si256(v, nibble));
  const __m256i outside = _mm256_cmpeq_epi8(_mm256_and_si256(hi, lo), _mm256_setzero_si256());
  return ~static_cast<uint32_t>(_mm256_movemask_epi8(outside));
}

__attribute__((target("avx2"))) inline uint64_t b64_mask64_avx2(const uint8_t* p) {
  return uint64_t{b64_mask32_avx2(p)} | (uint64_t{b64_mask32_avx2(p + 32)} << 32);
}
const bool kHasAvx2 = __builtin_cpu_supports("avx2");
#endif

constexpr unsigned kMinCore = kMinRun - 2;  // up to two '=' may make up the rest

// Bits i of `m` where bits i..i+17 are all set: the starts of runs long
// enough to matter, with no branch (text makes branches on bits random).
inline uint64_t long_run_starts(uint64_t m) {
  static_assert(kMinCore == 18);
  m &= m >> 1;  // runs of 2
  m &= m >> 2;  // 4
  m &= m >> 4;  // 8
  m &= m >> 8;  // 16
  return m & (m >> 2);  // 18
}

// Classifies 64 bytes at a time. A block whose runs are all too short for a
// secret (ordinary words, short numbers) costs a few word operations; only
// long runs are walked. A run reaching the end of a block is carried into
// the next. Inlined into each instruction-set variant below.
template <uint64_t (*Mask64)(const uint8_t*)>
__attribute__((always_inline)) inline void find_runs(std::string_view in, std::vector<Run>* runs) {
  runs->clear();
  const auto* p = reinterpret_cast<const uint8_t*>(in.data());
  const size_t n = in.size();
  auto emit = [&](size_t start, size_t end) {
    if (end - start + 2 < kMinRun) return;
    size_t padded = end;
    while (padded < n && padded - end < 2 && p[padded] == '=') ++padded;
    if (padded - start >= kMinRun) runs->push_back({start, padded - start});
  };
  size_t carry = 0, carry_start = 0;  // the run that reached the end of the last block
  for (size_t base = 0; base < n; base += 64) {
    const size_t len = std::min<size_t>(64, n - base);
    uint64_t m = len == 64 ? Mask64(p + base) : b64_mask_scalar(p + base, len);
    if (m == ~0ull) {
      if (carry == 0) carry_start = base;
      carry += 64;
      continue;
    }
    const unsigned lead = static_cast<unsigned>(std::countr_one(m));  // < 64
    if (carry + lead >= kMinCore && carry > 0) emit(carry_start, base + lead);
    m &= ~(((1ull << lead) - 1) & (0 - uint64_t{carry > 0}));  // the carried run is done
    const unsigned top = static_cast<unsigned>(std::countl_one(m));  // < 64
    const uint64_t inner = m & (~0ull >> top);
    for (uint64_t starts = long_run_starts(inner); starts;) {
      const unsigned s = static_cast<unsigned>(std::countr_zero(starts));
      const unsigned run = static_cast<unsigned>(std::countr_one(inner >> s));
      emit(base + s, base + s + run);
      starts &= s + run >= 64 ? 0 : ~0ull << (s + run);
    }
    carry = top;
    carry_start = base + 64 - top;
  }
  if (carry > 0) emit(carry_start, n);  // a run that reaches the end of the text
}

#if defined(__x86_64__)
__attribute__((target("avx2"))) void find_runs_avx2(std::string_view in, std::vector<Run>* runs) {
  find_runs<b64_mask64_avx2>(in, runs);
}
#endif

}  // namespace

void find_base64_runs(std::string_view in, std::vector<Run>* runs) {
#if defined(__x86_64__)
  if (kHasAvx2) return find_runs_avx2(in, runs);
#endif
  find_runs<b64_mask64_scalar>(in, runs);
}

namespace {

constexpr size_t kMaxLineBreak = 256;  // a line break and its indentation, at most

bool base64_char(char c) { return kB64[static_cast<uint8_t>(c)] < 64; }

// Where the next line's text starts when `p` is followed by exactly one line
// break (LF, CR LF, or the escapes \n and \r\n, their backslashes doubled
// at any depth of JSON) and indentation (spaces, tabs, \t); npos otherwise.
size_t after_line_break(std::string_view in, size_t p) {
  const size_t limit = std::min(in.size(), p + kMaxLineBreak);
  bool broke = false;
  while (p < limit) {
    const char c = in[p];
    if (c == ' ' || c == '\t' || c == '\r') {
      ++p;
    } else if (c == '\n') {
      if (broke) return std::string_view::npos;  // a blank line ends a block
      broke = true;
      ++p;
    } else if (c == '\\') {
      while (p < limit && in[p] == '\\') ++p;
      if (p == limit || (in[p] != 'n' && in[p] != 'r' && in[p] != 't')) return std::string_view::npos;
      if (in[p] == 'n') {
        if (broke) return std::string_view::npos;
        broke = true;
      }
      ++p;
    } else {
      break;
    }
  }
  return broke && p < limit ? p : std::string_view::npos;
}

// The wrapped run whose first line is `first` (a run of find_base64_runs'),
// if the lines after it continue it.
std::optional<Run> wrapped_from(std::string_view in, Run first) {
  size_t start = first.start, width = first.length;
  // "\nQUJD..." reads as the run "nQUJD...": the escape's letter is not the line's.
  if (start > 0 && in[start - 1] == '\\' && (in[start] == 'n' || in[start] == 'r' || in[start] == 't')) {
    ++start;
    --width;
  }
  if (width < kMinRun || width % 4 != 0 || width > UINT32_MAX || in[start + width - 1] == '=') return std::nullopt;
  size_t end = start + width, lines = 1;
  for (;;) {
    const size_t next = after_line_break(in, end);
    if (next == std::string_view::npos) break;
    size_t n = 0, pad = 0;
    while (next + n < in.size() && n <= width && base64_char(in[next + n])) ++n;
    while (pad < 2 && next + n + pad < in.size() && in[next + n + pad] == '=') ++pad;
    if (n == 0 || n + pad > width) break;
    end = next + n + pad;
    ++lines;
    if (n < width || pad > 0) break;  // the last line
  }
  if (lines < 2) return std::nullopt;
  return Run{start, end - start, static_cast<uint32_t>(width), 0};
}

}  // namespace

void add_wrapped_base64_runs(std::string_view in, std::vector<Run>* runs) {
  std::vector<Run> out;  // made at the first wrapped run: most texts have none
  size_t covered = 0;    // the end of the last wrapped run: its lines start none
  for (size_t i = 0; i < runs->size(); ++i) {
    const Run r = (*runs)[i];
    std::optional<Run> w;
    if (r.start >= covered) w = wrapped_from(in, r);
    if (w) {
      covered = w->start + w->length;
      size_t j = i;
      while (j < runs->size() && (*runs)[j].start < covered) ++j;
      w->pieces = static_cast<uint32_t>(j - i);
      if (out.empty()) out.assign(runs->begin(), runs->begin() + static_cast<std::ptrdiff_t>(i));
      out.push_back(*w);
    }
    if (!out.empty()) out.push_back(r);
  }
  if (!out.empty()) *runs = std::move(out);
}

std::string_view base64_chars(std::string_view in, const Run& run, std::string* joined) {
  const std::string_view s = in.substr(run.start, run.length);
  if (run.width == 0) return s;
  joined->clear();
  joined->reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\\') {  // an escaped line break or tab: its backslashes, then (by the loop) its letter
      while (i + 1 < s.size() && s[i + 1] == '\\') ++i;
      ++i;
      continue;
    }
    if (kB64[static_cast<uint8_t>(s[i])] <= 64) joined->push_back(s[i]);
  }
  return *joined;
}

std::string wrap_like(std::string_view encoded, std::string_view in, const Run& like) {
  if (like.width == 0) return std::string(encoded);
  const size_t first_end = like.start + like.width;
  const size_t next = after_line_break(in, first_end);
  const std::string_view separator =
      next == std::string_view::npos ? std::string_view("\n") : in.substr(first_end, next - first_end);
  std::string out;
  out.reserve(encoded.size() + encoded.size() / like.width * separator.size() + separator.size());
  for (size_t at = 0; at < encoded.size(); at += like.width) {
    if (at > 0) out.append(separator);
    out.append(encoded.substr(at, like.width));
  }
  return out;
}

bool decode_base64_text(std::string_view run, std::string* out) {
  out->clear();
  // looks_like_text allows one byte in ten outside printable ASCII; random
  // bytes (signatures, digests, paths read as base64) exceed that within a
  // few bytes, so decoding stops there instead of at the end of the run.
  const size_t most = run.size() * 3 / 4;
  if (most < 12) return false;
  const size_t allowed_bad = most / 10;
  size_t bad = 0;
  bool std_chars = false, url_chars = false, all_hex = true;
  uint32_t acc = 0;
  int bits = 0;
  out->reserve(most);
  for (unsigned char c : run) {
    const uint8_t v = kB64[c];
    if (v == 64) break;  // padding ends it
    if (v == 255) return false;
    std_chars |= c == '+' || c == '/';
    url_chars |= c == '-' || c == '_';
    if (std_chars && url_chars) return false;  // neither alphabet: a path, a slug
    all_hex &= hex(static_cast<char>(c)) >= 0;
    acc = (acc << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      const auto b = static_cast<unsigned char>((acc >> bits) & 0xFF);
      out->push_back(static_cast<char>(b));
      const bool printable = (b >= 0x20 && b < 0x7f) || b == '\n' || b == '\r' || b == '\t';
      if (!printable && ++bad > allowed_bad) return false;
    }
  }
  // Hex (digests, ids) is hex: read as base64 it spells no text a secret
  // rule could match (a known prefix such as "sk-", "gh", "AKIA", "xox" or
  // "password" cannot encode to hex digits).
  if (all_hex) return false;
  return looks_like_text(*out);
}

}  // namespace goalcup::cheat
