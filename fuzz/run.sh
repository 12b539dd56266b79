#!/usr/bin/env bash
# Runs every fuzz target in BUILD_DIR over its whole kept corpus
# (fuzz/corpus/<target>/, every input once: a regression replay), then for
# SECONDS of fresh fuzzing from that corpus. libFuzzer runs every seed input
# before it mutates any, so one run does both; SECONDS=0 only replays. New
# inputs go to a scratch folder; with MERGE=1 (scripts/fuzz.sh) the ones that
# add coverage are merged back into fuzz/corpus/<target>/ so the corpus grows
# and can be committed. Targets run FUZZ_JOBS at a time (default: the cores),
# each to its own log, printed in order. Any crash, leak or timeout fails the
# run and leaves the input in fuzz/artifacts/.
#   fuzz/run.sh BUILD_DIR [SECONDS] [TARGET...]
set -euo pipefail
build=${1:?build dir}
secs=${2:-60}
shift $(( $# >= 2 ? 2 : $# ))
cd "$(dirname "$0")/.."
merge=${MERGE:-0}
jobs=${FUZZ_JOBS:-$(nproc)}
opts=(-timeout=10 -rss_limit_mb=2048 -max_len=65536)
mkdir -p fuzz/artifacts
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  for bin in "$build"/fuzz/fuzz_*; do name=$(basename "$bin"); targets+=("${name#fuzz_}"); done
fi
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT

# fuzz_one NAME: replays and fuzzes one target; its report goes to $logs/NAME,
# its status to $logs/NAME.failed when it fails.
fuzz_one() {
  local name=$1 bin="$build/fuzz/fuzz_$1" corpus="fuzz/corpus/$1" work log
  mkdir -p "$corpus"
  work=$(mktemp -d)
  log="$logs/$name.libfuzzer"
  local kept; kept=$(find "$corpus" -type f | wc -l)
  local art=(-artifact_prefix="fuzz/artifacts/${name}-")
  {
    echo "-- fuzz_$name: replay $kept kept inputs, then ${secs}s"
    if [ "$secs" = 0 ]; then
      "$bin" "${opts[@]}" -runs=0 "${art[@]}" "$corpus" >"$log" 2>&1 || { tail -40 "$log"; touch "$logs/$name.failed"; }
    elif "$bin" "${opts[@]}" -max_total_time="$secs" "${art[@]}" -print_final_stats=1 "$work" "$corpus" >"$log" 2>&1; then
      grep -E "stat::number_of_executed_units|stat::peak_rss_mb" "$log" | tr '\n' ' '; echo
      if [ "$merge" = 1 ]; then
        "$bin" "${opts[@]}" -merge=1 "$corpus" "$work" >"$log" 2>&1 || { tail -20 "$log"; touch "$logs/$name.failed"; }
        echo "   corpus $kept -> $(find "$corpus" -type f | wc -l) inputs"
      fi
    else
      tail -40 "$log"; touch "$logs/$name.failed"
    fi
  } >"$logs/$name" 2>&1
  rm -rf "$work"
}

for name in "${targets[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
  fuzz_one "$name" &
done
wait
status=0
for name in "${targets[@]}"; do
  cat "$logs/$name"
  [ ! -e "$logs/$name.failed" ] || status=1
done
exit $status
