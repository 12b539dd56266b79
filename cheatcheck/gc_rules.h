// The cheat checklist's gaps, for reports (SARIF rules, text headings).
#pragma once

#include <span>
#include <string_view>

namespace goalcup::cheat {

struct GapRule {
  std::string_view id;    // GC01..GC13, or "verify"
  std::string_view name;  // CamelCase, for SARIF
  std::string_view gap;
  std::string_view bound;
  std::string_view evidence;
};

std::span<const GapRule> gap_rules();
// The coop audit's rules (COOP01..COOP06, MAN00..MAN12), same shape.
std::span<const GapRule> coop_rules();
const GapRule* gap_rule(std::string_view id);

}  // namespace goalcup::cheat
