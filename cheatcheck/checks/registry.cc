#include <algorithm>
#include <cstdio>

#include "cheatcheck/checks/check.h"
#include "core/json_strict.h"

namespace goalcup::cheat {

namespace {

// Filled while the check files' statics are initialised (one thread, before
// main), read only after.
std::vector<RegisteredCheck>& registry() {
  static std::vector<RegisteredCheck> checks;
  return checks;
}

}  // namespace

CheckRegistrar::CheckRegistrar(const GapRule& rule, CheckFactory make) noexcept {
  auto& checks = registry();
  const auto at = std::lower_bound(checks.begin(), checks.end(), rule.id,
                                   [](const RegisteredCheck& c, std::string_view id) { return c.rule.id < id; });
  checks.insert(at, RegisteredCheck{rule, make});
}

const std::vector<RegisteredCheck>& registered_checks() { return registry(); }

std::vector<std::unique_ptr<Check>> make_trace_checks() {
  std::vector<std::unique_ptr<Check>> checks;
  for (const RegisteredCheck& c : registered_checks()) checks.push_back(c.make());
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

void emit_counted(Context& ctx, std::string_view check, Severity severity, const SeqList& list, const std::string& what,
                  const std::string& key) {
  if (list.empty()) return;
  ctx.emit(finding(std::string(check), severity, list.seqs, std::to_string(list.count) + " " + what), key);
}

bool lists_redactions(const Record& r) {
  simdjson::dom::array spans;
  return json::array(r.body, "redactions", &spans) == json::Get::ok && spans.size() > 0;
}

bool cut_at_cap(const Record& r, const WireBody& body) {
  bool complete = true;
  uint64_t size = 0;
  return json::boolean(r.body, "complete", &complete) == json::Get::ok && !complete &&
         json::uint(r.body, "size", &size) == json::Get::ok && body.base64_ok && size > body.bytes().size();
}

uint64_t cut_prefix_of(const std::vector<std::pair<uint64_t, std::string>>& prefixes, std::string_view logged) {
  for (const auto& [seq, prefix] : prefixes) {
    if (!prefix.empty() && logged.starts_with(prefix)) return seq;
  }
  return 0;
}

std::string seconds_text(int64_t nanos) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f s", static_cast<double>(nanos) / 1e9);
  return buf;
}

}  // namespace goalcup::cheat
