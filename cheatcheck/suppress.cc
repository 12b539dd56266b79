#include "cheatcheck/suppress.h"

#include <fstream>
#include <sstream>

#include "core/json_strict.h"

namespace goalcup::cheat {

Status Suppressions::load_baseline(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error{Code::usage, -1, "cannot read baseline " + path};
  std::stringstream ss;
  ss << in.rdbuf();
  Limits limits;
  limits.max_line_bytes = 1ull << 30;
  StrictJsonParser parser(limits);
  auto root = parser.parse_copy(ss.str(), -1);
  simdjson::dom::array reports;
  if (!root || root->at_key("reports").get(reports)) {
    return Error{Code::usage, -1, "baseline " + path + " is not a goalcup-cheatcheck JSON report"};
  }
  for (auto r : reports) {
    simdjson::dom::array findings;
    if (r.at_key("findings").get(findings)) continue;
    for (auto f : findings) {
      std::string_view fp;
      if (!f.at_key("fingerprint").get(fp)) ids_.insert(std::string(fp));
    }
  }
  return {};
}

Status Suppressions::load_allowlist(const std::string& path) {
  std::ifstream in(path);
  if (!in) return Error{Code::usage, -1, "cannot read allowlist " + path};
  for (std::string line; std::getline(in, line);) {
    line = line.substr(0, line.find('#'));
    const size_t b = line.find_first_not_of(" \t\r"), e = line.find_last_not_of(" \t\r");
    if (b != std::string::npos) ids_.insert(line.substr(b, e - b + 1));
  }
  return {};
}

void Suppressions::apply(std::vector<Finding>& findings) const {
  for (auto& f : findings) {
    // Evidence that fails verification is never cleared: its fingerprint
    // names the run its unsigned header claims, which any upload can copy.
    if (f.check == kVerifyCheck) continue;
    f.suppressed = ids_.contains(f.fingerprint) || (f.has_secret && ids_.contains(f.secret.secret_sha256));
  }
}

}  // namespace goalcup::cheat
