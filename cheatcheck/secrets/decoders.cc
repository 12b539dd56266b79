#include "cheatcheck/secrets/decoders.h"

#include <array>
#include <cstring>

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

#if defined(__x86_64__)
__attribute__((target("avx2"))) inline __m256i in_range(__m256i v, char lo, char hi) {
  return _mm256_and_si256(_mm256_cmpgt_epi8(v, _mm256_set1_epi8(static_cast<char>(lo - 1))),
                          _mm256_cmpgt_epi8(_mm256_set1_epi8(static_cast<char>(hi + 1)), v));
}

__attribute__((target("avx2"))) uint32_t b64_mask32_avx2(const uint8_t* q) {
  const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(q));
  __m256i m = _mm256_or_si256(_mm256_or_si256(in_range(v, 'A', 'Z'), in_range(v, 'a', 'z')), in_range(v, '0', '9'));
  m = _mm256_or_si256(m, _mm256_cmpeq_epi8(v, _mm256_set1_epi8('+')));
  m = _mm256_or_si256(m, _mm256_cmpeq_epi8(v, _mm256_set1_epi8('/')));
  m = _mm256_or_si256(m, _mm256_cmpeq_epi8(v, _mm256_set1_epi8('-')));
  m = _mm256_or_si256(m, _mm256_cmpeq_epi8(v, _mm256_set1_epi8('_')));
  return static_cast<uint32_t>(_mm256_movemask_epi8(m));
}

uint64_t b64_mask_avx2(const uint8_t* p) {
  return uint64_t{b64_mask32_avx2(p)} | (uint64_t{b64_mask32_avx2(p + 32)} << 32);
}
const bool kHasAvx2 = __builtin_cpu_supports("avx2");
#endif

uint64_t b64_mask64(const uint8_t* p) {
#if defined(__x86_64__)
  if (kHasAvx2) return b64_mask_avx2(p);
#endif
  return b64_mask_scalar(p, 64);
}

}  // namespace

// Classifies 64 bytes at a time and walks runs of set bits, so that text
// made of short words costs a few operations per word, not per byte.
void find_base64_runs(std::string_view in, std::vector<Run>* runs) {
  runs->clear();
  const auto* p = reinterpret_cast<const uint8_t*>(in.data());
  const size_t n = in.size();
  constexpr size_t kNone = SIZE_MAX;
  size_t open = kNone;  // start of a run that reaches the end of the last block
  auto emit = [&](size_t start, size_t end) {
    if (end - start + 2 < kMinRun) return;
    size_t padded = end;
    while (padded < n && padded - end < 2 && p[padded] == '=') ++padded;
    if (padded - start >= kMinRun) runs->push_back({start, padded - start});
  };
  for (size_t base = 0; base < n; base += 64) {
    const size_t len = std::min<size_t>(64, n - base);
    uint64_t m = len == 64 ? b64_mask64(p + base) : b64_mask_scalar(p + base, len);
    const uint64_t valid = len == 64 ? ~0ull : (1ull << len) - 1;
    if (open != kNone) {
      const uint64_t zeros = ~m & valid;
      if (!zeros) continue;  // the run goes on through this block (emitted after the loop)
      const unsigned ones = static_cast<unsigned>(__builtin_ctzll(zeros));
      emit(open, base + ones);
      open = kNone;
      m &= ones == 64 ? 0 : ~0ull << ones;
    }
    while (m) {
      const unsigned s = static_cast<unsigned>(__builtin_ctzll(m));
      const uint64_t rest = ~(m >> s) & (valid >> s);
      if (!rest) {  // reaches the end of the block: maybe the next one too
        open = base + s;
        break;
      }
      const unsigned run = static_cast<unsigned>(__builtin_ctzll(rest));
      emit(base + s, base + s + run);
      m &= run + s >= 64 ? 0 : ~0ull << (s + run);
    }
  }
  if (open != kNone) emit(open, n);  // a run that reaches the end of the text
}

bool decode_base64_text(std::string_view run, std::string* out) {
  out->clear();
  bool std_chars = false, url_chars = false;
  uint32_t acc = 0;
  int bits = 0;
  for (unsigned char c : run) {
    const uint8_t v = kB64[c];
    if (v == 64) break;  // padding ends it
    if (c == '+' || c == '/') std_chars = true;
    if (c == '-' || c == '_') url_chars = true;
    acc = (acc << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out->push_back(static_cast<char>((acc >> bits) & 0xFF));
    }
  }
  if (std_chars && url_chars) return false;
  return looks_like_text(*out);
}

}  // namespace goalcup::cheat
