#include "cheatcheck/secrets/scan_pool.h"

#include "core/lines.h"
#include "core/sha256.h"

namespace goalcup::cheat {
namespace {

constexpr size_t kBatchBytes = 1 << 20;
constexpr size_t kBatchLines = 4096;
constexpr size_t kMaxInFlight = 16 << 20;
constexpr size_t kCopyAtMost = 8 << 20;  // longer lines are scanned where they are
constexpr size_t kKeepBatchBytes = 4 * kBatchBytes;  // a batch grown past this is not reused

// What a lent answer holds, counted with the bytes in flight.
size_t answer_bytes(const RebuiltAnswer& a) {
  size_t n = a.text.size();
  for (const auto& block : a.blocks) n += block.text.size();
  for (const auto& call : a.tool_calls) n += call.input.size();
  return n;
}

}  // namespace

// A line's bookkeeping counts too: a file of millions of short lines holds
// more in its per-line vectors than in its bytes (3 million lines of 20
// characters, scanned slower than read, took 180 MB in flight without it).
size_t ScanPool::batch_bytes(const Batch& b) {
  constexpr size_t kPerLine = sizeof(size_t) + sizeof(uint64_t) + sizeof(std::optional<RecordTexts>) +
                              sizeof(std::optional<RebuiltAnswer>);
  return b.bytes.size() + b.ends.size() * kPerLine + b.texts.bytes() + b.answer_bytes + b.digest_bytes.size();
}


ScanPool::ScanPool(unsigned threads, const MakeScanner& make, Sink sink)
    : make_(make), sink_(std::move(sink)), current_(std::make_unique<Batch>()) {
  current_->bytes.reserve(kBatchBytes + (64 << 10));
  if (threads == 0) {
    inline_ = make();
    return;
  }
  for (unsigned i = 0; i < threads; ++i) {
    // One scanner per worker, used by that worker only.
    threads_.emplace_back([this, scanner = make()]() mutable {
      std::unique_lock lock(mu_);
      for (;;) {
        work_cv_.wait(lock, [&] { return closing_ || !todo_.empty(); });
        if (todo_.empty()) return;  // closing, nothing left
        Batch* b = todo_.front();
        todo_.pop_front();
        lock.unlock();
        scan_batch(*scanner, *b);
        lock.lock();
        b->done = true;
        done_cv_.notify_all();
      }
    });
  }
}

ScanPool::~ScanPool() { finish(); }

void ScanPool::scan_batch(LineScanner& scanner, Batch& batch) {
  size_t start = 0;
  for (size_t i = 0; i < batch.ends.size(); ++i) {
    const std::string_view line = std::string_view(batch.bytes).substr(start, batch.ends[i] - start);
    if (const auto& record = batch.records[i]) {
      const LineTexts texts{&batch.texts, *record, batch.answers[i] ? &*batch.answers[i] : nullptr};
      scanner.scan(line, batch.seqs[i], &texts, &batch.out);
    } else {
      scanner.scan(line, batch.seqs[i], nullptr, &batch.out);
    }
    start = batch.ends[i];
  }
  check_digests(batch);
}

void ScanPool::check_digests(Batch& batch) {
  size_t start = 0;
  for (const DigestJob& job : batch.digests) {
    const std::string_view bytes = std::string_view(batch.digest_bytes).substr(start, job.end - start);
    if (digest_ref(sha256(bytes)) != job.stated) batch.out.digest_mismatches.push_back(job.seq);
    start = job.end;
  }
}

void ScanPool::add_digest(uint64_t seq, std::string_view bytes, std::string_view stated) {
  if (bytes.size() > kCopyAtMost) {
    // As scan_here(): a copy of a huge body would only add to its memory.
    flush();
    ScanOutput out;
    if (digest_ref(sha256(bytes)) != stated) out.digest_mismatches.push_back(seq);
    return sink_(out);
  }
  current_->digest_bytes.append(bytes);
  current_->digests.push_back({seq, current_->digest_bytes.size(), std::string(stated)});
  if (batch_bytes(*current_) >= kBatchBytes) submit();
}

void ScanPool::add(std::string_view line, uint64_t seq, const Record* record, const ParsedBody* parsed,
                   uint32_t max_depth, std::optional<RebuiltAnswer> answer) {
  if (line.size() > kCopyAtMost) return scan_here(line, seq, record);
  current_->bytes.append(line);
  current_->ends.push_back(current_->bytes.size());
  current_->seqs.push_back(seq);
  current_->records.push_back(record ? std::optional(current_->texts.add(*record, parsed, max_depth)) : std::nullopt);
  if (answer && record) current_->answer_bytes += answer_bytes(*answer);
  current_->answers.push_back(record ? std::move(answer) : std::nullopt);
  if (batch_bytes(*current_) >= kBatchBytes || current_->ends.size() >= kBatchLines) submit();
}

// A huge line is scanned on this thread, in its place in the order: a copy
// per worker would multiply the memory a long line takes.
void ScanPool::scan_here(std::string_view line, uint64_t seq, const Record* record) {
  flush();
  auto scanner = make_();  // not kept: its parsers grew to this line
  ScanOutput out;
  if (record) {
    TextArena arena;  // at most the line's size, where a second parse would take more
    arena.reserve(line.size());  // grown by doubling, it would hold two copies at once
    const LineTexts texts{&arena, arena.add(*record)};
    scanner->scan(line, seq, &texts, &out);
  } else {
    scanner->scan(line, seq, nullptr, &out);
  }
  sink_(out);
}

void ScanPool::submit() {
  if (current_->ends.empty() && current_->digests.empty()) return;
  auto batch = std::exchange(current_, take_spare());
  batch->bytes.append(kLinePadding, '\0');  // parsers read past the last line
  if (inline_) {
    scan_batch(*inline_, *batch);
    sink_(batch->out);
    // A batch grown for a long line is let go (give_back), and so is the
    // scanner, whose parsers grew with it: as scan_here()'s, not kept (redact
    // held a parse of its longest line under 8 MB to the end).
    if (batch_bytes(*batch) > kKeepBatchBytes) inline_ = make_();
    give_back(std::move(batch));
    return;
  }
  std::unique_lock lock(mu_);
  in_flight_bytes_ += batch_bytes(*batch);
  todo_.push_back(batch.get());
  in_flight_.push_back(std::move(batch));
  work_cv_.notify_one();
  // Hand back what is done; wait while too much is in flight.
  while (!in_flight_.empty() && (in_flight_.front()->done || in_flight_bytes_ > kMaxInFlight)) {
    deliver_done_front(lock);
  }
}

// Waits for the oldest batch, then gives its results to the sink (without
// the lock, so that workers go on meanwhile).
void ScanPool::deliver_done_front(std::unique_lock<std::mutex>& lock) {
  done_cv_.wait(lock, [&] { return in_flight_.front()->done; });
  auto batch = std::move(in_flight_.front());
  in_flight_.pop_front();
  in_flight_bytes_ -= batch_bytes(*batch);
  lock.unlock();
  sink_(batch->out);
  give_back(std::move(batch));
  lock.lock();
}

// Batches are reused (their buffers keep their size): a fresh megabyte per
// batch would cost a page fault per page.
std::unique_ptr<ScanPool::Batch> ScanPool::take_spare() {
  if (spare_.empty()) return std::make_unique<Batch>();
  auto b = std::move(spare_.back());
  spare_.pop_back();
  return b;
}

void ScanPool::give_back(std::unique_ptr<Batch> b) {
  // Grown for one long line: let it go.
  if (b->bytes.capacity() > kKeepBatchBytes || b->texts.capacity() > kKeepBatchBytes ||
      b->digest_bytes.capacity() > kKeepBatchBytes) {
    return;
  }
  b->bytes.clear();
  b->ends.clear();
  b->seqs.clear();
  b->texts.clear();
  b->records.clear();
  b->answers.clear();
  b->answer_bytes = 0;
  b->digest_bytes.clear();
  b->digests.clear();
  b->out.hits.clear();
  b->out.markers.clear();
  b->out.provider_key_lines.clear();
  b->out.digest_mismatches.clear();
  b->done = false;
  spare_.push_back(std::move(b));
}

void ScanPool::flush() {
  submit();
  if (inline_) return;
  std::unique_lock lock(mu_);
  while (!in_flight_.empty()) deliver_done_front(lock);
}

void ScanPool::finish() {
  flush();
  if (inline_) return;
  {
    std::lock_guard lock(mu_);
    closing_ = true;
  }
  work_cv_.notify_all();
  for (auto& t : threads_) {
    if (t.joinable()) t.join();
  }
  threads_.clear();
}

}  // namespace goalcup::cheat
