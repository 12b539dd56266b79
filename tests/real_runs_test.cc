// Real runs: every real Claude Code transcript and Codex rollout in
// ../shared/corpora/real-native, wrapped in the honest trace a recorder
// would write around it (goalcup-fixture wrap), in both orders a recorder
// can see, must be judged clean; each edit a cheater would make to the log
// must be a high finding on every log that has the shape for it. The logs
// are read in place, never copied into the repository.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "cheatcheck/scanner.h"
#include "fixtures/writer/wrap.h"
#include "tests/support.h"

namespace goalcup::cheat {
namespace {

using fixtures::LogEdit;
using fixtures::WrapOrder;

std::vector<std::filesystem::path> real_logs() {
  std::vector<std::filesystem::path> out;
  const std::string dir = testing::corpora_dir();
  if (dir.empty() || !std::filesystem::is_directory(dir + "/real-native/logs")) return out;
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir + "/real-native/logs")) {
    if (e.is_regular_file() && e.path().extension() == ".jsonl") out.push_back(e.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string read_all(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

struct Wrapped {
  fixtures::WrapResult result;
  CheatReport report;
};

Wrapped wrap_and_check(const std::filesystem::path& log, WrapOrder order, LogEdit edit = LogEdit::none) {
  fixtures::WrapSpec spec;
  spec.order = order;
  spec.edit = edit;
  spec.file = log.filename().string();
  fixtures::Lines lines;
  Wrapped w;
  w.result = fixtures::wrap_log(read_all(log), spec, testing::dev_key(), [&](const std::string& l) { lines.push_back(l); });
  static const Keyring ring = testing::dev_keyring();
  CheatOptions opt;
  opt.walk.keyring = &ring;
  w.report = check_trace(testing::write_temp("real-run.jsonl", fixtures::join(lines)), opt);
  return w;
}

std::string describe(const CheatReport& r) {
  std::string s;
  for (const auto& f : r.findings) s += "  " + f.check + "/" + std::string(severity_name(f.severity)) + ": " + f.message + "\n";
  return s;
}

#define SKIP_WITHOUT_CORPORA(logs)                                                                        \
  if ((logs).empty()) GTEST_SKIP() << "../shared/corpora/real-native not found (set GOALCUP_CORPORA): " \
                                      "the real-run tests did not run"

TEST(RealRuns, HonestTracesAroundRealLogsAreVerifiedAndClean) {
  const auto logs = real_logs();
  SKIP_WITHOUT_CORPORA(logs);
  for (const auto& log : logs) {
    for (WrapOrder order : {WrapOrder::live, WrapOrder::late}) {
      SCOPED_TRACE(log.filename().string() + (order == WrapOrder::live ? " (live)" : " (late)"));
      const Wrapped w = wrap_and_check(log, order);
      EXPECT_VERDICT(w.report.verify, Verdict::verified);
      for (const auto& f : w.report.findings) {
        EXPECT_TRUE(f.severity != Severity::warning && f.severity != Severity::high) << describe(w.report);
      }
    }
  }
}

class RealRunEdits : public ::testing::TestWithParam<LogEdit> {};

TEST_P(RealRunEdits, AreHighFindingsOnEveryLogWithTheShape) {
  const auto logs = real_logs();
  SKIP_WITHOUT_CORPORA(logs);
  size_t applied = 0;
  for (const auto& log : logs) {
    for (WrapOrder order : {WrapOrder::live, WrapOrder::late}) {
      SCOPED_TRACE(log.filename().string() + (order == WrapOrder::live ? " (live)" : " (late)"));
      const Wrapped w = wrap_and_check(log, order, GetParam());
      if (!w.result.edited) continue;
      ++applied;
      EXPECT_VERDICT(w.report.verify, Verdict::verified);
      const bool high = std::any_of(w.report.findings.begin(), w.report.findings.end(),
                                    [](const Finding& f) { return f.severity == Severity::high; });
      EXPECT_TRUE(high) << w.result.edit_note << ": no high finding\n" << describe(w.report);
    }
  }
  EXPECT_GT(applied, 0u) << "no real log has the shape for this edit";
}

INSTANTIATE_TEST_SUITE_P(Edits, RealRunEdits,
                         ::testing::Values(LogEdit::invent_answer, LogEdit::change_text, LogEdit::remove_tool_call,
                                           LogEdit::add_tool_call, LogEdit::remove_tool_result, LogEdit::reorder),
                         [](const auto& edit_case) {
                           std::string n = fixtures::log_edit_names()[static_cast<size_t>(edit_case.param) - 1];
                           std::replace(n.begin(), n.end(), '-', '_');
                           return n;
                         });

}  // namespace
}  // namespace goalcup::cheat
