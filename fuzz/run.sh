#!/usr/bin/env bash
# Runs every fuzz target in BUILD_DIR for SECONDS each, from the seed corpus
# in fuzz/corpus/<target>/ (new inputs go to a scratch copy, not the repo).
# Any crash, leak or timeout fails the run.
set -euo pipefail
build=${1:?build dir}
secs=${2:-60}
cd "$(dirname "$0")/.."
status=0
for bin in "$build"/fuzz/fuzz_*; do
  name=$(basename "$bin"); name=${name#fuzz_}
  work=$(mktemp -d)
  cp -r "fuzz/corpus/$name/." "$work/" 2>/dev/null || true
  mkdir -p fuzz/artifacts
  echo "-- fuzz_$name for ${secs}s"
  if ! "$bin" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
       -artifact_prefix="fuzz/artifacts/${name}-" -print_final_stats=1 "$work" 2>"$work.log"; then
    tail -40 "$work.log"
    status=1
  else
    grep -E "stat::number_of_executed_units|stat::peak_rss_mb" "$work.log" | tr '\n' ' '; echo
  fi
  rm -rf "$work" "$work.log"
done
exit $status
