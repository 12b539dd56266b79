#include "cli/batch.h"

#include <unistd.h>

#include <atomic>
#include <charconv>
#include <condition_variable>
#include <cstdio>
#include <fstream>
#include <map>
#include <mutex>
#include <thread>

namespace goalcup {

std::optional<Shard> parse_shard(std::string_view text) {
  auto slash = text.find('/');
  if (slash == std::string_view::npos) return std::nullopt;
  Shard s;
  auto a = text.substr(0, slash), b = text.substr(slash + 1);
  if (std::from_chars(a.data(), a.data() + a.size(), s.index).ptr != a.data() + a.size() || a.empty()) return std::nullopt;
  if (std::from_chars(b.data(), b.data() + b.size(), s.count).ptr != b.data() + b.size() || b.empty()) return std::nullopt;
  if (s.count == 0 || s.index >= s.count) return std::nullopt;
  return s;
}

std::vector<std::string> select_shard(const std::vector<std::string>& inputs, Shard shard) {
  std::vector<std::string> out;
  for (size_t i = shard.index; i < inputs.size(); i += shard.count) out.push_back(inputs[i]);
  return out;
}

Result<std::vector<std::string>> read_file_list(const std::string& path) {
  std::ifstream in(path);
  if (!in) return Error{Code::usage, -1, "cannot read the file list " + path};
  std::vector<std::string> out;
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (!line.empty() && line != "-") out.push_back(line);
  }
  return out;
}

unsigned default_jobs() { return std::max(1u, std::thread::hardware_concurrency()); }

namespace {

class Progress {
 public:
  Progress(size_t total, bool on) : total_(total), on_(on && total > 1 && ::isatty(STDERR_FILENO)) {}
  void update(size_t done, const std::string& status) {
    if (!on_) return;
    if (!status.empty()) ++counts_[status];
    std::string line = "\r[" + std::to_string(done) + "/" + std::to_string(total_) + "]";
    for (const auto& [name, n] : counts_) line += " " + name + " " + std::to_string(n);
    std::fprintf(stderr, "%s\x1b[K", line.c_str());
    std::fflush(stderr);
  }
  ~Progress() {
    if (on_) std::fprintf(stderr, "\r\x1b[K");
  }

 private:
  size_t total_;
  bool on_;
  std::map<std::string, size_t> counts_;
};

}  // namespace

void run_batch(size_t count, unsigned jobs, const std::function<void(size_t)>& work,
               const std::function<void(size_t)>& emit, bool progress,
               const std::function<std::string(size_t)>& status) {
  Progress bar(count, progress);
  jobs = static_cast<unsigned>(std::max<size_t>(1, std::min<size_t>(jobs, count)));
  std::mutex mu;
  std::condition_variable cv;
  std::vector<bool> done(count, false);
  std::atomic<size_t> next{0};
  auto worker = [&] {
    for (size_t i; (i = next.fetch_add(1)) < count;) {
      work(i);
      std::lock_guard lock(mu);
      done[i] = true;
      cv.notify_all();
    }
  };
  // The calling thread only emits, so that output appears as soon as it can.
  std::vector<std::thread> threads;
  for (unsigned t = 0; t < jobs; ++t) threads.emplace_back(worker);
  for (size_t i = 0; i < count; ++i) {
    {
      std::unique_lock lock(mu);
      cv.wait(lock, [&] { return done[i]; });
    }
    emit(i);
    bar.update(i + 1, status ? status(i) : std::string());
  }
  for (auto& t : threads) t.join();
}

}  // namespace goalcup
