#include "cheatcheck/secrets/rule_database.h"

#include <cstdio>
#include <cstdlib>
#include <vector>

#include "cheatcheck/secrets/rules.h"

namespace goalcup::cheat {
namespace {

struct Pattern {
  std::string expr;
  unsigned flags = 0, id = 0;
};

HsDatabase compile(const std::vector<Pattern>& patterns, std::string* error) {
  std::vector<const char*> exprs;
  std::vector<unsigned> flags, ids;
  for (const auto& p : patterns) {
    exprs.push_back(p.expr.c_str());
    flags.push_back(p.flags);
    ids.push_back(p.id);
  }
  hs_database_t* db = nullptr;
  hs_compile_error_t* err = nullptr;
  if (hs_compile_multi(exprs.data(), flags.data(), ids.data(), static_cast<unsigned>(exprs.size()), HS_MODE_BLOCK,
                       nullptr, &db, &err) != HS_SUCCESS) {
    *error = "secret pattern " + std::to_string(err ? err->expression : -1) + ": " + (err ? err->message : "?");
    hs_free_compile_error(err);
    return nullptr;
  }
  return HsDatabase(db);
}

unsigned pattern_flags(const Rule& rule) { return rule.caseless ? HS_FLAG_CASELESS : 0u; }

// A rule with a match_len: every match of its pattern is that long.
bool match_len_holds(const Rule& rule, std::string* error) {
  if (rule.match_len == 0) return true;
  const std::string expr(rule.pattern);
  hs_expr_info_t* info = nullptr;
  hs_compile_error_t* err = nullptr;
  if (hs_expression_info(expr.c_str(), pattern_flags(rule), &info, &err) != HS_SUCCESS) {
    *error = "secret rule " + std::string(rule.id) + ": " + (err ? err->message : "?");
    hs_free_compile_error(err);
    return false;
  }
  const unsigned shortest = info->min_width, longest = info->max_width;
  std::free(info);  // Vectorscan's misc allocator, malloc unless set
  if (shortest == rule.match_len && longest == rule.match_len) return true;
  *error = "secret rule " + std::string(rule.id) + " says match_len " + std::to_string(rule.match_len) +
           ", but its pattern matches " + std::to_string(shortest) + " to " + std::to_string(longest) + " bytes";
  return false;
}

void replace_all(std::string& s, std::string_view from, std::string_view to) {
  for (size_t p = s.find(from); p != std::string::npos; p = s.find(from, p + to.size())) s.replace(p, from.size(), to);
}

}  // namespace

HsDatabase compile_rule_database(std::string* error) { return compile_rule_database(secret_rules(), error); }

HsDatabase compile_rule_database(std::span<const Rule> rules, std::string* error) {
  for (const Rule& rule : rules) {
    if (!match_len_holds(rule, error)) return nullptr;
  }
  std::vector<Pattern> patterns;
  for (size_t i = 0; i < rules.size(); ++i) {
    patterns.push_back({std::string(rules[i].pattern), pattern_flags(rules[i]), static_cast<unsigned>(i)});
  }
  return compile(patterns, error);
}

// Inside JSON, at depth d, a quote is written \" (\\\" ...) and a newline \n
// (\\n ...). Every other character a rule spells is written as itself
// unless it is \u-escaped or is a \/ - and those are triggers of their own.
std::string raw_tolerant_pattern(std::string_view pattern) {
  std::string p(pattern);
  replace_all(p, R"(["'`]?)", "\x01?");
  replace_all(p, R"(["'`])", "\x01");
  replace_all(p, "\x01", R"((?:\\*["'`]))");
  replace_all(p, R"(["']?)", R"((?:\\*["'])?)");
  replace_all(p, R"(\s*)", R"((?:\s|\\+[nrtf])*)");
  replace_all(p, R"(\s+)", R"((?:\s|\\+[nrtf])+)");
  return p;
}

namespace {

// What may follow a generic assignment for the full scan to find a secret
// there (generic_value in rules.cc): a quoted value runs to the same quote
// and may hold any other byte (other quotes, NULs, backslashes); a bare value
// runs over bytes above space that are no quote or backslash. Neither opens
// with '[' (a list or a [REDACTED:...] marker). Without this bound,
// "max_tokens":4096 in every request would send every line to the decoder.
std::string generic_quoted_value(size_t min_len) {
  const std::string rest = "{" + std::to_string(min_len - 1) + "}";
  std::string alternatives;
  for (const char* q : {"\"", "'", "`"}) {
    alternatives += std::string(alternatives.empty() ? "" : "|") + "\\\\*" + q + "[^ \\[\\n" + q + "][^\\n" + q +
                    "]" + rest;
  }
  return "(?:" + alternatives + ")";
}

std::string generic_value_after(size_t min_len) {
  const std::string bare =
      R"([^\x00-\x20"'`\\\[][^\x00-\x20"'`\\])" "{" + std::to_string(min_len - 1) + "}";
  return R"((?:[\s@]|\\+[nrtf])*(?:)" + generic_quoted_value(min_len) + "|" + bare + ")";
}

// The generic rule ends in (?:<operator>|\s+@?<quote>): the value follows
// either form, so each form gets its own continuation.
std::string generic_prefilter_pattern(const Rule& rule, std::string* error) {
  constexpr std::string_view kQuoteForm = R"(|\s+@?["'`]))";
  const std::string_view p = rule.pattern;
  if (!p.ends_with(kQuoteForm)) {
    *error = "generic-secret: the pattern no longer ends in the quoted form the prefilter extends";
    return "";
  }
  const std::string_view operator_form = p.substr(0, p.size() - kQuoteForm.size());
  return raw_tolerant_pattern(operator_form) + generic_value_after(rule.min_len) + "|" +
         raw_tolerant_pattern(R"(\s+@?)") + generic_quoted_value(rule.min_len) + ")";
}

}  // namespace

HsDatabase compile_prefilter_database(std::string* error) {
  auto rules = secret_rules();
  std::vector<Pattern> patterns;
  for (size_t i = 0; i < rules.size(); ++i) {
    std::string expr = rules[i].id == "generic-secret" && rules[i].extract == Extract::value
                           ? generic_prefilter_pattern(rules[i], error)
                           : raw_tolerant_pattern(rules[i].pattern);
    if (expr.empty()) return HsDatabase(nullptr);
    patterns.push_back({expr, rules[i].caseless ? HS_FLAG_CASELESS : 0u, static_cast<unsigned>(i)});
  }
  std::string names;
  for (auto n : sensitive_header_names()) names += (names.empty() ? "" : "|") + std::string(n);
  patterns.push_back({R"re("(?:)re" + names + R"re()"\s*,\s*")re", HS_FLAG_CASELESS, kPrefilterHeader});
  for (const char* trigger : {
           R"(\\[u/x])",                       // \u, \/ and \x escapes (at any depth: \\u contains \u)
           R"(%[0-9A-Fa-f]{2})",               // percent-encoding
           R"(data:)",                         // an SSE stream, whose deltas are joined
           R"("encoding"\s*:\s*"base64")",     // a wire body stored as base64 (binary bodies are scanned too)
       }) {
    patterns.push_back({trigger, 0u, kPrefilterTrigger});
  }
  return compile(patterns, error);
}

HsDatabase load_database(const unsigned char* bytes, size_t size, HsDatabase (*compile_fn)(std::string*)) {
  hs_database_t* raw = nullptr;
  const bool loaded = hs_deserialize_database(reinterpret_cast<const char*>(bytes), size, &raw) == HS_SUCCESS;
  HsDatabase db(loaded ? raw : nullptr);
  hs_scratch_t* probe = nullptr;  // can this CPU run it?
  if (db && hs_alloc_scratch(db.get(), &probe) == HS_SUCCESS) {
    HsScratch owned(probe);
    return db;
  }
  std::string error;
  db = compile_fn(&error);
  if (!db) {
    std::fprintf(stderr, "goalcup: %s\n", error.c_str());
    std::abort();
  }
  return db;
}

HsDatabase compile_literal_database(std::span<const std::string_view> literals, unsigned flags) {
  std::vector<const char*> expressions;
  std::vector<size_t> lengths;
  std::vector<unsigned> each_flags(literals.size(), flags), ids;
  for (size_t i = 0; i < literals.size(); ++i) {
    expressions.push_back(literals[i].data());
    lengths.push_back(literals[i].size());
    ids.push_back(static_cast<unsigned>(i));
  }
  hs_database_t* db = nullptr;
  hs_compile_error_t* error = nullptr;
  if (hs_compile_lit_multi(expressions.data(), each_flags.data(), ids.data(), lengths.data(),
                           static_cast<unsigned>(literals.size()), HS_MODE_BLOCK, nullptr, &db, &error) != HS_SUCCESS) {
    hs_free_compile_error(error);
    return HsDatabase();
  }
  return HsDatabase(db);
}

hs_scratch_t* ready_scratch(HsScratch& scratch, const hs_database_t* db) {
  if (scratch) return scratch.get();
  hs_scratch_t* s = nullptr;
  if (hs_alloc_scratch(db, &s) != HS_SUCCESS) return nullptr;
  scratch.reset(s);
  return s;
}

}  // namespace goalcup::cheat
