#!/usr/bin/env bash
# Runs every fuzz target in BUILD_DIR: first over its whole kept corpus
# (fuzz/corpus/<target>/, every input once: a regression replay), then for
# SECONDS of fresh fuzzing from that corpus. New inputs go to a scratch folder;
# with MERGE=1 (scripts/fuzz.sh) the ones that add coverage are merged back
# into fuzz/corpus/<target>/ so the corpus grows and can be committed.
# Any crash, leak or timeout fails the run and leaves the input in
# fuzz/artifacts/.
#   fuzz/run.sh BUILD_DIR [SECONDS] [TARGET...]
set -euo pipefail
build=${1:?build dir}
secs=${2:-60}
shift $(( $# >= 2 ? 2 : $# ))
cd "$(dirname "$0")/.."
merge=${MERGE:-0}
opts=(-timeout=10 -rss_limit_mb=2048 -max_len=65536)
mkdir -p fuzz/artifacts
status=0
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  for bin in "$build"/fuzz/fuzz_*; do name=$(basename "$bin"); targets+=("${name#fuzz_}"); done
fi
for name in "${targets[@]}"; do
  bin="$build/fuzz/fuzz_$name"
  corpus="fuzz/corpus/$name"
  mkdir -p "$corpus"
  work=$(mktemp -d)
  log=$(mktemp)
  kept=$(find "$corpus" -type f | wc -l)
  echo "-- fuzz_$name: replay $kept kept inputs, then ${secs}s"
  if ! "$bin" "${opts[@]}" -runs=0 -artifact_prefix="fuzz/artifacts/${name}-" "$corpus" >"$log" 2>&1; then
    tail -40 "$log"; status=1; rm -rf "$work" "$log"; continue
  fi
  if [ "$secs" != 0 ]; then
    if ! "$bin" "${opts[@]}" -max_total_time="$secs" -artifact_prefix="fuzz/artifacts/${name}-" \
         -print_final_stats=1 "$work" "$corpus" >"$log" 2>&1; then
      tail -40 "$log"; status=1
    else
      grep -E "stat::number_of_executed_units|stat::peak_rss_mb" "$log" | tr '\n' ' '; echo
      if [ "$merge" = 1 ]; then
        "$bin" "${opts[@]}" -merge=1 "$corpus" "$work" >"$log" 2>&1 || { tail -20 "$log"; status=1; }
        echo "   corpus $kept -> $(find "$corpus" -type f | wc -l) inputs"
      fi
    fi
  fi
  rm -rf "$work" "$log"
done
exit $status
