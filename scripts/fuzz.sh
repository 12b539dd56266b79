#!/usr/bin/env bash
# A long fuzzing campaign that grows the kept corpus: builds the libFuzzer
# targets with ASan and UBSan, fuzzes each for SECONDS (default 600), and
# merges the inputs that add coverage into fuzz/corpus/<target>/. Commit what
# it adds; CI replays the whole corpus and then fuzzes each target briefly.
#   scripts/fuzz.sh [SECONDS] [TARGET...]
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-600}
shift $(( $# >= 1 ? 1 : 0 ))
# The same configuration as scripts/test.sh's, so neither rebuilds the other's tree.
CC=clang CXX=clang++ cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Debug \
  -DCMAKE_C_FLAGS_DEBUG=-gline-tables-only -DCMAKE_CXX_FLAGS_DEBUG=-gline-tables-only \
  -DGOALCUP_SANITIZE=ON -DGOALCUP_FUZZ=ON >/dev/null
cmake --build build-asan -j "$(nproc)" --target $(cd fuzz && ls *_fuzzer.cc | sed 's/_fuzzer.cc//; s/^/fuzz_/')
MERGE=1 fuzz/run.sh build-asan "$secs" "$@"
git status --short fuzz/corpus | head -5
echo "new corpus files: $(git status --short fuzz/corpus | wc -l) (commit them)"
