#!/usr/bin/env bash
# A batch of 1,000 small traces (about 20 KB each: the smallest the fixture
# writer makes with 500-byte tool outputs, ~23 KB), side
# by side with `openssl dgst -sha256` over the same files in one process
# (issue 20). Quick: a few runs of each on the machine's cores.
#
#   bench/batch.sh [BUILD_DIR] [RUNS]
#
# Prints the ratios and the per-trace overhead: the batch's time minus the
# time the same tool takes for one trace of the batch's total size, per
# trace. Data in bench/data/small/ (git-ignored), results in bench/results/.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
runs=${2:-5}
verify="$build/verify/goalcup-verify"
cheat="$build/cheatcheck/goalcup-cheatcheck"
fixture="$build/fixtures/goalcup-fixture"
key=fixtures/keys/dev-key.json
data=bench/data/small
mkdir -p "$data" bench/results
for b in "$verify" "$cheat" "$fixture"; do [ -x "$b" ] || { echo "build first: $b" >&2; exit 2; }; done
command -v hyperfine >/dev/null || { echo "needs hyperfine" >&2; exit 2; }

n=1000
if [ "$(ls "$data" | grep -c '^t-.*\.jsonl$' || true)" -ne $n ]; then
  for i in $(seq 1 $n); do
    "$fixture" gen --seed "$i" --size 5000 --tool-output-bytes 500 --ack-every 5 --key $key -o "$data/t-$i.jsonl" 2>/dev/null
  done
fi
ls "$data"/t-*.jsonl > "$data/list.txt"
total=$(cat "$data"/t-*.jsonl | wc -c)
[ -f "$data/one-big.jsonl" ] ||
  "$fixture" gen --seed 1 --size "$total" --tool-output-bytes 500 --ack-every 5 --key $key -o "$data/one-big.jsonl" 2>/dev/null
cat "$data"/t-*.jsonl "$data/one-big.jsonl" > /dev/null  # warm the page cache
echo "$n traces, $(( total / n )) bytes each on average; one trace of $total bytes for the per-trace overhead"

files=$(cat "$data/list.txt" | tr '\n' ' ')
hyperfine -N -w 1 -r "$runs" -i --export-json bench/results/batch.json \
  -n openssl "openssl dgst -sha256 $files" \
  -n verify "$verify --no-progress --quiet --dev-key $key --files-from $data/list.txt" \
  -n cheatcheck "$cheat --no-progress --quiet --dev-key $key --files-from $data/list.txt" \
  -n verify-one-big "$verify --no-progress --dev-key $key $data/one-big.jsonl" \
  -n cheatcheck-one-big "$cheat --no-progress --dev-key $key $data/one-big.jsonl" >/dev/null
/usr/bin/python3 - bench/results/batch.json "$n" <<'PY'
import json, sys
r = {x["command"]: x for x in json.load(open(sys.argv[1]))["results"]}
n = int(sys.argv[2])
med = lambda k: r[k]["median"]
ref = med("openssl")
print(f"openssl dgst -sha256 (one process): {ref*1000:.0f} ms")
for tool, target in (("verify", 1.5), ("cheatcheck", 3.0)):
    t, big = med(tool), med(tool + "-one-big")
    print(f"{tool}: {t*1000:.0f} ms = {t/ref:.1f} x openssl (target <= {target} x); "
          f"one trace of the same bytes {big*1000:.0f} ms; per-trace overhead {(t-big)/n*1e6:.0f} us")
PY

# Where the batch's CPU goes: the share spent verifying Ed25519 signatures
# (libsodium) is a floor no per-trace saving removes: each small trace
# carries its start receipt, its acks and its seal_ack.
if command -v perf >/dev/null && perf record -q -o /dev/null true 2>/dev/null; then
  sigs=$(grep -c '"kind":"\(start_receipt\|ack\|seal_ack\)"' "$data/t-1.jsonl" || true)
  perf record -q -o bench/results/batch.perf "$verify" --no-progress --quiet -j 1 --threads 1 --dev-key $key \
    --files-from "$data/list.txt" >/dev/null 2>&1 || true
  share=$(perf report -i bench/results/batch.perf --no-children --sort dso --stdio 2>/dev/null |
          awk '/libsodium/ { print $1; exit }')
  echo "verify on one core: ${share:-?} of its samples in libsodium (signature checks; $sigs signed statements in t-1)"
fi
