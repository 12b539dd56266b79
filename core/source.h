// Stage 1 of the data flow: byte sources. A trace arrives as a plain file, a
// zstd stream, a member of a .tar, a file in a submission directory, or
// stdin; open_trace() picks the right chain of sources so that everything
// after it sees one stream of decompressed trace bytes.
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/limits.h"
#include "core/tar_headers.h"
#include "core/upload_budget.h"

struct archive;  // libarchive's, kept out of this header

namespace goalcup {

class ByteSource {
 public:
  virtual ~ByteSource() = default;
  // Fills up to `cap` bytes of `buf`. Returns the count, 0 at the end.
  virtual Result<size_t> read(char* buf, size_t cap) = 0;
  // After read() returned 0: why the stream ended before its own format
  // says it is finished (a zstd frame cut off), or nothing. The bytes read
  // are then all there is, judged like a plain file cut at that point.
  virtual std::optional<Error> cut() const { return std::nullopt; }
  // How many threads may work on this stream (a multi-frame zstd stream
  // inflates frames on them); sources over another source pass it on.
  virtual void use_threads(unsigned /*threads*/) {}
};

struct OpenedTrace {
  std::unique_ptr<ByteSource> source;
  std::string description;  // e.g. "trace.jsonl.zst in sub.tar (zstd)"
  // The trace's path inside the submission folder or .tar it was found in
  // ("" for a plain file or stdin), so that reports can name the member.
  std::string member;
  bool member_of_archive = false;
};

// Opens a trace given on the command line: a file, a submission directory,
// a .tar, or "-" for stdin. Compression is recognised by content, not name.
// A path that is a symbolic link is followed (the user named it) unless
// !follow_link (an input a --batch walk found): then it is unsafe_path.
Result<OpenedTrace> open_trace(const std::string& path, const Limits& limits, bool follow_link = true);
// The layers inside the raw bytes, outside in: zstd over the whole, a .tar
// (so also a .tar.zst), zstd over the member. `description` says where the
// raw bytes came from ("" for a file) and is extended with each layer.
Result<OpenedTrace> open_layers(std::unique_ptr<ByteSource> raw, std::string description, const Limits& limits);

// Opens a regular file as raw bytes (no decompression). FIFOs, devices and,
// unless `follow_links`, symbolic links are refused without blocking.
Result<std::unique_ptr<ByteSource>> open_regular_file(const std::string& path, bool follow_links);
// Replays `prefix` before the rest of `inner` (used after sniffing magic).
std::unique_ptr<ByteSource> prefixed_source(std::string prefix, std::unique_ptr<ByteSource> inner);
// Reads up to n bytes, fewer only at the end of the stream.
Result<std::string> read_prefix(ByteSource& src, size_t n);
// True for the first 512 bytes of a tar archive.
bool looks_like_tar(const std::string& prefix);

// A .tar read member by member, streamed through libarchive (nothing is
// extracted). Members count against the budget of the upload (created
// here when not given), so --max-archive-members holds for the archive.
struct TarMember {
  std::string path;
  mode_t type = 0;  // S_IFREG, S_IFLNK, S_IFDIR, ...
  bool hard_link = false;
};
class TarReader {
 public:
  static Result<std::unique_ptr<TarReader>> open(std::unique_ptr<ByteSource> inner, const Limits& limits,
                                                 std::shared_ptr<UploadBudget> budget = nullptr);
  ~TarReader();
  TarReader(const TarReader&) = delete;
  TarReader& operator=(const TarReader&) = delete;
  // Moves to the next member; false after the last.
  Result<bool> next();
  const TarMember& member() const { return member_; }
  // The current member's bytes, until next() is called.
  Result<size_t> read(char* buf, size_t cap);
  std::unique_ptr<ByteSource> member_source();
  const Limits& limits() const { return limits_; }

 private:
  TarReader(std::unique_ptr<ByteSource> inner, const Limits& limits, std::shared_ptr<UploadBudget> budget);
  Error failure(const char* what);
  static ssize_t read_cb(::archive*, void* self, const void** out);

  std::unique_ptr<ByteSource> inner_;
  Limits limits_;
  std::shared_ptr<UploadBudget> budget_;
  struct ArchiveFree {
    void operator()(::archive* a) const;
  };
  std::unique_ptr<::archive, ArchiveFree> a_;
  std::vector<char> buf_;
  std::optional<Error> inner_error_;
  TarHeaderWatch headers_;
  TarMember member_;
};

// Wraps an in-memory buffer (tests, fuzzers).
std::unique_ptr<ByteSource> memory_source(std::string bytes);
// Wraps `inner` with streaming zstd decompression under `limits`, and the
// budget of the upload it belongs to, if given.
std::unique_ptr<ByteSource> zstd_source(std::unique_ptr<ByteSource> inner, const Limits& limits,
                                        std::shared_ptr<UploadBudget> budget = nullptr);
// Picks plain or zstd for `inner` by its first bytes.
Result<std::unique_ptr<ByteSource>> sniff_compression(std::unique_ptr<ByteSource> inner,
                                                      const Limits& limits, bool* is_zstd,
                                                      std::shared_ptr<UploadBudget> budget = nullptr);

}  // namespace goalcup
