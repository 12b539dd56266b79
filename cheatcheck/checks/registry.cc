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

std::string seconds_text(int64_t nanos) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f s", static_cast<double>(nanos) / 1e9);
  return buf;
}

}  // namespace goalcup::cheat
