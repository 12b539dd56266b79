// The trace member of a .tar, streamed through libarchive. Nothing is ever
// extracted to disk, so member paths cannot escape; only a regular member
// named trace.jsonl or trace.jsonl.zst is read, at the top or in a folder
// (`tar cf entry.tar entry/` is how most people pack one), and links by
// those names are refused.
#include <archive.h>
#include <archive_entry.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "core/source.h"
#include "core/source_internal.h"

namespace goalcup {
namespace {

// A relative path without ".." whose last component names a trace.
bool is_trace_name(std::string_view name) {
  if (name.empty() || name.front() == '/') return false;
  std::string_view last;
  for (size_t start = 0; start <= name.size();) {
    size_t end = std::min(name.find('/', start), name.size());
    last = name.substr(start, end - start);
    if (last == "..") return false;
    start = end + 1;
  }
  return is_trace_file_name(last);
}

class TarMemberSource final : public ByteSource {
 public:
  TarMemberSource(std::unique_ptr<ByteSource> inner, const Limits& limits)
      : inner_(std::move(inner)), limits_(limits), a_(archive_read_new()), buf_(1 << 16) {
    archive_read_support_format_tar(a_);
    archive_read_support_format_gnutar(a_);
  }
  ~TarMemberSource() override { archive_read_free(a_); }

  // Positions the archive at the trace member.
  Result<std::string> open() {
    if (archive_read_open(a_, this, nullptr, &TarMemberSource::read_cb, nullptr) != ARCHIVE_OK) {
      return archive_failure("cannot read the archive");
    }
    archive_entry* e = nullptr;
    auto next = next_trace_entry(&e);
    if (!next) return next.take_error();
    if (!*next) return Error{Code::no_trace_in_submission, -1, "the archive holds no trace.jsonl or trace.jsonl.zst"};
    if (auto bad = check_entry(e)) return *bad;
    return std::string(archive_entry_pathname(e));
  }

  Result<size_t> read(char* buf, size_t cap) override {
    if (finished_) return size_t{0};
    la_ssize_t n = archive_read_data(a_, buf, cap);
    if (n < 0) return archive_failure("cannot read the trace member");
    if (n > 0) return static_cast<size_t>(n);
    finished_ = true;
    // A second trace member would make the submission ambiguous.
    archive_entry* e = nullptr;
    auto next = next_trace_entry(&e);
    if (!next) return next.take_error();
    if (*next) return Error{Code::ambiguous_submission, -1, "the archive holds more than one trace member"};
    return size_t{0};
  }

 private:
  // Advances to the next member named like a trace; false at the end.
  Result<bool> next_trace_entry(archive_entry** e) {
    for (;;) {
      int r = archive_read_next_header(a_, e);
      if (r == ARCHIVE_EOF) return false;
      if (r < ARCHIVE_WARN) return archive_failure("malformed archive");
      if (++members_ > limits_.max_archive_members) {
        return Error{Code::limit_archive_members, -1,
                     "the archive has more than " + std::to_string(limits_.max_archive_members) +
                         " members; raise --max-archive-members"};
      }
      const char* name = archive_entry_pathname(*e);
      if (name && is_trace_name(name)) return true;
    }
  }

  static std::optional<Error> check_entry(archive_entry* e) {
    if (archive_entry_hardlink(e) || archive_entry_symlink(e) || archive_entry_filetype(e) != AE_IFREG) {
      return Error{Code::unsafe_path, -1, "the archive's trace member is a link or not a regular file"};
    }
    return std::nullopt;
  }

  Error archive_failure(const char* what) {
    if (inner_error_) return *inner_error_;
    const char* detail = archive_error_string(a_);
    return Error{Code::archive_error, -1, std::string(what) + (detail ? std::string(": ") + detail : "")};
  }

  static la_ssize_t read_cb(archive*, void* self_ptr, const void** out) {
    auto* self = static_cast<TarMemberSource*>(self_ptr);
    auto n = self->inner_->read(self->buf_.data(), self->buf_.size());
    if (!n) {
      self->inner_error_ = n.take_error();
      return -1;
    }
    *out = self->buf_.data();
    return static_cast<la_ssize_t>(*n);
  }

  std::unique_ptr<ByteSource> inner_;
  Limits limits_;
  archive* a_;
  std::vector<char> buf_;
  std::optional<Error> inner_error_;
  uint32_t members_ = 0;
  bool finished_ = false;
};

}  // namespace

bool looks_like_tar(const std::string& prefix) {
  return prefix.size() >= 262 && std::memcmp(prefix.data() + 257, "ustar", 5) == 0;
}

Result<std::unique_ptr<ByteSource>> tar_member_source(std::unique_ptr<ByteSource> inner,
                                                      const Limits& limits, std::string* member) {
  auto src = std::make_unique<TarMemberSource>(std::move(inner), limits);
  auto name = src->open();
  if (!name) return name.take_error();
  *member = std::move(*name);
  return std::unique_ptr<ByteSource>(std::move(src));
}

}  // namespace goalcup
