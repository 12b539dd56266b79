#include "core/json_strict.h"

#include <algorithm>
#include <charconv>
#include <vector>

#include "core/lines.h"

namespace goalcup {

static_assert(kLinePadding >= simdjson::SIMDJSON_PADDING);

namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// RFC 8259: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
bool is_json_number(std::string_view t) {
  size_t i = 0;
  auto digits = [&] {
    const size_t from = i;
    while (i < t.size() && is_digit(t[i])) ++i;
    return i > from;
  };
  if (i < t.size() && t[i] == '-') ++i;
  if (i < t.size() && t[i] == '0') {
    ++i;
  } else if (!digits()) {
    return false;
  }
  if (i < t.size() && t[i] == '.' && (++i, !digits())) return false;
  if (i < t.size() && (t[i] == 'e' || t[i] == 'E')) {
    ++i;
    if (i < t.size() && (t[i] == '+' || t[i] == '-')) ++i;
    if (!digits()) return false;
  }
  return i == t.size();
}

// Whether simdjson's DOM holds this number: integers in 64 bits, others
// as a finite double.
bool fits_simdjson(std::string_view t) {
  const char* end = t.data() + t.size();
  if (t.find_first_of(".eE") == std::string_view::npos) {
    if (t.front() == '-') {
      int64_t v = 0;
      return std::from_chars(t.data(), end, v).ec == std::errc();
    }
    uint64_t v = 0;
    return std::from_chars(t.data(), end, v).ec == std::errc();
  }
  double v = 0;
  return std::from_chars(t.data(), end, v).ec == std::errc();
}

// The UTF-16 unit a "\uXXXX" escape at s[i] stands for, or -1.
int escaped_unit(std::string_view s, size_t i) {
  if (i + 6 > s.size() || s[i] != '\\' || s[i + 1] != 'u') return -1;
  int unit = 0;
  for (size_t k = i + 2; k < i + 6; ++k) {
    const char c = s[k];
    const char lower = static_cast<char>(c | 0x20);
    if (is_digit(c)) {
      unit = unit * 16 + (c - '0');
    } else if (lower >= 'a' && lower <= 'f') {
      unit = unit * 16 + (lower - 'a' + 10);
    } else {
      return -1;
    }
  }
  return unit;
}

bool is_surrogate(int unit) { return unit >= 0xD800 && unit <= 0xDFFF; }

// `s` rewritten, at the same length, into what simdjson's DOM can hold:
// each valid number it cannot (an integer beyond 64 bits, 1e400) becomes
// "0.0" and spaces, so that member is no integer; each escaped lone
// surrogate (RFC 8259's grammar allows "\ud800", which JSON.stringify and
// Python's json write for a cut or undecodable string) becomes "\ufffd",
// the replacement character. nullopt when there is neither.
std::optional<std::string> simdjson_readable(std::string_view s) {
  std::optional<std::string> out;
  auto rewrite = [&](size_t at, size_t n, const std::string& with) {
    if (!out) out.emplace(s);
    out->replace(at, n, with);
  };
  size_t i = 0;
  while (i < s.size()) {
    const char c = s[i];
    if (c == '"') {
      for (++i; i < s.size() && s[i] != '"'; ++i) {
        if (s[i] != '\\') continue;
        const int unit = escaped_unit(s, i);
        if (!is_surrogate(unit)) {
          ++i;  // the escaped character
          continue;
        }
        const int next = escaped_unit(s, i + 6);
        if (unit <= 0xDBFF && next >= 0xDC00 && next <= 0xDFFF) {
          i += 11;  // a proper pair
          continue;
        }
        rewrite(i, 6, "\\ufffd");
        i += 5;
      }
      ++i;
    } else if (c == '-' || is_digit(c)) {
      const size_t end = std::min(s.find_first_not_of("+-.0123456789eE", i), s.size());
      const std::string_view token = s.substr(i, end - i);
      if (token.size() >= 3 && is_json_number(token) && !fits_simdjson(token)) {
        rewrite(i, token.size(), "0.0" + std::string(token.size() - 3, ' '));
      }
      i = end;
    } else {
      ++i;
    }
  }
  return out;
}

}  // namespace

StrictJsonParser::StrictJsonParser(const Limits& limits) : parser_(limits.max_line_bytes + 1), max_depth_(limits.max_depth) {
  // simdjson's bound is not the format's: at max_depth it refuses a
  // container holding a value yet accepts one more empty container. So it
  // gets one level more, and the strict walk (below) holds the format's
  // bound, the root being depth 1.
  // An allocation failure here resurfaces as MEMALLOC on the first parse.
  if (parser_.allocate(1 << 16, size_t{limits.max_depth} + 1) != simdjson::SUCCESS) return;
}

Result<simdjson::dom::element> StrictJsonParser::parse_padded(std::string_view bytes, int64_t seq) {
  simdjson::dom::element root;
  auto err = parser_.parse(bytes.data(), bytes.size(), false).get(root);
  if (err == simdjson::NUMBER_ERROR || err == simdjson::STRING_ERROR) {
    // Valid JSON that simdjson refuses: parsed again as simdjson_readable()
    // rewrites it. The chain hashes the bytes as they stand, so no
    // rewrite changes what is verified.
    if (auto wide = simdjson_readable(bytes)) {
      wide_copy_ = std::move(*wide);
      wide_copy_.append(kLinePadding, '\0');
      err = parser_.parse(wide_copy_.data(), bytes.size(), false).get(root);
    }
  }
  if (err) {
    Code code = Code::malformed_json;
    if (err == simdjson::UTF8_ERROR) code = Code::invalid_utf8;
    if (err == simdjson::DEPTH_ERROR) code = Code::limit_nesting;
    if (err == simdjson::CAPACITY) code = Code::limit_line_bytes;
    if (err == simdjson::MEMALLOC) code = Code::internal_error;
    return Error{code, seq, std::string("JSON: ") + simdjson::error_message(err)};
  }
  if (auto fault = strict_walk(root, 1, max_depth_)) {
    if (fault->too_deep) {
      return Error{Code::limit_nesting, seq, "JSON: nested deeper than " + std::to_string(max_depth_) + " levels"};
    }
    return Error{Code::duplicate_member, seq, "member \"" + std::string(fault->duplicate) + "\" appears twice in one object"};
  }
  return root;
}

void StrictJsonParser::release_memory() {
  constexpr size_t kKeep = 1 << 20;
  if (parser_.capacity() > kKeep || parser_.doc.capacity() > kKeep) {
    // A fresh parser: allocate() shrinks only the structural indexes, and
    // the document's tape and string buffer (most of what a long line
    // touched) kept the longest line's size. On failure the parser keeps
    // going with what the next parse allocates.
    const size_t depth = parser_.max_depth();
    parser_ = simdjson::dom::parser(parser_.max_capacity());
    if (parser_.allocate(1 << 16, depth) != simdjson::SUCCESS) {}
  }
  if (copy_.capacity() > kKeep) std::string().swap(copy_);
  if (wide_copy_.capacity() > kKeep) std::string().swap(wide_copy_);
}

Result<simdjson::dom::element> StrictJsonParser::parse_copy(std::string_view bytes, int64_t seq) {
  // Room for the padding too: appended past the capacity, it copied a long
  // text a second time. The old buffer, which `bytes` may lie in, is freed
  // after the copy.
  std::string old;
  if (copy_.capacity() < bytes.size() + kLinePadding) {
    old.reserve(bytes.size() + kLinePadding);
    copy_.swap(old);
  }
  copy_.assign(bytes);
  copy_.append(kLinePadding, '\0');
  return parse_padded(std::string_view(copy_.data(), bytes.size()), seq);
}

namespace {

std::optional<std::string_view> duplicate_in(simdjson::dom::object o) {
  const size_t n = o.size();
  if (n < 2) return std::nullopt;
  if (n <= 16) {  // the common case: a few members, no allocation
    std::string_view keys[16];
    size_t i = 0;
    for (auto field : o) {
      for (size_t j = 0; j < i; ++j) {
        if (keys[j] == field.key) return field.key;
      }
      keys[i++] = field.key;
    }
    return std::nullopt;
  }
  std::vector<std::string_view> keys;
  keys.reserve(n);
  for (auto field : o) keys.push_back(field.key);
  std::sort(keys.begin(), keys.end());
  auto it = std::adjacent_find(keys.begin(), keys.end());
  if (it != keys.end()) return *it;
  return std::nullopt;
}

}  // namespace

// Recursion depth is bounded by the parser's depth limit.
std::optional<StrictFault> strict_walk(simdjson::dom::element e, uint32_t depth, uint32_t max_depth) {
  if (depth > max_depth) return StrictFault{{}, true};
  simdjson::dom::object o;
  simdjson::dom::array a;
  if (!e.get(o)) {
    if (auto d = duplicate_in(o)) return StrictFault{*d, false};
    for (auto field : o) {
      if (field.value.is_object() || field.value.is_array()) {
        if (auto f = strict_walk(field.value, depth + 1, max_depth)) return f;
      }
    }
  } else if (!e.get(a)) {
    for (auto child : a) {
      if (child.is_object() || child.is_array()) {
        if (auto f = strict_walk(child, depth + 1, max_depth)) return f;
      }
    }
  }
  return std::nullopt;
}

std::optional<std::string_view> find_duplicate_member(simdjson::dom::element root) {
  auto fault = strict_walk(root, 1, UINT32_MAX);
  if (!fault) return std::nullopt;
  return fault->duplicate;
}

namespace json {

template <typename T>
static Get get_as(simdjson::dom::object o, std::string_view key, T* out) {
  auto v = o.at_key(key);
  if (v.error()) return Get::absent;
  if (v.get(*out)) return Get::wrong_type;
  return Get::ok;
}

Get string(simdjson::dom::object o, std::string_view key, std::string_view* out) {
  return get_as(o, key, out);
}
Get object(simdjson::dom::object o, std::string_view key, simdjson::dom::object* out) {
  return get_as(o, key, out);
}
Get array(simdjson::dom::object o, std::string_view key, simdjson::dom::array* out) {
  return get_as(o, key, out);
}
Get boolean(simdjson::dom::object o, std::string_view key, bool* out) { return get_as(o, key, out); }

bool is_integer(simdjson::dom::element e) {
  auto t = e.type();
  return t == simdjson::dom::element_type::INT64 || t == simdjson::dom::element_type::UINT64;
}

Get uint(simdjson::dom::object o, std::string_view key, uint64_t* out) {
  auto v = o.at_key(key);
  if (v.error()) return Get::absent;
  if (!is_integer(v.value_unsafe()) || v.get(*out)) return Get::wrong_type;
  return Get::ok;
}

Get integer(simdjson::dom::object o, std::string_view key, int64_t* out) {
  auto v = o.at_key(key);
  if (v.error()) return Get::absent;
  if (!is_integer(v.value_unsafe()) || v.get(*out)) return Get::wrong_type;
  return Get::ok;
}

}  // namespace json
}  // namespace goalcup
