#!/usr/bin/env bash
# Quick start, step 2: the whole test suite (what CI runs). CI then runs
# scripts/tidy.sh, the static analysis: a step of its own because clang-tidy
# over every source alone took 1,100 CPU seconds (9 minutes on 2 cores).
#   1. release build + every GoogleTest suite through CTest
#   2. the parser and hostile-input suites and the fuzzers built with
#      AddressSanitizer and UBSan (tests/CMakeLists.txt says which)
#   3. each libFuzzer target over its whole kept corpus (fuzz/corpus), then
#      fuzzed briefly; scripts/fuzz.sh runs long campaigns that grow the corpus
# GOALCUP_FUZZ_SECONDS (default 1) bounds each fuzzer; 0 only replays. The
# brief run is a smoke test within the 12 minutes; the corpus grows from
# the long campaigns of scripts/fuzz.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)
stage_start=$SECONDS
stage() {  # prints how long the previous stage took, then the next one's name
  [ -z "${stage_name:-}" ] || echo "   ($stage_name: $((SECONDS - stage_start)) s)"
  stage_name=$1; stage_start=$SECONDS; echo "== $1"
}

# CTest starts the costliest tests first when it knows their costs; a fresh
# build directory does not, and then started a 48 s test and a 32 s one
# last, holding the suite up while one core idled. tests/ctest-costs/ holds
# each test's seconds from a fresh run (refresh it from a build's own
# Testing/Temporary/CTestCostData.txt); a build directory's own data wins.
seed_costs() {
  local data=$1/Testing/Temporary/CTestCostData.txt
  [ -f "$data" ] || { mkdir -p "$(dirname "$data")" && cp "tests/ctest-costs/$2.txt" "$data"; }
}

stage "release build and tests"
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j "$jobs"
seed_costs build release
ctest --test-dir build -j "$jobs" --output-on-failure

if [ -f fuzz/CMakeLists.txt ] && [ "${GOALCUP_SKIP_SANITIZERS:-0}" != 1 ]; then
  stage "sanitizer build (ASan + UBSan) and tests"
  # Line tables are all a sanitizer's report needs (file:line in each frame);
  # full debug info (-g) compiles about 10% slower (a unity file measured on
  # a quiet machine: 10.9 against 9.9 CPU-s), for nothing a report prints.
  CC=clang CXX=clang++ cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Debug \
    -DCMAKE_C_FLAGS_DEBUG=-gline-tables-only -DCMAKE_CXX_FLAGS_DEBUG=-gline-tables-only \
    -DGOALCUP_SANITIZE=ON -DGOALCUP_FUZZ=ON >/dev/null
  cmake --build build-asan -j "$jobs"
  seed_costs build-asan sanitizer
  ASAN_OPTIONS=detect_leaks=1 ctest --test-dir build-asan -j "$jobs" --output-on-failure
  secs=${GOALCUP_FUZZ_SECONDS:-1}
  stage "fuzzing: replay of fuzz/corpus, then ${secs}s per target"
  fuzz/run.sh build-asan "$secs"
fi
stage "all tests passed in ${SECONDS} s"
