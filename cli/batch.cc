#include "cli/batch.h"

#include "cli/safe_text.h"
#include "core/core_pool.h"

#include <unistd.h>

#include <atomic>
#include <charconv>
#include <condition_variable>
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
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

namespace {

bool is_list_comment_or_blank(std::string_view line) {
  const size_t first = line.find_first_not_of(" \t");
  return first == std::string_view::npos || line[first] == '#';
}

std::vector<std::string> read_list(std::istream& in) {
  std::vector<std::string> out;
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (!is_list_comment_or_blank(line) && line != "-") out.push_back(line);
  }
  return out;
}

bool has_suffix(std::string_view s, std::string_view suffix) {
  return s.size() > suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

bool looks_like_trace_input(std::string_view name) {
  // Uploads compressed otherwise are inputs too: each is then said to be
  // could-not-judge (unsupported_format), not left out of the count.
  for (std::string_view suffix : {".jsonl", ".jsonl.zst", ".tar", ".tar.zst", ".tgz", ".jsonl.gz", ".tar.gz", ".jsonl.xz",
                                  ".tar.xz", ".jsonl.bz2", ".tar.bz2", ".zip"}) {
    if (has_suffix(name, suffix)) return true;
  }
  return false;
}

namespace fs = std::filesystem;

class BatchWalk {
 public:
  explicit BatchWalk(const BatchWalkLimits& limits) : limits_(limits) {}

  std::optional<Error> walk(const fs::path& dir, unsigned depth) {
    std::vector<fs::directory_entry> entries;
    std::error_code ec;
    fs::directory_iterator it(dir, ec);
    if (ec) return Error{Code::io_error, -1, "cannot read the folder " + dir.string() + ": " + ec.message()};
    for (; it != fs::directory_iterator(); it.increment(ec)) {
      if (ec) return Error{Code::io_error, -1, "cannot read the folder " + dir.string() + ": " + ec.message()};
      if (++seen_ > limits_.max_entries) {
        return Error{Code::limit_archive_members, -1, "the batch folder has more than " +
                                                          std::to_string(limits_.max_entries) + " entries"};
      }
      entries.push_back(*it);
    }
    std::sort(entries.begin(), entries.end(),
              [](const auto& a, const auto& b) { return a.path().filename() < b.path().filename(); });
    // A submission is one input, whatever else it holds.
    for (const auto& e : entries) {
      const std::string name = e.path().filename().string();
      if ((name == "trace.jsonl" || name == "trace.jsonl.zst") && !e.is_symlink(ec)) {
        found_.push_back(dir.string());
        return std::nullopt;
      }
    }
    for (const auto& e : entries) {
      if (e.is_symlink(ec)) {  // an upload must not lead outside itself
        if (looks_like_trace_input(e.path().filename().string())) skipped_links_.push_back(e.path().string());
        continue;
      }
      if (e.is_directory(ec)) {
        if (depth + 1 > limits_.max_depth) {
          return Error{Code::limit_archive_members, -1, "the batch folder nests deeper than " + std::to_string(limits_.max_depth) +
                                                  " levels at " + e.path().string()};
        }
        if (auto err = walk(e.path(), depth + 1)) return err;
      } else if (e.is_regular_file(ec) && looks_like_trace_input(e.path().filename().string())) {
        found_.push_back(e.path().string());
      }
    }
    return std::nullopt;
  }
  std::vector<std::string>& found() { return found_; }
  std::vector<std::string>& skipped_links() { return skipped_links_; }

 private:
  BatchWalkLimits limits_;
  size_t seen_ = 0;
  std::vector<std::string> found_, skipped_links_;
};

}  // namespace

Result<std::vector<std::string>> read_file_list(const std::string& path) {
  if (path == "-") return read_list(std::cin);
  std::ifstream in(path);
  if (!in) return Error{Code::usage, -1, "cannot read the file list " + path};
  return read_list(in);
}

Result<BatchFolder> expand_batch_dir(const std::string& dir, const BatchWalkLimits& limits) {
  std::error_code ec;
  if (!fs::is_directory(fs::symlink_status(dir, ec))) {
    return BatchFolder{{dir}, {}};  // a file in a --batch list is its own input
  }
  BatchWalk walk(limits);
  if (auto err = walk.walk(dir, 0)) return *err;
  return BatchFolder{std::move(walk.found()), std::move(walk.skipped_links())};
}

std::string batch_hint(const std::string& input, Code code, std::string_view tool) {
  if (code != Code::no_trace_in_submission && code != Code::ambiguous_submission) return "";
  std::error_code ec;
  if (!fs::is_directory(fs::symlink_status(input, ec))) return "";
  auto folder = expand_batch_dir(input);
  if (!folder || folder->inputs.size() < 2) return "";
  return std::string(tool) + ": hint: " + input + " holds " + std::to_string(folder->inputs.size()) +
         " traces or submissions; to check each on its own, pass --batch (or -r)\n";
}

Result<SelectedInputs> gather_inputs(const InputOptions& opt) {
  SelectedInputs out;
  std::vector<std::string> given = opt.inputs;
  if (!opt.files_from.empty()) {
    auto more = read_file_list(opt.files_from);
    if (!more) return more.take_error();
    given.insert(given.end(), more->begin(), more->end());
  }
  for (const auto& in : given) {
    if (!opt.batch || in == "-") {
      out.inputs.push_back(in);
      continue;
    }
    GOALCUP_ASSIGN_OR_RETURN(BatchFolder folder, expand_batch_dir(in));
    out.inputs.insert(out.inputs.end(), folder.inputs.begin(), folder.inputs.end());
    for (const auto& link : folder.skipped_links) {
      print_text(std::cerr, "--batch: " + safe_text(link) + " is a symbolic link, not followed: not checked\n", Style::plain());
    }
  }
  if (!opt.shard.empty()) {
    out.shard = parse_shard(opt.shard);
    if (!out.shard) return Error{Code::usage, -1, "--shard wants K/N with 0 <= K < N"};
    out.inputs = select_shard(out.inputs, *out.shard);
  }
  return out;
}

void report_could_not_judge(std::string_view tool, const std::string& file, const Error* e) {
  std::string line = std::string(tool) + ": could not judge " + file;
  if (e) line += ": " + std::string(code_name(e->code)) + ": " + e->message;
  line += "\n";
  if (e) line += batch_hint(file, e->code, tool);
  print_text(std::cerr, line, Style::plain());
}

unsigned default_jobs() { return available_cores(); }

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
  // Each job thread holds a core of the shared pool while it has traces to
  // take, so that a trace's own threads only get cores no job is using.
  auto worker = [&](CorePool::Lease core) {
    for (size_t i; (i = next.fetch_add(1)) < count;) {
      work(i);
      std::lock_guard lock(mu);
      done[i] = true;
      cv.notify_all();
    }
    core.release(core.count());
  };
  // The calling thread only emits, so that output appears as soon as it can.
  std::vector<std::thread> threads;
  std::vector<CorePool::Lease> cores;
  for (unsigned t = 0; t < jobs; ++t) cores.push_back(CorePool::shared().reserve(1));
  for (unsigned t = 0; t < jobs; ++t) threads.emplace_back(worker, std::move(cores[t]));
  for (size_t i = 0; i < count; ++i) {
    {
      std::unique_lock lock(mu);
      cv.wait(lock, [&] { return done[i]; });
    }
    const std::string label = status ? status(i) : std::string();
    emit(i);
    bar.update(i + 1, label);
  }
  for (auto& t : threads) t.join();
}

}  // namespace goalcup
