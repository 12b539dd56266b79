// The two Hyperscan databases of the secret scan, compiled at build time by
// compile_rules and, as a fallback, at run time (matcher.cc, prefilter.cc):
// - the rules, to find candidates in decoded text (block mode, no
//   start-of-match tracking: rules know their match lengths);
// - the prefilter, to tell from a line's raw bytes whether decoding it can
//   reveal anything (see prefilter.h).
#pragma once

#include <hs/hs.h>

#include <cstddef>
#include <span>
#include <string>
#include <string_view>

#include "cheatcheck/secrets/rules.h"

#include "core/owned.h"

namespace goalcup::cheat {

using HsDatabase = Owned<hs_database_t, &hs_free_database>;
using HsScratch = Owned<hs_scratch_t, &hs_free_scratch>;

// The database, or nullptr with `error` set. The rules' database refuses a
// rule whose match_len is not the width of every match of its pattern (the
// matcher reports only ends and takes a candidate's start as end -
// match_len), so that a miscounted row fails the build.
HsDatabase compile_rule_database(std::string* error);  // secret_rules()
HsDatabase compile_rule_database(std::span<const Rule> rules, std::string* error);
HsDatabase compile_prefilter_database(std::string* error);

// Prefilter pattern ids: 0..rules-1 are the rules written to match through
// JSON escaping at any depth; these follow them.
enum PrefilterId : unsigned {
  kPrefilterHeader = 1000,  // a credential header pair; its value decides
  kPrefilterTrigger = 1001, // something only decoding can see through
};
// Exposed for tests: the rule pattern made to match its own text after
// JSON escaping at any depth (\" for ", \n for a newline).
std::string raw_tolerant_pattern(std::string_view pattern);

// The precompiled database in `bytes` when this CPU can run it, else the one
// `compile` makes; aborts if neither works (the rules are part of the
// build: a failure is a build defect).
HsDatabase load_database(const unsigned char* bytes, size_t size, HsDatabase (*compile)(std::string*));

// Fixed strings as one block-mode database, literal i reported as id i,
// each compiled with `flags`; nullptr when Vectorscan refuses them (it
// takes no empty literal, nor one starting with a NUL).
HsDatabase compile_literal_database(std::span<const std::string_view> literals, unsigned flags);

// `scratch` made ready for `db` (allocated on first use and then kept, as
// each thread keeps one per database); nullptr when Vectorscan cannot.
hs_scratch_t* ready_scratch(HsScratch& scratch, const hs_database_t* db);

}  // namespace goalcup::cheat
