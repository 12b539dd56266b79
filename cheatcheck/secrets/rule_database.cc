#include "cheatcheck/secrets/rule_database.h"

#include <vector>

#include "cheatcheck/secrets/rules.h"

namespace goalcup::cheat {

hs_database_t* compile_rule_database(std::string* error) {
  auto rules = secret_rules();
  std::vector<const char*> exprs;
  std::vector<std::string> patterns;
  std::vector<unsigned> flags, ids;
  patterns.reserve(rules.size());
  exprs.reserve(rules.size());
  for (size_t i = 0; i < rules.size(); ++i) {
    patterns.emplace_back(rules[i].pattern);
    exprs.push_back(patterns.back().c_str());
    flags.push_back(rules[i].caseless ? HS_FLAG_CASELESS : 0u);
    ids.push_back(static_cast<unsigned>(i));
  }
  hs_database_t* db = nullptr;
  hs_compile_error_t* err = nullptr;
  if (hs_compile_multi(exprs.data(), flags.data(), ids.data(), static_cast<unsigned>(exprs.size()), HS_MODE_BLOCK,
                       nullptr, &db, &err) != HS_SUCCESS) {
    *error = "secret rule " + std::to_string(err ? err->expression : -1) + ": " + (err ? err->message : "?");
    hs_free_compile_error(err);
    return nullptr;
  }
  return db;
}

}  // namespace goalcup::cheat
