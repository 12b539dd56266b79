#include "cli/batch.h"

#include "cli/safe_text.h"
#include "core/core_pool.h"
#include "core/sha256.h"
#include "core/source_internal.h"

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
  // A number too large for unsigned (ec set, value left as it was) is no
  // shard: 4294967297/2 must not run as 0/2.
  auto whole_number = [](std::string_view t, unsigned* v) {
    const auto r = std::from_chars(t.data(), t.data() + t.size(), *v);
    return !t.empty() && r.ec == std::errc() && r.ptr == t.data() + t.size();
  };
  if (!whole_number(a, &s.index) || !whole_number(b, &s.count)) return std::nullopt;
  if (s.count == 0 || s.index >= s.count) return std::nullopt;
  return s;
}

std::vector<std::string> select_shard(const std::vector<std::string>& inputs, Shard* shard) {
  Sha256 list;
  for (const auto& in : inputs) {
    list.update(in);
    list.update("\n");
  }
  shard->list_inputs = inputs.size();
  shard->list_sha256 = digest_ref(list.finish());
  std::vector<std::string> out;
  for (size_t i = shard->index; i < inputs.size(); i += shard->count) out.push_back(inputs[i]);
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

// One folder as the batch walk saw it: how many entries named like a
// submission's trace its tree holds (counting stops at 2), whether one is at
// its top, and the inputs it stands for when it is not one submission.
struct FolderScan {
  size_t traces = 0;
  bool trace_at_top = false;
  std::vector<std::string> inputs;
};

// The submission rule is the submission reader's (core/source_open.cc
// TraceFinder): a folder is one submission when an entry named like a trace
// is at its top, or when its tree holds exactly one such entry, whatever its
// type (the reader then refuses a link, a FIFO, a folder). The highest such
// folder below the batch is the upload: its other files (an entrant's harness
// logs, logs/rollout.jsonl) are never inputs of their own, so --batch judges
// an upload as reading it alone does.
class BatchWalk {
 public:
  explicit BatchWalk(const BatchWalkLimits& limits) : limits_(limits) {}

  Result<FolderScan> scan(const fs::path& dir, unsigned depth) {
    GOALCUP_ASSIGN_OR_RETURN(std::vector<fs::directory_entry> entries, list(dir));
    FolderScan out;
    for (const auto& e : entries) {
      if (is_trace_file_name(e.path().filename().string())) out.trace_at_top = true;
    }
    if (out.trace_at_top) {  // one submission: the reader looks inside it
      out.traces = 1;
      return out;
    }
    std::error_code ec;
    for (const auto& e : entries) {
      const std::string name = e.path().filename().string();
      if (e.is_symlink(ec)) {
        // Never followed, never passed over: a link named like an input or
        // leading to a folder (a symlinked upload) is an input the tools
        // refuse (unsafe_path), so the batch cannot pass with it unjudged.
        if (looks_like_trace_input(name) || fs::is_directory(e.path(), ec)) out.inputs.push_back(e.path().string());
        continue;
      }
      if (e.is_directory(ec)) {
        if (depth + 1 > limits_.max_depth) {
          return Error{Code::limit_archive_members, -1, "the batch folder nests deeper than " +
                                                            std::to_string(limits_.max_depth) + " levels at " +
                                                            e.path().string()};
        }
        GOALCUP_ASSIGN_OR_RETURN(FolderScan sub, scan(e.path(), depth + 1));
        out.traces = std::min<size_t>(2, out.traces + sub.traces);
        if (sub.traces == 1) {
          out.inputs.push_back(e.path().string());
        } else {
          out.inputs.insert(out.inputs.end(), sub.inputs.begin(), sub.inputs.end());
        }
      } else if (e.is_regular_file(ec) && looks_like_trace_input(name)) {
        out.inputs.push_back(e.path().string());
      }
    }
    return out;
  }

 private:
  Result<std::vector<fs::directory_entry>> list(const fs::path& dir) {
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
    return entries;
  }

  BatchWalkLimits limits_;
  size_t seen_ = 0;
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
    return BatchFolder{{dir}};  // a file in a --batch list is its own input
  }
  BatchWalk walk(limits);
  GOALCUP_ASSIGN_OR_RETURN(FolderScan top, walk.scan(dir, 0));
  // The batch folder itself is one submission only with a trace at its top.
  if (top.trace_at_top) return BatchFolder{{dir}};
  return BatchFolder{std::move(top.inputs)};
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
    const bool walked = folder.inputs.size() != 1 || folder.inputs[0] != in;
    for (auto& found : folder.inputs) {
      if (walked) out.walked.insert(found);
      out.inputs.push_back(std::move(found));
    }
  }
  if (!opt.shard.empty()) {
    out.shard = parse_shard(opt.shard);
    if (!out.shard) return Error{Code::usage, -1, "--shard wants K/N with 0 <= K < N"};
    out.inputs = select_shard(out.inputs, &*out.shard);
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
