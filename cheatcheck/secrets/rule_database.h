// Compiles every secret rule into one Hyperscan database (block mode, no
// start-of-match tracking: rules know their match lengths). Used at build
// time by compile_rules and, as a fallback, at run time by the matcher.
#pragma once

#include <hs/hs.h>

#include <string>

namespace goalcup::cheat {

// The database, or nullptr with `error` set.
hs_database_t* compile_rule_database(std::string* error);

}  // namespace goalcup::cheat
