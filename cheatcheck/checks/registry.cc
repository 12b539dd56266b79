#include <cstdio>

#include "cheatcheck/checks/check.h"

namespace goalcup::cheat {

std::vector<std::unique_ptr<Check>> make_trace_checks() {
  std::vector<std::unique_ptr<Check>> checks;
  for (auto make : {make_gc01, make_gc04, make_gc05, make_gc06, make_gc07, make_gc08, make_gc09, make_gc10,
                    make_gc11, make_gc12, make_gc13}) {
    checks.push_back(make());
  }
  return checks;
}

void NamedSeqs::add(std::string_view name, uint64_t seq) {
  std::string key = clip_text(name);
  if (by_name_.size() >= kMaxNames && !by_name_.contains(key)) key = "(other names)";
  by_name_[key].add(seq);
}

Identity identity(std::string_view id) { return sha256(id); }

int64_t seconds_to_nanos(double seconds) {
  constexpr double kMax = 9.2e18;  // just below INT64_MAX
  const double n = seconds * 1e9;
  return n >= kMax ? static_cast<int64_t>(kMax) : n <= 0 ? 0 : static_cast<int64_t>(n);
}

std::string seconds_text(int64_t nanos) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f s", static_cast<double>(nanos) / 1e9);
  return buf;
}

}  // namespace goalcup::cheat
