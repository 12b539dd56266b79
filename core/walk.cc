#include "core/walk.h"

#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

namespace goalcup {
namespace {

// A block grown past what a chunk and a carried line start of 2 MiB need
// holds a line over 2 MiB: the reader then waits until it is verified, and
// it is given back, so that one long line is in memory at a time, not one
// per block in flight.
constexpr size_t kLongBlock = (2 << 20) + kReadChunk + kLinePadding;
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

// Reading stopped after `last` (the visitor or --max-errors): the bytes read
// and the end of the source are as they were when that block was framed,
// whatever other threads had read ahead.
VerifyReport finish_stopped(LineReader& lines, ChainVerifier& verifier, const LineBlock& last) {
  if (last.source_ended()) {
    if (auto cut = lines.cut()) verifier.add_cut_warning(*cut);
  }
  return verifier.finish(last.bytes_through());
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
    if (!consume(*block, parser, verifier, visitor)) return finish_stopped(lines, verifier, *block);
    if (block->capacity() > kLongBlock) block = std::make_unique<LineBlock>();
  }
  if (auto cut = lines.cut()) verifier.add_cut_warning(*cut);
  return verifier.finish(lines.bytes_read());
}

// Blocks of lines in flight between the threads of one trace, in the
// order they were read. The reader frames blocks, anyone idle hashes them
// (pool workers from the oldest, the reader from the newest while it has no
// free block, the consumer the one it needs next), and one consumer parses
// and verifies them in order: hashing is spread, everything whose outcome
// depends on order stays on one thread, so reports do not depend on timing.
class BlockFlow {
 public:
  explicit BlockFlow(size_t blocks) : total_(blocks) {
    for (size_t i = 0; i < blocks; ++i) free_.push_back(std::make_unique<LineBlock>());
  }

  // Reader: a free block to fill, hashing framed blocks while none is free
  // (or, after a long line, until every block is back). nullptr: stopped.
  std::unique_ptr<LineBlock> take_free(bool wait_for_all) {
    std::unique_lock lock(mu_);
    for (;;) {
      if (stopped_) return nullptr;
      const bool ready = wait_for_all ? free_.size() == total_ : !free_.empty();
      if (ready) {
        auto b = std::move(free_.back());
        free_.pop_back();
        return b;
      }
      if (!hash_one(lock, /*newest=*/true)) cv_.wait(lock);
    }
  }
  // Reader: a framed block, next in order.
  void put_framed(std::unique_ptr<LineBlock> b) {
    std::lock_guard lock(mu_);
    order_.push_back(Slot{std::move(b), State::framed});
    cv_.notify_all();
  }
  // Reader: nothing more will be framed.
  void reader_done() {
    std::lock_guard lock(mu_);
    reading_ = false;
    cv_.notify_all();
  }

  // Pool workers: hash the oldest unclaimed blocks until reading is over
  // and nothing is left to hash.
  void hash_until_done() {
    std::unique_lock lock(mu_);
    while (!stopped_) {
      if (hash_one(lock, /*newest=*/false)) continue;
      if (!reading_) return;
      cv_.wait(lock);
    }
  }

  // Consumer: the next block in order, hashed (by itself if no one has
  // started it); nullptr once reading is over and every block consumed.
  LineBlock* next_in_order() {
    std::unique_lock lock(mu_);
    for (;;) {
      if (!order_.empty()) {
        Slot& front = order_.front();
        if (front.state == State::hashed) return front.block.get();
        if (front.state == State::framed) {
          front.state = State::hashing;
          LineBlock* b = front.block.get();
          lock.unlock();
          b->hash_lines();
          lock.lock();
          front.state = State::hashed;  // deque slots stay put: only the consumer pops
          return b;
        }
      } else if (!reading_) {
        return nullptr;
      }
      if (!hash_one(lock, /*newest=*/false)) cv_.wait(lock);
    }
  }
  // Consumer: the block from next_in_order() is done with. A block grown
  // for a long line is given back to the allocator, not kept in flight.
  void consumed() {
    std::lock_guard lock(mu_);
    auto b = std::move(order_.front().block);
    order_.pop_front();
    if (b->capacity() > kLongBlock) b = std::make_unique<LineBlock>();
    free_.push_back(std::move(b));
    cv_.notify_all();
  }
  // Consumer: reading on is pointless (the visitor or --max-errors stopped
  // in the block from next_in_order(), which is handed back).
  std::unique_ptr<LineBlock> stop() {
    std::lock_guard lock(mu_);
    stopped_ = true;
    cv_.notify_all();
    return std::move(order_.front().block);
  }

 private:
  enum class State : uint8_t { framed, hashing, hashed };
  struct Slot {
    std::unique_ptr<LineBlock> block;
    State state;
  };

  // Hashes one framed block nobody has claimed, outside the lock; false if
  // there is none.
  bool hash_one(std::unique_lock<std::mutex>& lock, bool newest) {
    Slot* slot = nullptr;
    for (size_t i = 0; i < order_.size(); ++i) {
      Slot& s = order_[newest ? order_.size() - 1 - i : i];
      if (s.state == State::framed) {
        slot = &s;
        break;
      }
    }
    if (!slot) return false;
    slot->state = State::hashing;
    LineBlock* b = slot->block.get();
    lock.unlock();
    b->hash_lines();
    lock.lock();
    slot->state = State::hashed;  // the slot cannot have moved: only hashed blocks are popped
    cv_.notify_all();
    return true;
  }

  std::mutex mu_;
  std::condition_variable cv_;
  const size_t total_;
  std::vector<std::unique_ptr<LineBlock>> free_;
  std::deque<Slot> order_;
  bool reading_ = true;
  bool stopped_ = false;
};

// `threads` >= 2: a reader thread, threads - 2 hashing workers, and the
// calling thread consuming in order. Two blocks more than threads are in
// flight, so memory grows by at most one block per thread.
VerifyReport walk_parallel(LineReader& lines, unsigned threads, const WalkOptions& options, RecordVisitor* visitor) {
  // Two blocks more than threads: the reader fills one while the consumer
  // finishes another (measured on two threads, 330 MB: the threads waited
  // 19 ms in all with 4 blocks, 25 ms with 3; 10 blocks were 20% slower,
  // out of the caches).
  BlockFlow flow(threads + 2);
  LineReader::Status end_status = LineReader::Status::end;
  std::thread reader([&] {
    bool after_long_line = false;
    for (;;) {
      // Read no further until a block holding a long line is verified and
      // given back: one long line in memory at a time, not one per block.
      auto b = flow.take_free(after_long_line);
      if (!b) break;  // the consumer stopped early
      end_status = lines.next_block(b.get());
      if (end_status != LineReader::Status::line) break;
      after_long_line = b->capacity() > kLongBlock;
      flow.put_framed(std::move(b));
    }
    flow.reader_done();
  });
  std::vector<std::thread> workers;
  for (unsigned i = 2; i < threads; ++i) workers.emplace_back([&] { flow.hash_until_done(); });

  RecordParser parser(options.limits);
  ChainVerifier verifier(*options.keyring, options.limits);
  std::unique_ptr<LineBlock> stopped_after;  // the block reading stopped in
  while (LineBlock* b = flow.next_in_order()) {
    if (consume(*b, parser, verifier, visitor)) {
      flow.consumed();
      continue;
    }
    stopped_after = flow.stop();
    break;
  }
  reader.join();
  for (auto& w : workers) w.join();
  if (stopped_after) return finish_stopped(lines, verifier, *stopped_after);
  if (end_status == LineReader::Status::error) verifier.add_read_error(lines.error());
  if (auto cut = lines.cut()) verifier.add_cut_warning(*cut);
  return verifier.finish(lines.bytes_read());
}

}  // namespace

VerifyReport walk_source(std::unique_ptr<ByteSource> source, const WalkOptions& options, RecordVisitor* visitor) {
  // The extra cores come from the pool shared with the rest of the batch.
  CorePool::Lease extra;
  if (options.pool && options.threads > 1) extra = options.pool->reserve(options.threads - 1);
  const unsigned threads = options.pool ? 1 + extra.count() : options.threads;
  source->use_threads(threads);
  LineReader lines(std::move(source), options.limits);
  return threads >= 2 ? walk_parallel(lines, threads, options, visitor) : walk_sequential(lines, options, visitor);
}

VerifyReport walk_trace(const std::string& path, const WalkOptions& options, RecordVisitor* visitor) {
  auto opened = open_trace(path, options.limits, options.follow_link);
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
