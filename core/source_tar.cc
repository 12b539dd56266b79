// .tar archives, streamed through libarchive: TarReader walks the members
// (for `cheatcheck scan`, which reads them all), and the trace member of a
// submission is found with it. Nothing is ever extracted to disk, so member
// paths cannot escape; only a regular member named trace.jsonl or
// trace.jsonl.zst is taken for the trace, at the top or in a folder (`tar cf
// entry.tar entry/` is how most people pack one), by the rule a submission
// folder is read with (docs/FORMAT.md).
#include <archive.h>
#include <archive_entry.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "core/source.h"
#include "core/source_internal.h"
#include "core/tree_walk.h"

namespace goalcup {
namespace {

// A path without ".." whose last component names a trace. A leading "/"
// does not keep a member out: GNU tar and bsdtar strip it when they extract,
// so "/trace.jsonl" lands in the folder a judge extracts to (they refuse
// members with "..", which never land).
bool is_trace_name(std::string_view name) {
  while (name.starts_with('/')) name.remove_prefix(1);
  if (name.empty()) return false;
  std::string_view last;
  for (size_t start = 0; start <= name.size();) {
    size_t end = std::min(name.find('/', start), name.size());
    last = name.substr(start, end - start);
    if (last == "..") return false;
    start = end + 1;
  }
  return is_trace_file_name(last);
}

// The folders a member's path nests, counted as a folder walk counts them
// ("." and empty components are not folders).
uint32_t path_depth(std::string_view name) {
  uint32_t depth = 0;
  for (size_t start = 0; start < name.size();) {
    size_t end = std::min(name.find('/', start), name.size());
    const std::string_view part = name.substr(start, end - start);
    if (!part.empty() && part != ".") ++depth;
    start = end + 1;
  }
  return depth;
}

// The bytes of the reader's current member.
class MemberSource final : public ByteSource {
 public:
  explicit MemberSource(TarReader& reader) : reader_(reader) {}
  Result<size_t> read(char* buf, size_t cap) override { return reader_.read(buf, cap); }

 private:
  TarReader& reader_;
};

// The submission's one trace member: positioned on it by open(), and at its
// end checks that no second trace member follows.
class TraceMemberSource final : public ByteSource {
 public:
  explicit TraceMemberSource(std::unique_ptr<TarReader> reader) : reader_(std::move(reader)) {}

  Result<std::string> open() {
    GOALCUP_ASSIGN_OR_RETURN(const bool found, next_trace_member());
    if (!found) return Error{Code::no_trace_in_submission, -1, "the archive holds no trace.jsonl or trace.jsonl.zst"};
    const TarMember& m = reader_->member();
    if (auto bad = unsafe_trace_entry(m.type, m.hard_link)) return Error{Code::unsafe_path, -1, m.path + " " + *bad};
    return m.path;
  }

  Result<size_t> read(char* buf, size_t cap) override {
    if (finished_) return size_t{0};
    auto n = reader_->read(buf, cap);
    if (!n || *n > 0) return n;
    finished_ = true;
    const std::string first = reader_->member().path;
    GOALCUP_ASSIGN_OR_RETURN(const bool second, next_trace_member());
    if (second) return Error{Code::ambiguous_submission, -1, "the archive holds both " + first + " and " + reader_->member().path};
    return size_t{0};
  }

 private:
  // Advances to the next member named like a trace; false at the end. Every
  // member is held to the bounds of a folder walk, so that an archive and
  // its extracted folder get the same verdict.
  Result<bool> next_trace_member() {
    for (;;) {
      auto more = reader_->next();
      if (!more || !*more) return more;
      const std::string& path = reader_->member().path;
      if (path_depth(path) > reader_->limits().max_walk_depth || path.size() > kMaxWalkPath) {
        return Error{Code::limit_walk_depth, -1,
                     "a member's path is longer than " + std::to_string(kMaxWalkPath) + " bytes or nests more than " +
                         std::to_string(reader_->limits().max_walk_depth) + " folders deep; raise --max-walk-depth"};
      }
      if (is_trace_name(path)) return true;
    }
  }

  std::unique_ptr<TarReader> reader_;
  bool finished_ = false;
};

}  // namespace

TarReader::TarReader(std::unique_ptr<ByteSource> inner, const Limits& limits, std::shared_ptr<UploadBudget> budget)
    : inner_(std::move(inner)),
      limits_(limits),
      budget_(budget ? std::move(budget) : std::make_shared<UploadBudget>(limits)),
      a_(archive_read_new()),
      buf_(1 << 16) {}

void TarReader::ArchiveFree::operator()(::archive* a) const { (void)archive_read_free(a); }

TarReader::~TarReader() = default;

Result<std::unique_ptr<TarReader>> TarReader::open(std::unique_ptr<ByteSource> inner, const Limits& limits,
                                                   std::shared_ptr<UploadBudget> budget) {
  std::unique_ptr<TarReader> r(new TarReader(std::move(inner), limits, std::move(budget)));
  if (!r->a_) return Error{Code::internal_error, -1, "libarchive: out of memory"};
  if (archive_read_support_format_tar(r->a_.get()) != ARCHIVE_OK ||
      archive_read_support_format_gnutar(r->a_.get()) != ARCHIVE_OK) {
    return r->failure("cannot set up the tar reader");
  }
  if (archive_read_open(r->a_.get(), r.get(), nullptr, &TarReader::read_cb, nullptr) != ARCHIVE_OK) {
    return r->failure("cannot read the archive");
  }
  return r;
}

Result<bool> TarReader::next() {
  archive_entry* e = nullptr;
  const int r = archive_read_next_header(a_.get(), &e);
  if (r == ARCHIVE_EOF) return false;
  if (r < ARCHIVE_WARN) return failure("malformed archive");
  GOALCUP_RETURN_IF_ERROR(budget_->add_members(1));
  const char* path = archive_entry_pathname(e);
  member_.path = path ? path : "";
  member_.type = archive_entry_symlink(e) ? S_IFLNK : static_cast<mode_t>(archive_entry_filetype(e));
  member_.hard_link = archive_entry_hardlink(e) != nullptr;
  return true;
}

Result<size_t> TarReader::read(char* buf, size_t cap) {
  const la_ssize_t n = archive_read_data(a_.get(), buf, cap);
  if (n < 0) return failure("cannot read the member");
  return static_cast<size_t>(n);
}

std::unique_ptr<ByteSource> TarReader::member_source() { return std::make_unique<MemberSource>(*this); }

Error TarReader::failure(const char* what) {
  if (inner_error_) return *inner_error_;
  const char* detail = archive_error_string(a_.get());
  return Error{Code::archive_error, -1, std::string(what) + (detail ? std::string(": ") + detail : "")};
}

ssize_t TarReader::read_cb(::archive*, void* self_ptr, const void** out) {
  auto* self = static_cast<TarReader*>(self_ptr);
  auto n = self->inner_->read(self->buf_.data(), self->buf_.size());
  if (!n) {
    self->inner_error_ = n.take_error();
    return -1;
  }
  if (auto refused = self->headers_.feed(self->buf_.data(), *n)) {
    self->inner_error_ = std::move(refused);
    return -1;
  }
  *out = self->buf_.data();
  return static_cast<ssize_t>(*n);
}

bool looks_like_tar(const std::string& prefix) {
  if (prefix.size() < 512) return false;
  if (std::memcmp(prefix.data() + 257, "ustar", 5) == 0) return true;
  // Every tar header, v7 ones too (which have no magic), carries a checksum
  // of its 512 bytes: octal digits in bytes 148-155, ended by NUL or space,
  // summed with that field taken as spaces (some writers sum signed bytes).
  size_t i = 148;
  while (i < 156 && prefix[i] == ' ') ++i;
  uint64_t stored = 0;
  size_t digits = 0;
  for (; i < 156 && prefix[i] >= '0' && prefix[i] <= '7'; ++i, ++digits) {
    stored = stored * 8 + static_cast<uint64_t>(prefix[i] - '0');
  }
  if (digits == 0 || i == 156) return false;
  for (; i < 156; ++i) {
    if (prefix[i] != ' ' && prefix[i] != '\0') return false;
  }
  int64_t unsigned_sum = 0, signed_sum = 0;
  for (size_t k = 0; k < 512; ++k) {
    const char c = k >= 148 && k < 156 ? ' ' : prefix[k];
    unsigned_sum += static_cast<unsigned char>(c);
    signed_sum += static_cast<signed char>(c);
  }
  return static_cast<int64_t>(stored) == unsigned_sum || static_cast<int64_t>(stored) == signed_sum;
}

Result<std::unique_ptr<ByteSource>> tar_member_source(std::unique_ptr<ByteSource> inner, const Limits& limits,
                                                      std::shared_ptr<UploadBudget> budget, std::string* member) {
  GOALCUP_ASSIGN_OR_RETURN(auto reader, TarReader::open(std::move(inner), limits, std::move(budget)));
  auto src = std::make_unique<TraceMemberSource>(std::move(reader));
  GOALCUP_ASSIGN_OR_RETURN(*member, src->open());
  return std::unique_ptr<ByteSource>(std::move(src));
}

}  // namespace goalcup
