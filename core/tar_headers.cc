#include "core/tar_headers.h"

#include <algorithm>
#include <string_view>
#include <utility>

#include "core/source.h"

namespace goalcup {
namespace {

constexpr uint64_t kBlock = 512;
constexpr uint64_t kMaxPaxBody = 1 << 20;  // far above any honest pax header

uint64_t padded(uint64_t size) { return (size + kBlock - 1) / kBlock * kBlock; }

// The header's size field: octal digits, or base-256 when the top bit of
// its first byte is set (GNU, for members over 8 GiB). Nullopt if unreadable.
std::optional<uint64_t> size_field(std::string_view field) {
  const auto first = static_cast<unsigned char>(field[0]);
  if (first & 0x80) {
    if (first != 0x80) return std::nullopt;  // negative or over 2^88
    uint64_t v = 0;
    for (size_t i = 1; i < field.size(); ++i) {
      if (v >> 56) return std::nullopt;
      v = v << 8 | static_cast<unsigned char>(field[i]);
    }
    return v;
  }
  size_t i = 0;
  while (i < field.size() && (field[i] == ' ' || field[i] == '\0')) ++i;
  uint64_t v = 0;
  for (; i < field.size() && field[i] >= '0' && field[i] <= '7'; ++i) v = v * 8 + static_cast<uint64_t>(field[i] - '0');
  return v;
}

struct PaxRecord {
  std::string_view key, value;
};

// Pax records are "LEN KEY=VALUE\n", LEN counting the whole record.
// Calls `on` for each; false if the body is malformed.
template <typename On>
bool for_each_pax_record(std::string_view body, On on) {
  while (!body.empty()) {
    size_t sp = body.find(' ');
    if (sp == 0 || sp == std::string_view::npos || sp > 20) return false;
    uint64_t len = 0;
    for (size_t i = 0; i < sp; ++i) {
      if (body[i] < '0' || body[i] > '9') return false;
      len = len * 10 + static_cast<uint64_t>(body[i] - '0');
    }
    if (len <= sp + 1 || len > body.size() || body[len - 1] != '\n') return false;
    const std::string_view record = body.substr(sp + 1, len - sp - 2);
    const size_t eq = record.find('=');
    if (eq == std::string_view::npos) return false;
    on(PaxRecord{record.substr(0, eq), record.substr(eq + 1)});
    body.remove_prefix(len);
  }
  return true;
}

Error ambiguous(std::string what) {
  return Error{Code::ambiguous_submission, -1,
               "the tar " + std::move(what) +
                   ": tar tools and libarchive name its members differently, so the folder it extracts to "
                   "may hold another trace"};
}

}  // namespace

std::optional<Error> TarHeaderWatch::feed(const char* p, size_t n) {
  const uint64_t end = offset_ + n;
  while (!ended_ && offset_ < end) {
    const auto at = static_cast<size_t>(n - (end - offset_));
    if (pax_left_ > 0) {  // a pax body follows its header at once
      const auto take = static_cast<size_t>(std::min<uint64_t>(pax_left_, end - offset_));
      pax_.append(p + at, take);
      pax_left_ -= take;
      offset_ += take;
      if (pax_left_ == 0) {
        if (auto e = on_pax_body()) return e;
      }
      continue;
    }
    if (offset_ < next_header_) {
      offset_ = std::min(end, next_header_);
      continue;
    }
    const auto take = static_cast<size_t>(std::min<uint64_t>(kBlock - header_.size(), end - offset_));
    header_.append(p + at, take);
    offset_ += take;
    if (header_.size() == kBlock) {
      if (auto e = on_header()) return e;
      header_.clear();
    }
  }
  offset_ = end;
  return std::nullopt;
}

std::optional<Error> TarHeaderWatch::on_header() {
  if (std::all_of(header_.begin(), header_.end(), [](char c) { return c == '\0'; })) {
    ended_ = true;  // libarchive and tar stop at the first zero block
    return std::nullopt;
  }
  // Not a header where one was due: the chain was lost (a format this
  // watch does not follow); libarchive judges the bytes from here.
  if (!looks_like_tar(header_)) {
    ended_ = true;
    return std::nullopt;
  }
  const char type = header_[156];
  auto size = size_field(std::string_view(header_).substr(124, 12));
  if (!size) return Error{Code::archive_error, -1, "a tar header's size is unreadable"};
  if (type != 'x' && type != 'g' && next_size_) size = next_size_;
  if (type != 'x' && type != 'g') next_size_.reset();
  // Old GNU sparse members carry extension blocks this watch does not
  // walk; a trace is never sparse.
  if (type == 'S' && header_[482] != '\0') {
    return Error{Code::archive_error, -1, "the tar holds an old GNU sparse member with extension headers"};
  }
  next_header_ = offset_ + padded(*size);
  if (type == 'L') ++names_.gnu_name;
  if (type == 'K') ++names_.gnu_link;
  if (type != 'x' && type != 'g' && type != 'L' && type != 'K') {
    const NameSources n = std::exchange(names_, NameSources{});
    if (n.gnu_name + n.pax_path > 1) return ambiguous("names one member twice (GNU long name and pax path headers)");
    if (n.gnu_link + n.pax_linkpath > 1) return ambiguous("names one link's target twice (GNU long link and pax linkpath headers)");
  }
  if (type == 'x' || type == 'g') {
    if (*size > kMaxPaxBody) return Error{Code::archive_error, -1, "a tar pax header is over 1 MiB"};
    pax_type_ = type;
    pax_.clear();
    pax_left_ = *size;
    if (pax_left_ == 0) return on_pax_body();
  }
  return std::nullopt;
}

std::optional<Error> TarHeaderWatch::on_pax_body() {
  std::optional<Error> refused;
  const bool well_formed = for_each_pax_record(pax_, [&](PaxRecord r) {
    if (pax_type_ == 'x' && r.key == "size") {
      uint64_t v = 0;
      bool digits = !r.value.empty() && r.value.size() <= 19;
      for (char c : r.value) {
        digits = digits && c >= '0' && c <= '9';
        if (digits) v = v * 10 + static_cast<uint64_t>(c - '0');
      }
      if (digits) next_size_ = v;
      else refused = Error{Code::archive_error, -1, "a tar pax header's size is not a number"};
    }
    if (pax_type_ == 'x' && r.key == "path") ++names_.pax_path;
    if (pax_type_ == 'x' && r.key == "linkpath") ++names_.pax_linkpath;
    if (pax_type_ == 'g' && (r.key == "path" || r.key == "linkpath" || r.key == "size")) {
      refused = ambiguous("has a pax global header that sets every later member's " + std::string(r.key));
    }
  });
  if (refused) return refused;
  if (!well_formed && pax_type_ == 'g') return ambiguous("has a malformed pax global header");
  return std::nullopt;
}

}  // namespace goalcup
