// The secret scan on worker threads. Lines are copied into batches of about
// a megabyte, with the texts of the record when the caller has parsed it
// (so that workers need not parse it again); each worker scans whole batches
// with its own engine (engines hold parsers and are not shared); the results
// come back to the calling thread in the order the lines were added, so a
// report is the same for any number of threads. Bytes in flight are bounded
// (16 MB), and a line longer than 8 MB is scanned on the calling thread
// without a copy, so memory follows neither the trace nor the thread count.
#pragma once

#include <absl/container/flat_hash_set.h>

#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "cheatcheck/secrets/engine.h"
#include "cheatcheck/secrets/record_texts.h"

namespace goalcup::cheat {

// A secret with the line it was in and its place there ("body.headers[2]").
struct LocatedHit {
  SecretHit hit;
  uint64_t seq = 0;
  std::string location;
};

// What a worker found in one batch of lines.
struct ScanOutput {
  std::vector<LocatedHit> hits;
  absl::flat_hash_set<std::string> markers;  // names in [REDACTED:...] markers
  std::vector<uint64_t> provider_key_lines;  // native lines showing a model provider's key
  std::vector<uint64_t> digest_mismatches;   // add_digest() seqs whose bytes hash to another digest
};

// A record's texts, read out of it where it was parsed.
struct LineTexts {
  const TextArena* arena = nullptr;
  RecordTexts record;
  // A response's stream as the checks rebuilt it (Context::lend_answer()).
  const RebuiltAnswer* answer = nullptr;
};

// Scans one line; one instance per thread. Each line has kLinePadding
// readable bytes after it (for the JSON parser).
class LineScanner {
 public:
  virtual ~LineScanner() = default;
  // `texts`, when given, are the line's record already read (a scanner that
  // reads records then does not parse the line).
  virtual void scan(std::string_view line, uint64_t seq, const LineTexts* texts, ScanOutput* out) = 0;
  void scan(std::string_view line, uint64_t seq, ScanOutput* out) { scan(line, seq, nullptr, out); }
};

class ScanPool {
 public:
  using MakeScanner = std::function<std::unique_ptr<LineScanner>()>;
  using Sink = std::function<void(ScanOutput&)>;

  // `threads` 0 scans on the calling thread, inside add().
  ScanPool(unsigned threads, const MakeScanner& make, Sink sink);
  ~ScanPool();
  ScanPool(const ScanPool&) = delete;
  ScanPool& operator=(const ScanPool&) = delete;

  // Copies `line` (or scans it here, if huge); the sink may be called from
  // here with earlier results. `line` needs kLinePadding readable bytes
  // after it, as LineReader's lines have. `record`, when given, is the line
  // parsed: its texts are copied with it, and `parsed` is its wire body's
  // content parsed, if it was (TextArena::add, with the scan's `max_depth`).
  // `answer`, when given, is its wire body's stream as the checks rebuilt
  // it (Context::lend_answer()): the scan reads it instead of rebuilding.
  void add(std::string_view line, uint64_t seq, const Record* record = nullptr, const ParsedBody* parsed = nullptr,
           uint32_t max_depth = 0, std::optional<RebuiltAnswer> answer = std::nullopt);
  // Queues the check that SHA-256 of `bytes` is `stated` (a digest_ref(),
  // "sha256:<hex>"), for a worker: the bytes are copied (cheaper than
  // hashing them), a huge body is hashed here. A mismatch comes back in
  // the output of its batch (digest_mismatches).
  void add_digest(uint64_t seq, std::string_view bytes, std::string_view stated);
  // Whether lines are scanned on workers (not inside add()).
  bool threaded() const { return inline_ == nullptr; }
  // Delivers every result so far (the sink has seen every line added).
  void flush();
  // Flushes and stops the workers. Idempotent.
  void finish();

 private:
  struct DigestJob {
    uint64_t seq = 0;
    size_t end = 0;      // of its bytes in Batch::digest_bytes
    std::string stated;  // the digest_ref() the bytes must have
  };
  struct Batch {
    std::string bytes;
    std::vector<size_t> ends;  // end offset of each line in bytes
    std::vector<uint64_t> seqs;
    TextArena texts;
    std::vector<std::optional<RecordTexts>> records;  // per line, when parsed by the caller
    std::vector<std::optional<RebuiltAnswer>> answers;  // per line, when lent
    size_t answer_bytes = 0;
    std::string digest_bytes;                         // add_digest()'s bytes, one after the other
    std::vector<DigestJob> digests;
    ScanOutput out;
    bool done = false;
  };
  static void scan_batch(LineScanner& scanner, Batch& batch);
  static void check_digests(Batch& batch);
  static size_t batch_bytes(const Batch& b);  // what it holds, for the bound on bytes in flight
  void scan_here(std::string_view line, uint64_t seq, const Record* record);
  void submit();
  std::unique_ptr<Batch> take_spare();  // on the calling thread only
  void give_back(std::unique_ptr<Batch> b);
  void deliver_done_front(std::unique_lock<std::mutex>& lock);
  void work();

  MakeScanner make_;
  Sink sink_;
  std::unique_ptr<LineScanner> inline_;  // when there are no threads
  std::unique_ptr<Batch> current_;
  std::mutex mu_;
  std::condition_variable work_cv_, done_cv_;
  std::deque<std::unique_ptr<Batch>> in_flight_;  // in line order
  std::deque<Batch*> todo_;                        // not yet taken by a worker
  size_t in_flight_bytes_ = 0;
  bool closing_ = false;
  std::vector<std::unique_ptr<Batch>> spare_;  // emptied batches, for reuse
  std::vector<std::thread> threads_;
};

}  // namespace goalcup::cheat
