// zstd read frame by frame, so that frames can be inflated on several
// threads (issue 19): a recorder that flushes a frame at a time writes many
// frames, each declaring its content size. Frames are carved from the
// compressed bytes by their headers (ZSTD_getFrameHeader,
// ZSTD_findFrameCompressedSize) without inflating them, gathered into tasks
// of about 1 MiB of output, inflated by whichever thread is free and handed
// on in order. Whatever this cannot do frame by frame (no declared content
// size, a frame over kMaxFrameContent, a skippable or corrupt frame, a frame
// cut by the end of the file, a window or ratio over the limits) is handed,
// from that frame on, to the streaming reader, which judges it as before.
// The bytes read are the same on any number of threads: threads only
// change who inflates a task.
#define ZSTD_STATIC_LINKING_ONLY  // ZSTD_getFrameHeader: exported by libzstd, marked experimental
#include <zstd.h>

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "core/owned.h"
#include "core/source.h"
#include "core/source_internal.h"

namespace goalcup {
namespace {

// Frames larger than this are streamed: a declared size is only trusted this
// far before anything is allocated for it.
constexpr size_t kMaxFrameContent = 2 << 20;
constexpr size_t kTaskContent = 1 << 20;  // frames gathered into one task, unless one is larger
// Tasks carved ahead of the one being read, whatever the threads: where
// reading the input stops on an error must not depend on them. Four keep
// four cores inflating, more than the ordered parse can take (ARCHITECTURE.md).
constexpr size_t kTasksInFlight = 4;
constexpr size_t kReadChunk = 1 << 20;  // compressed bytes read at a time

struct Task {
  std::string compressed;
  std::vector<std::pair<size_t, size_t>> frames;  // compressed size, most content
  size_t content = 0;                              // at most, in all
  std::string out;
  enum class State : uint8_t { queued, running, done, failed } state = State::queued;

  // Inflates every frame into `out`; false if one fails (the streaming
  // reader then says why).
  bool inflate(ZSTD_DCtx* dctx) {
    if (!dctx) return false;  // no context could be made: the streaming reader says why
    out.resize(content);
    size_t in = 0, at = 0;
    for (const auto& [csize, most] : frames) {
      const size_t n = ZSTD_decompressDCtx(dctx, out.data() + at, most, compressed.data() + in, csize);
      if (ZSTD_isError(n)) return false;
      in += csize;
      at += n;
    }
    out.resize(at);
    return true;
  }
};

class FramedZstdSource final : public ByteSource {
 public:
  FramedZstdSource(std::unique_ptr<ByteSource> inner, const Limits& limits, std::shared_ptr<UploadBudget> budget)
      : inner_(std::move(inner)), limits_(limits), budget_(std::move(budget)), dctx_(ZSTD_createDCtx()) {}
  ~FramedZstdSource() override { set_threads(0); }
  std::optional<Error> cut() const override { return stream_ ? stream_->cut() : std::nullopt; }

  // Workers beside the reading thread, which inflates too.
  void use_threads(unsigned threads) override { set_threads(threads > 1 ? threads - 1 : 0); }

  Result<size_t> read(char* buf, size_t cap) override {
    for (;;) {
      if (stream_) return stream_->read(buf, cap);
      if (current_ && at_ < current_->out.size()) return deliver(buf, cap);
      recycle(std::move(current_));  // fully delivered
      if (auto e = plan()) return *e;
      std::shared_ptr<Task> next = take_front();
      if (!next) {
        if (carve_end_ == CarveEnd::stream) {
          start_streaming(nullptr);
          continue;
        }
        return size_t{0};
      }
      if (next->state == Task::State::failed) {
        start_streaming(next);
        continue;
      }
      consumed_ += next->compressed.size();
      current_ = std::move(next);
      at_ = 0;
    }
  }

 private:
  enum class CarveEnd : uint8_t { more, end, stream };

  Result<size_t> deliver(char* buf, size_t cap) {
    const size_t n = std::min(cap, current_->out.size() - at_);
    std::copy_n(current_->out.data() + at_, n, buf);
    at_ += n;
    produced_ += n;
    if (budget_) {
      GOALCUP_RETURN_IF_ERROR(budget_->add_inflated(n));
    }
    return n;
  }

  // A delivered task's buffer serves a later task: buffers freed on one
  // thread and allocated on another would be fresh pages every time.
  void recycle(std::shared_ptr<Task> done) {
    if (done && spare_.size() < kTasksInFlight) spare_.push_back(std::move(done->out));
  }

  // Carves tasks until enough are in flight or the frames end.
  std::optional<Error> plan() {
    while (carve_end_ == CarveEnd::more) {
      {
        std::lock_guard lock(mu_);
        if (tasks_.size() >= kTasksInFlight) break;
      }
      auto task = std::make_shared<Task>();
      if (!spare_.empty()) {
        task->out = std::move(spare_.back());
        spare_.pop_back();
      }
      if (auto e = carve(*task)) return e;
      if (task->frames.empty()) break;
      std::lock_guard lock(mu_);
      tasks_.push_back(std::move(task));
      cv_.notify_all();
    }
    return std::nullopt;
  }

  // Fills `task` with whole frames from the compressed input; sets
  // carve_end_ when the input ends or must be streamed from here.
  std::optional<Error> carve(Task& task) {
    for (;;) {
      if (auto e = fill(ZSTD_FRAMEHEADERSIZE_MAX)) return e;
      const char* p = in_.data() + pos_;
      const size_t avail = in_.size() - pos_;
      if (avail == 0 && eof_) {
        carve_end_ = CarveEnd::end;
        return std::nullopt;
      }
      ZSTD_frameHeader h{};
      const size_t hr = ZSTD_getFrameHeader(&h, p, avail);
      const bool sized = h.frameContentSize != ZSTD_CONTENTSIZE_UNKNOWN;
      if (hr != 0 || h.frameType != ZSTD_frame || h.windowSize > (1ull << limits_.max_zstd_window_log) ||
          (sized && h.frameContentSize > kMaxFrameContent)) {
        carve_end_ = CarveEnd::stream;
        return std::nullopt;
      }
      // No honest frame of at most kMaxFrameContent is larger than this.
      const size_t most_compressed = ZSTD_compressBound(sized ? static_cast<size_t>(h.frameContentSize) : kMaxFrameContent) +
                                     64 * 1024;
      size_t csize = ZSTD_findFrameCompressedSize(p, avail);
      while (ZSTD_isError(csize) && !eof_ && in_.size() - pos_ < most_compressed) {
        if (auto e = fill(in_.size() - pos_ + kReadChunk)) return e;
        csize = ZSTD_findFrameCompressedSize(in_.data() + pos_, in_.size() - pos_);
      }
      // The declared size, or for a frame that declares none (a streaming
      // writer's), what its blocks can hold at most.
      const unsigned long long most = ZSTD_isError(csize) ? ZSTD_CONTENTSIZE_ERROR
                                                          : ZSTD_decompressBound(in_.data() + pos_, csize);
      if (most == ZSTD_CONTENTSIZE_ERROR || most > kMaxFrameContent) {
        carve_end_ = CarveEnd::stream;  // cut, corrupt or large: the streaming reader reads it
        return std::nullopt;
      }
      const size_t content = static_cast<size_t>(most);
      if (!task.frames.empty() && task.content + content > kTaskContent) return std::nullopt;  // the next task's
      if (produced_ + pending_content_ + content >
          kZstdRatioSlack + uint64_t{limits_.max_zstd_ratio} * (consumed_ + pending_compressed_ + csize)) {
        carve_end_ = CarveEnd::stream;  // a bomb: the streaming reader stops it where it always has
        return std::nullopt;
      }
      task.compressed.append(in_.data() + pos_, csize);
      task.frames.emplace_back(csize, content);
      task.content += content;
      pending_compressed_ += csize;
      pending_content_ += content;
      pos_ += csize;
    }
  }

  // At least `want` bytes buffered from pos_, unless the input ends first.
  std::optional<Error> fill(size_t want) {
    if (pos_ > 0 && (pos_ >= in_.size() / 2 || in_.size() - pos_ < want)) {
      in_.erase(0, pos_);
      pos_ = 0;
    }
    while (!eof_ && in_.size() - pos_ < want) {
      // Read into a buffer whose pages only the read touches: growing in_
      // by a chunk zeroed 1 MiB (256 page faults) for every file opened,
      // most of the time a folder of a thousand small uploads took.
      if (!chunk_) chunk_.reset(new char[kReadChunk]);
      auto n = inner_->read(chunk_.get(), kReadChunk);
      if (!n) return n.take_error();
      in_.append(chunk_.get(), *n);
      eof_ = *n == 0;
    }
    return std::nullopt;
  }

  // The oldest task, inflated (here, if no worker has started it).
  std::shared_ptr<Task> take_front() {
    std::unique_lock lock(mu_);
    if (tasks_.empty()) return nullptr;
    std::shared_ptr<Task> t = tasks_.front();
    if (t->state == Task::State::queued) {
      t->state = Task::State::running;
      lock.unlock();
      const bool ok = t->inflate(dctx_.get());
      lock.lock();
      t->state = ok ? Task::State::done : Task::State::failed;
    }
    cv_.wait(lock, [&] { return t->state == Task::State::done || t->state == Task::State::failed; });
    tasks_.pop_front();
    pending_compressed_ -= t->compressed.size();
    pending_content_ -= t->content;
    return t;
  }

  // From `failed` (or the carving point) on, the streaming reader reads
  // what is left: the failed task's bytes, those of the tasks after it,
  // what is buffered, and the rest of the input.
  void start_streaming(const std::shared_ptr<Task>& failed) {
    std::string rest;
    {
      std::unique_lock lock(mu_);
      if (failed) rest = failed->compressed;
      for (auto& t : tasks_) {
        cv_.wait(lock, [&] { return t->state != Task::State::running; });
        rest += t->compressed;
      }
      tasks_.clear();
    }
    set_threads(0);
    rest.append(in_, pos_, std::string::npos);
    in_.clear();
    pos_ = 0;
    stream_ = zstd_stream_source(prefixed_source(std::move(rest), std::move(inner_)), limits_, budget_,
                                 ZstdCounts{consumed_, produced_});
  }

  void set_threads(unsigned n) {
    {
      std::lock_guard lock(mu_);
      stopping_ = true;
      cv_.notify_all();
    }
    for (auto& w : workers_) w.join();
    workers_.clear();
    stopping_ = false;
    for (unsigned i = 0; i < n; ++i) workers_.emplace_back([this] { work(); });
  }

  void work() {
    const Owned<ZSTD_DCtx, &ZSTD_freeDCtx> dctx(ZSTD_createDCtx());
    std::unique_lock lock(mu_);
    while (!stopping_) {
      std::shared_ptr<Task> t;
      for (auto& q : tasks_) {
        if (q->state == Task::State::queued) {
          t = q;
          break;
        }
      }
      if (!t) {
        cv_.wait(lock);
        continue;
      }
      t->state = Task::State::running;
      lock.unlock();
      const bool ok = t->inflate(dctx.get());
      lock.lock();
      t->state = ok ? Task::State::done : Task::State::failed;
      cv_.notify_all();
    }
  }

  std::unique_ptr<ByteSource> inner_;
  Limits limits_;
  std::shared_ptr<UploadBudget> budget_;
  Owned<ZSTD_DCtx, &ZSTD_freeDCtx> dctx_;
  std::string in_;
  std::unique_ptr<char[]> chunk_;  // what fill() reads, uninitialised
  size_t pos_ = 0;
  bool eof_ = false;
  CarveEnd carve_end_ = CarveEnd::more;
  std::shared_ptr<Task> current_;
  std::vector<std::string> spare_;  // output buffers of delivered tasks
  size_t at_ = 0;
  uint64_t consumed_ = 0, produced_ = 0;                  // as the streaming reader counts them
  uint64_t pending_compressed_ = 0, pending_content_ = 0;  // carved, not yet delivered
  std::unique_ptr<ByteSource> stream_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::shared_ptr<Task>> tasks_;
  std::vector<std::thread> workers_;
  bool stopping_ = false;
};

}  // namespace

std::unique_ptr<ByteSource> framed_zstd_source(std::unique_ptr<ByteSource> inner, const Limits& limits,
                                               std::shared_ptr<UploadBudget> budget) {
  return std::make_unique<FramedZstdSource>(std::move(inner), limits, std::move(budget));
}

}  // namespace goalcup
