#!/usr/bin/env bash
# Issue 19 side by side in one run, as ratios: goalcup-verify on every core
# against one core's reference commands, its scaling from one core to two
# (taskset), cheatcheck against verify, and peak RSS by --threads. Runs the
# real binaries on the 330 MB trace of bench/run.sh (not a unit test, not
# timed in CI). Check `uptime` first: other work on the cores skews ratios.
#
#   bench/parallel.sh [BUILD_DIR] [RUNS]     (defaults: build, 5)
#
# The multi-frame zstd form is written by the fixture writer itself
# (`gen --zstd 3 --frame-bytes 1000000`: a frame ends every 1 MB of trace,
# as a recorder that flushes a frame at a time writes); the same trace as
# `zstd -3` of the plain file is one frame. Data in bench/data/ (git-ignored),
# results in bench/results/parallel.md.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
runs=${2:-5}
verify="$build/verify/goalcup-verify"
cheat="$build/cheatcheck/goalcup-cheatcheck"
fixture="$build/fixtures/goalcup-fixture"
key=fixtures/keys/dev-key.json
data=bench/data
mkdir -p "$data" bench/results
for b in "$verify" "$cheat" "$fixture"; do [ -x "$b" ] || { echo "build first: $b" >&2; exit 2; }; done
command -v hyperfine >/dev/null || { echo "needs hyperfine" >&2; exit 2; }

gen="gen --size 330000000 --tool-output-bytes 50000 --history-turns 1 --ack-every 20 --key $key"
big=$data/big.jsonl
[ -f "$big" ] || "$fixture" $gen -o "$big"
frames=$data/big-frames.jsonl.zst
[ -f "$frames" ] || "$fixture" $gen --zstd 3 --frame-bytes 1000000 -o "$frames"
cmp -s <(zstd -dc "$frames") "$big" || { echo "$frames does not hold $big" >&2; exit 2; }
cat "$big" "$frames" >/dev/null  # warm the page cache
cores=$(nproc)
load=$(cut -d' ' -f1-3 /proc/loadavg)

h() { hyperfine -N -w 1 -r "$runs" -i --export-json "bench/results/parallel-$1.json" "${@:2}" >/dev/null; }
h plain -n reference "openssl dgst -sha256 $big" -n goalcup "$verify --dev-key $key $big"
h zstd -n reference "bash -c 'zstd -dc $frames | openssl dgst -sha256'" -n goalcup "$verify --dev-key $key $frames"
h scaling -n one "taskset -c 0 $verify --dev-key $key $big" -n two "taskset -c 0,1 $verify --dev-key $key $big"
h cheat -n verify "$verify --dev-key $key $big" -n all "$cheat --no-progress --dev-key $key $big"
rss() { { /usr/bin/time -f %M "$verify" --dev-key $key --threads "$1" "$big" >/dev/null; } 2>&1 | tail -1; }
rss1=$(rss 1) rss2=$(rss 2) rss8=$(rss 8)
longest=$(awk '{ if (length($0) > m) m = length($0) } END { print m }' "$big")

python3 - "$big" "$cores" "$load" "$(cut -d' ' -f1-3 /proc/loadavg)" "$longest" "$rss1" "$rss2" "$rss8" <<'PY' | tee bench/results/parallel.md
import json, os, sys
big, cores, load_before, load_after, longest = sys.argv[1:6]
rss = dict(zip((1, 2, 8), map(int, sys.argv[6:9])))
def means(name):
    return {x["command"]: x["mean"] for x in json.load(open(f"bench/results/parallel-{name}.json"))["results"]}
cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?")
size = os.path.getsize(big)
print(f"# goalcup-verify on every core (issue 19)\n\n{cpu}, {cores} cores; load average {load_before} before, "
      f"{load_after} after. Trace {size/1e6:.0f} MB, longest line {longest} bytes.\n")
print("| measure | reference | goalcup | ratio | target | met |\n|---|---|---|---|---|---|")
def row(label, ref, ours, ratio, target, ok):
    print(f"| {label} | {ref:.3f} s | {ours:.3f} s | {ratio} | {target} | {'yes' if ok else 'NO'} |")
p = means("plain"); r = p["goalcup"] / p["reference"]
row("plain .jsonl vs `openssl dgst -sha256`", p["reference"], p["goalcup"], f"{r:.2f}", "<= 0.65", r <= 0.65)
z = means("zstd"); r = z["goalcup"] / z["reference"]
row("multi-frame .zst vs `zstd -dc \\| openssl dgst -sha256`", z["reference"], z["goalcup"], f"{r:.2f}", "<= 0.75", r <= 0.75)
s = means("scaling"); r = s["one"] / s["two"]
row("`taskset` 1 core vs 2 cores (plain)", s["one"], s["two"], f"{r:.2f}x faster", ">= 1.7x", r >= 1.7)
c = means("cheat"); r = c["all"] / c["verify"]
row("cheatcheck, every check + secret scan, vs verify", c["verify"], c["all"], f"{r:.2f}", "<= 1.5", r <= 1.5)
for t, kb in rss.items():
    bound = (2 * int(longest) + 32 * 2**20) / 1024 + 8 * 1024 * max(0, t - 2)
    print(f"| peak RSS, --threads {t} | bound {bound/1024:.1f} MiB | {kb/1024:.1f} MiB | {kb/bound:.2f} of bound | "
          f"2 x line + 32 MiB + 8 MiB/thread beyond 2 | {'yes' if kb <= bound else 'NO'} |")
PY
