#!/usr/bin/env bash
# The shipped batch examples (docs/examples/) work: the Slurm array script
# runs as N tasks (SLURM_ARRAY_TASK_ID/COUNT set by hand), the merge equals
# one process over the same list; the Kubernetes Job's shell runs the same
# way with JOB_COMPLETION_INDEX; the workflows and the Job are valid YAML.
#
#   examples_test.sh SOURCE_DIR BIN_DIR...
set -euo pipefail
src=$1; shift
for d in "$@"; do PATH=$d:$PATH; done
export PATH
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { printf 'FAIL: %s\n' "$*" >&2; exit 1; }

ls "$src"/fixtures/samples/*.jsonl "$src"/fixtures/samples/*.zst | sort > "$tmp/list.txt"
echo "/nonexistent.jsonl" >> "$tmp/list.txt"
n=3
for k in $(seq 0 $((n - 1))); do
  SLURM_ARRAY_TASK_ID=$k SLURM_ARRAY_TASK_COUNT=$n "$src/docs/examples/slurm-array.sh" "$tmp/list.txt" "$tmp/slurm"
done
for tool in verify cheatcheck; do
  goalcup-$tool --no-progress --files-from "$tmp/list.txt" --format jsonl > "$tmp/single-$tool.jsonl" || true
  goalcup-$tool --format jsonl merge "$tmp"/slurm/$tool-shard-*.jsonl > "$tmp/merged-$tool.jsonl" || true
  cmp -s "$tmp/single-$tool.jsonl" "$tmp/merged-$tool.jsonl" || fail "slurm: merged $tool differs from one process"
done

# The Job's container command, run as Kubernetes would for each index.
/usr/bin/python3 - "$src/docs/examples/k8s-indexed-job.yaml" > "$tmp/pod.sh" <<'PY'
import sys, yaml
job = yaml.safe_load(open(sys.argv[1]))
c = job["spec"]["template"]["spec"]["containers"][0]
assert job["spec"]["completionMode"] == "Indexed"
assert c["command"] == ["/bin/sh", "-c"]
print(c["args"][0])
PY
shards=$(/usr/bin/python3 -c 'import sys, yaml; print(yaml.safe_load(open(sys.argv[1]))["spec"]["completions"])' \
  "$src/docs/examples/k8s-indexed-job.yaml")
sed -e "s#/data/uploads.txt#$tmp/list.txt#g" -e "s#/data/out#$tmp/k8s#g" "$tmp/pod.sh" > "$tmp/pod-local.sh"
for k in $(seq 0 $((shards - 1))); do
  JOB_COMPLETION_INDEX=$k SHARDS=$shards sh "$tmp/pod-local.sh" || fail "k8s pod $k"
done
goalcup-verify --format jsonl merge "$tmp"/k8s/verify-shard-*.jsonl > "$tmp/merged-k8s.jsonl" || true
cmp -s "$tmp/single-verify.jsonl" "$tmp/merged-k8s.jsonl" || fail "k8s: merged verify differs from one process"

for y in github-actions-shards.yml ci-verify-uploads.yml; do
  /usr/bin/python3 -c 'import sys, yaml; d = yaml.safe_load(open(sys.argv[1])); assert d["jobs"]' "$src/docs/examples/$y" \
    || fail "$y is not a workflow"
done
echo "the batch examples work"
