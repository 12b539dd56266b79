# Precompiled headers: simdjson, Abseil's hash tables, GoogleTest and the
# standard library headers cost 4 to 13 s of parsing in every file that
# includes them, more than most files' own code. They are parsed once per
# set of headers, not once per target: the first target that asks for a set
# builds it, every later one reuses it (REUSE_FROM). Thirteen copies took
# 175 s of CPU in a release build, a fifth of it. Sharing is safe because the
# targets of a set differ only in definitions the headers never read (a
# version string, the test binaries' paths); a mismatch that mattered would
# stop the build, since -Winvalid-pch is an error under -Werror.
# -DCMAKE_DISABLE_PRECOMPILE_HEADERS=ON turns them off (scripts/tidy.sh does:
# clang-tidy cannot read GCC's .gch files).
set(GOALCUP_PCH_COMMON
  <algorithm> <array> <cstdint> <cstring> <filesystem> <fstream> <functional>
  <map> <memory> <optional> <sstream> <string> <string_view> <vector>
  <simdjson.h> <absl/container/flat_hash_map.h> <absl/container/flat_hash_set.h>)

# goalcup_precompile(TARGET... [WITH header...]): the common headers, plus any
# after WITH, precompiled for each TARGET: built with the first target that
# asks for this set of headers, reused by the others.
function(goalcup_precompile)
  cmake_parse_arguments(PARSE_ARGV 0 arg "" "" "WITH")
  set(headers ${GOALCUP_PCH_COMMON} ${arg_WITH})
  string(MD5 set_id "${headers}")
  get_property(donor GLOBAL PROPERTY goalcup_pch_donor_${set_id})
  # C++ only: a target's C files (the generated rule databases) get none.
  list(TRANSFORM headers REPLACE "^(.+)$" "$<$<COMPILE_LANGUAGE:CXX>:\\1>")
  foreach(target IN LISTS arg_UNPARSED_ARGUMENTS)
    if(donor)
      target_precompile_headers(${target} REUSE_FROM ${donor})
    else()
      target_precompile_headers(${target} PRIVATE ${headers})
      set(donor ${target})
      set_property(GLOBAL PROPERTY goalcup_pch_donor_${set_id} ${target})
    endif()
    # GCC 12 at -O3 reports std::string's own memcpy as overflowing once the
    # standard headers come from a precompiled header (the same false
    # positives as GCC bugs 105329 and 105651, no longer hidden as system
    # header code). The sanitizer build (clang) keeps these checks, and ASan
    # checks the real accesses at run time.
    target_compile_options(${target} PRIVATE
      $<$<CXX_COMPILER_ID:GNU>:-Wno-stringop-overflow -Wno-array-bounds>)
  endforeach()
endfunction()
