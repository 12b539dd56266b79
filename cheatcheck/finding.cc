#include "cheatcheck/finding.h"

#include "core/sha256.h"

namespace goalcup::cheat {

std::string_view severity_name(Severity s) {
  switch (s) {
    case Severity::info: return "info";
    case Severity::warning: return "warning";
    case Severity::high: return "high";
  }
  return "info";
}

bool parse_severity(std::string_view text, Severity* out) {
  for (Severity s : {Severity::info, Severity::warning, Severity::high}) {
    if (severity_name(s) == text) {
      *out = s;
      return true;
    }
  }
  return false;
}

std::string make_fingerprint(std::string_view check, std::string_view run_id, Severity severity, std::string_view key) {
  std::string material;
  material.append(check).append("\x1f").append(run_id).append("\x1f").append(severity_name(severity)).append("\x1f").append(key);
  return to_hex(sha256(material));
}

void bind_fingerprints(std::vector<Finding>& findings, std::string_view identity) {
  for (Finding& f : findings) {
    std::string material = f.fingerprint;
    material.append("\x1f").append(identity);
    f.fingerprint = to_hex(sha256(material));
  }
}

}  // namespace goalcup::cheat
