# Precompiled headers: simdjson, Abseil's hash tables, GoogleTest and the
# standard library headers cost 4 to 13 s of parsing in every file that
# includes them, more than most files' own code. Parsed once per target
# instead, they bring the README's test command (two full builds on 2 cores)
# back within its time. Each target gets its own precompiled header, built
# with exactly its flags, so no flag can differ between the header and its
# users. -DCMAKE_DISABLE_PRECOMPILE_HEADERS=ON turns them off (scripts/tidy.sh
# does: clang-tidy cannot read GCC's .gch files).
set(GOALCUP_PCH_COMMON
  <algorithm> <array> <cstdint> <cstring> <filesystem> <fstream> <functional>
  <map> <memory> <optional> <sstream> <string> <string_view> <vector>
  <simdjson.h> <absl/container/flat_hash_map.h> <absl/container/flat_hash_set.h>)

# goalcup_precompile(TARGET... [WITH header...]): the common headers, plus any
# after WITH, precompiled for each TARGET.
function(goalcup_precompile)
  cmake_parse_arguments(PARSE_ARGV 0 arg "" "" "WITH")
  foreach(target IN LISTS arg_UNPARSED_ARGUMENTS)
    # C++ only: a target's C files (the generated rule databases) get none.
    set(headers ${GOALCUP_PCH_COMMON} ${arg_WITH})
    list(TRANSFORM headers REPLACE "^(.+)$" "$<$<COMPILE_LANGUAGE:CXX>:\\1>")
    target_precompile_headers(${target} PRIVATE ${headers})
    # GCC 12 at -O3 reports std::string's own memcpy as overflowing once the
    # standard headers come from a precompiled header (the same false
    # positives as GCC bugs 105329 and 105651, no longer hidden as system
    # header code). The sanitizer build (clang) keeps these checks, and ASan
    # checks the real accesses at run time.
    target_compile_options(${target} PRIVATE
      $<$<CXX_COMPILER_ID:GNU>:-Wno-stringop-overflow -Wno-array-bounds>)
  endforeach()
endfunction()
