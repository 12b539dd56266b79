#include "core/walk.h"

#include <atomic>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

namespace goalcup {
namespace {

// A block grown past what a chunk and a carried line start need holds a
// line over 2 MiB: the reader then waits until it is verified, and it is
// given back, so that one long line is in memory at a time, not one per
// block in flight.
constexpr size_t kLongBlock = (4 << 20) + kLinePadding;
// A parser's buffers grown for a line this long are given back after it.
constexpr size_t kShrinkAbove = 16 << 20;

// Shows a line to the tool's visitor. False: the visitor stopped.
bool show(RecordVisitor& visitor, const Result<Record>& record, const Line& line, const Digest& hash,
          ChainVerifier& verifier) {
  if (!record) {
    visitor.on_bad_line(line, record.error());
    return true;
  }
  if (visitor.on_record(*record, line, hash)) return true;
  verifier.stop_reading();
  return false;
}

// Parses and verifies one block of lines, in order. False: the visitor or
// the verifier (--max-errors) stopped.
bool consume(const LineBlock& block, RecordParser& parser, ChainVerifier& verifier, RecordVisitor* visitor) {
  for (size_t i = 0; i < block.size(); ++i) {
    const Line& line = block.line(i);
    auto record = parser.parse(line.bytes, line.index);
    verifier.add_line(line, block.hash(i), record);
    const bool go_on = !visitor || show(*visitor, record, line, block.hash(i), verifier);
    if (line.bytes.size() > kShrinkAbove) parser.release_memory();  // the record is done with
    if (!go_on || verifier.should_stop()) return false;
  }
  return true;
}

VerifyReport walk_sequential(LineReader& lines, const WalkOptions& options, RecordVisitor* visitor) {
  RecordParser parser(options.limits);
  ChainVerifier verifier(*options.keyring, options.limits);
  auto block = std::make_unique<LineBlock>();
  for (;;) {
    auto status = lines.next_block(block.get());
    if (status == LineReader::Status::end) break;
    if (status == LineReader::Status::error) {
      verifier.add_read_error(lines.error());
      break;
    }
    block->hash_lines();
    if (!consume(*block, parser, verifier, visitor)) break;
    if (block->capacity() > kLongBlock) block = std::make_unique<LineBlock>();
  }
  if (auto cut = lines.cut()) verifier.add_cut_warning(*cut);
  return verifier.finish(lines.bytes_read());
}

// A small blocking queue of blocks that can be closed from either side.
class BlockQueue {
 public:
  void push(std::unique_ptr<LineBlock> b) {
    std::lock_guard lock(mu_);
    q_.push_back(std::move(b));
    cv_.notify_all();
  }
  // nullptr once closed and empty.
  std::unique_ptr<LineBlock> pop() {
    std::unique_lock lock(mu_);
    ++waiting_;
    cv_.wait(lock, [&] { return !q_.empty() || closed_; });
    --waiting_;
    if (q_.empty()) return nullptr;
    auto b = std::move(q_.front());
    q_.pop_front();
    return b;
  }
  void close() {
    std::lock_guard lock(mu_);
    closed_ = true;
    cv_.notify_all();
  }
  // Waits until `n` blocks are queued (all of them back); false if closed.
  bool wait_for_all(size_t n) {
    std::unique_lock lock(mu_);
    cv_.wait(lock, [&] { return q_.size() >= n || closed_; });
    return !closed_;
  }
  // True when someone is blocked waiting for a block.
  bool starved() {
    std::lock_guard lock(mu_);
    return waiting_ > 0 && q_.empty();
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::unique_ptr<LineBlock>> q_;
  bool closed_ = false;
  int waiting_ = 0;
};

// Two threads: a reader (source, framing, and hashing while the verifier
// is busy) and the calling thread (hashing when the reader is ahead,
// parsing, verifying). Three blocks circulate, so memory stays bounded.
VerifyReport walk_pipelined(LineReader& lines, const WalkOptions& options, RecordVisitor* visitor) {
  constexpr int kBlocks = 3;
  BlockQueue full, empty;
  for (int i = 0; i < kBlocks; ++i) empty.push(std::make_unique<LineBlock>());
  LineReader::Status end_status = LineReader::Status::end;

  std::thread reader([&] {
    for (;;) {
      auto b = empty.pop();
      if (!b) break;  // the verifier stopped early
      end_status = lines.next_block(b.get());
      if (end_status != LineReader::Status::line) break;
      // Hash here unless the verifier is idle: then it hashes, and the
      // two threads share the costliest step.
      if (!full.starved()) b->hash_lines();
      const bool huge = b->capacity() > kLongBlock;
      full.push(std::move(b));
      // Read no further until a block holding a long line is verified and
      // given back: one long line in memory at a time, not one per block.
      if (huge && !empty.wait_for_all(kBlocks)) break;
    }
    full.close();
  });

  RecordParser parser(options.limits);
  ChainVerifier verifier(*options.keyring, options.limits);
  bool stopped = false;
  while (auto b = full.pop()) {
    if (stopped) continue;
    if (!b->hashed()) b->hash_lines();
    stopped = !consume(*b, parser, verifier, visitor);
    if (stopped) empty.close();
    if (b->capacity() > kLongBlock) b = std::make_unique<LineBlock>();
    empty.push(std::move(b));
  }
  reader.join();
  if (!stopped && end_status == LineReader::Status::error) verifier.add_read_error(lines.error());
  if (auto cut = lines.cut()) verifier.add_cut_warning(*cut);
  return verifier.finish(lines.bytes_read());
}

}  // namespace

VerifyReport walk_source(std::unique_ptr<ByteSource> source, const WalkOptions& options, RecordVisitor* visitor) {
  LineReader lines(std::move(source), options.limits);
  return options.threads >= 2 ? walk_pipelined(lines, options, visitor) : walk_sequential(lines, options, visitor);
}

VerifyReport walk_trace(const std::string& path, const WalkOptions& options, RecordVisitor* visitor) {
  auto opened = open_trace(path, options.limits);
  if (!opened) {
    ChainVerifier verifier(*options.keyring, options.limits);
    verifier.add_read_error(opened.take_error());
    VerifyReport rep = verifier.finish(0);
    rep.file = path;
    return rep;
  }
  VerifyReport rep = walk_source(std::move(opened->source), options, visitor);
  rep.file = path;
  rep.source = opened->description;
  rep.member = opened->member;
  rep.member_of_archive = opened->member_of_archive;
  return rep;
}

}  // namespace goalcup
