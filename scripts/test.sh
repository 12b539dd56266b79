#!/usr/bin/env bash
# Quick start, step 2: the whole test suite (what CI runs).
#   1. release build + every GoogleTest suite through CTest
#   2. the same tests built with AddressSanitizer and UBSan
#   3. each libFuzzer target for a bounded time from fuzz/corpus
# GOALCUP_FUZZ_SECONDS (default 60) bounds each fuzzer; 0 skips them.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)

echo "== release build and tests"
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j "$jobs"
ctest --test-dir build -j "$jobs" --output-on-failure

echo "== clang-tidy (.clang-tidy)"
scripts/tidy.sh build

if [ -f fuzz/CMakeLists.txt ] && [ "${GOALCUP_SKIP_SANITIZERS:-0}" != 1 ]; then
  echo "== sanitizer build (ASan + UBSan) and tests"
  CC=clang CXX=clang++ cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Debug \
    -DGOALCUP_SANITIZE=ON -DGOALCUP_FUZZ=ON >/dev/null
  cmake --build build-asan -j "$jobs"
  ASAN_OPTIONS=detect_leaks=1 ctest --test-dir build-asan -j "$jobs" --output-on-failure
  secs=${GOALCUP_FUZZ_SECONDS:-60}
  if [ "$secs" != 0 ]; then
    echo "== fuzzing, ${secs}s per target"
    fuzz/run.sh build-asan "$secs"
  fi
fi
echo "== all tests passed"
