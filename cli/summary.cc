#include "cli/summary.h"

#include <algorithm>

#include "cli/json_name.h"
#include "cli/safe_text.h"
#include "cli/verify_text.h"

namespace goalcup {
namespace {

// Position under the batch exit rule: higher is worse.
int exit_rank(int code) {
  switch (code) {
    case 0: return 0;
    case 3: return 1;
    case 2: return 2;
    case 1: return 3;
    default: return 2;  // anything else is a failure to judge
  }
}

std::string plural(size_t n, const std::string& noun) { return std::to_string(n) + " " + noun + (n == 1 ? "" : "s"); }

}  // namespace

bool exit_code_worse(int a, int b) { return exit_rank(a) > exit_rank(b); }

void BatchSummary::add(std::string_view file, std::string_view verdict, int exit_code) {
  ++inputs_;
  ++verdicts_[std::string(verdict)];
  if (!meanings_.count(exit_code)) meanings_[exit_code] = std::string(verdict);
  if (exit_code_worse(exit_code, worst_)) {
    worst_ = exit_code;
    worst_files_.clear();
    worst_count_ = 0;
  }
  if (exit_code == worst_ && exit_code != 0) {
    ++worst_count_;
    if (worst_files_.size() < kMaxNamed) worst_files_.emplace_back(file);
  }
}

void BatchSummary::add_supplied_key(std::string_view file, std::string_view verdict) {
  ++supplied_key_count_;
  ++supplied_key_verdicts_[std::string(verdict)];
  if (supplied_key_files_.size() < kMaxNamed) supplied_key_files_.emplace_back(file);
}

void BatchSummary::add_findings(std::string_view severity, size_t count) { severities_[std::string(severity)] += count; }

void BatchSummary::add_skipped(std::string_view check, std::string_view reason) {
  ++skipped_[{std::string(check), std::string(reason)}];
}

// "  1 trace vouched for by a key given with --dev-key, not a production key: a.jsonl"
std::string BatchSummary::supplied_key_text(const Style& st) const {
  std::string line = plural(supplied_key_count_, noun_) + " vouched for by a key given with --dev-key, not a production key:";
  for (const auto& f : supplied_key_files_) line += " " + safe_text(f);
  if (supplied_key_count_ > supplied_key_files_.size()) {
    line += " ... and " + std::to_string(supplied_key_count_ - supplied_key_files_.size()) + " more";
  }
  return "  " + st.paint(line, Color::yellow) + "\n";
}

int BatchSummary::exit_code() const { return usage_failed_ && exit_code_worse(2, worst_) ? 2 : worst_; }

std::string BatchSummary::text(const Style& st) const {
  // Verdicts from the best to the worst, by the exit code each stands for.
  std::vector<std::pair<std::string, size_t>> order(verdicts_.begin(), verdicts_.end());
  auto code_of = [&](const std::string& verdict) {
    for (const auto& [code, meaning] : meanings_) {
      if (meaning == verdict) return code;
    }
    return 0;
  };
  std::stable_sort(order.begin(), order.end(), [&](const auto& a, const auto& b) {
    return exit_rank(code_of(a.first)) < exit_rank(code_of(b.first));
  });
  std::string out = st.paint("summary:", Color::bold) + " " + plural(inputs_, noun_);
  if (shard_) out += " (shard " + std::to_string(shard_->index) + "/" + std::to_string(shard_->count) + ")";
  std::string counts;
  for (const auto& [verdict, n] : order) {
    counts += (counts.empty() ? "" : ", ") + std::to_string(n) + " " + verdict;
    auto supplied = supplied_key_verdicts_.find(verdict);
    if (supplied != supplied_key_verdicts_.end()) {
      counts += " (" + std::to_string(supplied->second) + " by a " + std::string(kSuppliedKeyNote) + ")";
    }
  }
  if (!counts.empty()) out += ": " + counts;
  if (!severities_.empty()) {
    out += "; findings:";
    for (const char* sev : {"high", "warning", "info"}) {
      auto it = severities_.find(sev);
      out += " " + std::to_string(it == severities_.end() ? 0 : it->second) + " " + sev;
      if (std::string_view(sev) != "info") out += ",";
    }
  }
  out += "\n";
  if (supplied_key_count_ > 0) out += supplied_key_text(st);
  for (const auto& [what, n] : skipped_) {
    out += "  " + st.paint("skipped " + safe_text(what.first) + " for " + std::to_string(n) + " of " +
                               plural(inputs_, noun_) + ": " + safe_text(what.second),
                           Color::dim) +
           "\n";
  }
  const int code = exit_code();
  std::string last = "exit " + std::to_string(code);
  auto meaning = meanings_.find(code);
  if (code != 0 && meaning != meanings_.end()) last += " (" + meaning->second + ")";
  if (code != 0 && worst_count_ > 0) {
    last += ": " + plural(worst_count_, noun_) + ":";
    for (const auto& f : worst_files_) last += " " + safe_text(f);
    if (worst_count_ > worst_files_.size()) last += " ... and " + std::to_string(worst_count_ - worst_files_.size()) + " more";
  } else if (code == 2 && usage_failed_) {
    last += ": a usage error";
  }
  out += st.paint(last, code == 0 ? Color::green : code == 3 ? Color::yellow : Color::red) + "\n";
  return out;
}

void BatchSummary::write_json(JsonWriter& w) const {
  w.begin_object().field("inputs", static_cast<uint64_t>(inputs_));
  w.key("verdicts").begin_object();
  for (const auto& [verdict, n] : verdicts_) w.field(verdict, static_cast<uint64_t>(n));
  w.end_object();
  if (!severities_.empty()) {
    w.key("severities").begin_object();
    for (const char* sev : {"high", "warning", "info"}) {
      auto it = severities_.find(sev);
      w.field(sev, static_cast<uint64_t>(it == severities_.end() ? 0 : it->second));
    }
    w.end_object();
  }
  if (supplied_key_count_ > 0) {
    w.key("supplied_key").begin_object().field("count", static_cast<uint64_t>(supplied_key_count_));
    w.key("verdicts").begin_object();
    for (const auto& [verdict, n] : supplied_key_verdicts_) w.field(verdict, static_cast<uint64_t>(n));
    w.end_object().key("files").begin_array();
    for (const auto& f : supplied_key_files_) w.value(json_name_text(f));
    w.end_array().end_object();
  }
  w.key("skipped").begin_array();
  for (const auto& [what, n] : skipped_) {
    w.begin_object().field("check", what.first).field("reason", what.second).field("inputs", static_cast<uint64_t>(n));
    w.end_object();
  }
  w.end_array();
  w.field("exit_code", exit_code());
  w.key("exit_caused_by").begin_object().field("count", static_cast<uint64_t>(exit_code() == worst_ ? worst_count_ : 0));
  w.key("files").begin_array();
  if (exit_code() == worst_) {
    for (const auto& f : worst_files_) w.value(json_name_text(f));
  }
  w.end_array().end_object();
  if (shard_) {
    w.key("shard").begin_object().field("index", shard_->index).field("count", shard_->count);
    w.field("list_inputs", shard_->list_inputs).field("list_sha256", shard_->list_sha256).end_object();
  } else {
    w.null_field("shard");
  }
  w.end_object();
}

std::string BatchSummary::jsonl_line() const {
  std::string s;
  JsonWriter w(&s);
  w.begin_object().key("summary");
  write_json(w);
  w.end_object();
  return s + "\n";
}

}  // namespace goalcup
