#include "cheatcheck/progress_outputs.h"

#include <string_view>

namespace goalcup::cheat {
namespace {

// A terminal line as a viewer shows it: ANSI escape sequences dropped, only
// what follows the last carriage return (a redrawn line), no trailing blanks.
std::string shown_line(std::string_view line) {
  if (const size_t cr = line.rfind('\r'); cr != std::string_view::npos) {
    const std::string_view after = line.substr(cr + 1);
    line = after.find_first_not_of(" \t") == std::string_view::npos ? line.substr(0, cr) : after;
    if (const size_t again = line.rfind('\r'); again != std::string_view::npos) line = line.substr(again + 1);
  }
  std::string out;
  out.reserve(line.size());
  for (size_t i = 0; i < line.size(); ++i) {
    if (line[i] == '\x1b' && i + 1 < line.size() && line[i + 1] == '[') {
      i += 2;
      while (i < line.size() && !(line[i] >= '@' && line[i] <= '~')) ++i;
      continue;
    }
    out += line[i];
  }
  while (!out.empty() && (out.back() == ' ' || out.back() == '\t')) out.pop_back();
  return out;
}

std::vector<std::string> shown_lines(std::string_view text) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= text.size()) {
    const size_t end = std::min(text.find('\n', start), text.size());
    out.push_back(shown_line(text.substr(start, end - start)));
    start = end + 1;
  }
  return out;
}

// What Claude Code writes when it does not send a command's whole output.
bool shortened_result(std::string_view text) {
  return text.find("truncated]") != std::string_view::npos || text.find("<persisted-output>") != std::string_view::npos ||
         text.find("Output too large") != std::string_view::npos ||
         text.starts_with("Command running in background") || text.find("[Request interrupted") != std::string_view::npos;
}

}  // namespace

bool ProgressOutputs::keep(size_t bytes) {
  if (kept_bytes_ + bytes > kMaxKeptBytes) {
    over_ = true;
    return false;
  }
  kept_bytes_ += bytes;
  return true;
}

void ProgressOutputs::logged_line(const NativeInfo& n, uint64_t seq) {
  if (n.harness != NativeInfo::Harness::claude_code) return;
  if (n.shell_progress) {
    const Identity call = identity(n.shell_progress->call);
    if (results_before_.contains(identity(n.file + '\0' + n.shell_progress->call))) after_result_.add(seq);
    for (const std::string& text : n.shell_progress->outputs) {
      if (!shown_keys_.insert(sha256(n.shell_progress->call + '\0' + text)).second || !keep(text.size())) continue;
      shown_.push_back({seq, call, text});
      results_.try_emplace(call);
    }
  }
  for (size_t i = 0; i < n.results.size() && i < n.result_texts.size(); ++i) {
    const auto it = results_.find(identity(n.results[i]));
    if (it == results_.end()) {
      if (results_before_.size() < kMaxTracked) results_before_.insert(identity(n.file + '\0' + n.results[i]));
      continue;
    }
    Result& r = it->second;
    if (!r.text.empty() || r.shortened || !keep(n.result_texts[i].size())) continue;  // the first result counts
    r.shortened = shortened_result(n.result_texts[i]);
    for (std::string& line : shown_lines(n.result_texts[i])) {
      r.lines.insert(sha256(line));
      r.text.append(line).push_back('\n');
    }
  }
}

std::optional<bool> ProgressOutputs::held(const std::string& shown, const Result& result) {
  std::vector<std::string> lines = shown_lines(shown);
  while (!lines.empty() && lines.back().empty()) lines.pop_back();
  for (size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].empty() || result.lines.contains(sha256(lines[i]))) continue;
    if (i != 0 && i + 1 != lines.size()) return false;
    // An end line may be cut (the tail's first, the last still being written).
    scanned_bytes_ += result.text.size();
    if (scanned_bytes_ > kMaxScannedBytes) return std::nullopt;
    if (result.text.find(lines[i]) == std::string::npos) return false;
  }
  return true;
}

void ProgressOutputs::finish(Context& ctx) {
  if (over_) ctx.skip("GC04", "more than " + std::to_string(kMaxKeptBytes >> 20) + " MiB of Bash progress output: the rest not judged");
  bool budget_spent = false;
  for (const Shown& s : shown_) {
    const auto r = results_.find(s.call);
    if (r == results_.end() || r->second.text.empty() || r->second.shortened) continue;
    const std::optional<bool> ok = held(s.text, r->second);
    if (!ok) {
      budget_spent = true;
      break;
    }
    if (!*ok) unheld_.add(s.seq);
  }
  if (budget_spent) ctx.skip("GC04", "Bash progress output too large to search: the rest not judged");
  emit_counted(ctx, "GC04", Severity::warning, unheld_,
               "Bash progress line(s) (bash_progress) show output that the command's result, as logged and sent, "
               "does not hold: the live output a viewer replays may have been rewritten. Read it against the result.",
               "bash-progress-unheld");
  emit_counted(ctx, "GC04", Severity::warning, after_result_,
               "Bash progress line(s) (bash_progress) are logged after their command's result: Claude Code writes "
               "them while the command runs.",
               "bash-progress-late");
}

}  // namespace goalcup::cheat
