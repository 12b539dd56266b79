# Unity builds: each library's files are compiled a few at a time, as one
# translation unit per batch. Every file of this project includes the same
# precompiled headers (simdjson, Abseil, the standard library) and
# instantiates the same templates; loading and instantiating them once per
# batch instead of once per file cut the ten small trace checks from 29
# CPU-s to 10 at -O3. -DGOALCUP_UNITY=OFF compiles file by file (what
# scripts/tidy.sh reads the commands of, file by file, either way).
#
# Files of one batch share a translation unit, so names at namespace scope
# (anonymous namespaces included) must differ between them: the build fails
# on a clash rather than mixing them up.
option(GOALCUP_UNITY "Compile each library's sources in batches (unity build)" ON)

# goalcup_unity(TARGET... ): batches of 8 C++ files for each TARGET.
function(goalcup_unity)
  if(NOT GOALCUP_UNITY)
    return()
  endif()
  foreach(target IN LISTS ARGN)
    set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE 8)
    # GCC warns of a type from an anonymous namespace used in a member of a
    # named one unless the type is in the main file: in a batch no file is.
    target_compile_options(${target} PRIVATE $<$<CXX_COMPILER_ID:GNU>:-Wno-subobject-linkage>)
  endforeach()
endfunction()
