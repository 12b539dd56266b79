#!/usr/bin/env bash
# Peak RSS of goalcup-verify on a trace whose longest lines are about
# 11.6 MB (requests that re-send 12 turns of 830 KB tool output), next to
# the documented bound, 2 x the longest line + 32 MiB (docs/LIMITS.md).
# Run by bench/run.sh; alone it takes about a minute.
#
#   bench/long_lines.sh [BUILD_DIR]      (default: build)
#
# Prints a Markdown table; exits 1 when a figure is over the bound.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
verify="$build/verify/goalcup-verify"
fixture="$build/fixtures/goalcup-fixture"
key=fixtures/keys/dev-key.json
data=bench/data
mkdir -p "$data"
[ -x "$verify" ] && [ -x "$fixture" ] || { echo "build first: cmake --build $build" >&2; exit 2; }

long=$data/long-lines.jsonl
[ -f "$long" ] || "$fixture" gen --size 130000000 --tool-output-bytes 830000 --history-turns 12 --ack-every 20 \
                    --key $key -o "$long" 2>/dev/null
longest=$(awk '{ if (length($0) > m) m = length($0) } END { print m }' "$long")
bound_kb=$(( (2 * longest + 32 * 1024 * 1024) / 1024 ))
echo "| goalcup-verify on $(( $(stat -c %s "$long") / 1000000 )) MB, longest line $longest bytes | peak RSS | bound (2 x line + 32 MiB) | ok |"
echo "|---|---|---|---|"
ok=0
for jobs in 1 2; do
  rss_kb=$( { /usr/bin/time -f %M "$verify" --no-progress -j $jobs --dev-key $key "$long" >/dev/null; } 2>&1 | tail -1)
  verdict=yes
  [ "$rss_kb" -le "$bound_kb" ] || { verdict=NO; ok=1; }
  how=$([ $jobs = 1 ] && echo "one thread" || echo "reader + verifier")
  awk -v j=$jobs -v how="$how" -v r=$rss_kb -v b=$bound_kb -v v=$verdict \
    'BEGIN { printf "| -j %s (%s) | %.1f MiB | %.1f MiB | %s |\n", j, how, r / 1024, b / 1024, v }' 
done
# cheatcheck redact on the same trace: the secret scan, the rewrite and the
# rescan of the copy, one line at a time (bound: 8 x the longest line +
# 32 MiB, plus 3 KiB a distinct credential, docs/LIMITS.md).
cheat="$build/cheatcheck/goalcup-cheatcheck"
if [ -x "$cheat" ]; then
  redact_bound_kb=$(( (8 * longest + 32 * 1024 * 1024) / 1024 ))
  /usr/bin/time -f %M -o "$data/redact-rss" "$cheat" redact --key $key "$long" -o "$data/long-lines-redacted.jsonl" 2>/dev/null
  rss_kb=$(tail -1 "$data/redact-rss")
  verdict=yes
  [ "$rss_kb" -le "$redact_bound_kb" ] || { verdict=NO; ok=1; }
  awk -v r=$rss_kb -v b=$redact_bound_kb -v v=$verdict \
    'BEGIN { printf "| goalcup-cheatcheck redact (bound 8 x line + 32 MiB) | %.1f MiB | %.1f MiB | %s |\n", r / 1024, b / 1024, v }'
  rm -f "$data/long-lines-redacted.jsonl" "$data/redact-rss"
fi
exit $ok
