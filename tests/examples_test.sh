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

# The GitHub Actions matrix's shard step, run as each job would over an
# uploads folder of every kind (a submission folder holding a harness log,
# a .tar.zst, a .jsonl.zst, a .tgz), merged: it judges every upload the
# single --batch run does, and exits as it does.
mkdir -p "$tmp/gha/uploads/entry-1/output" "$tmp/gha/uploads/entry-1/logs" "$tmp/gha/tarsrc"
cp "$src/fixtures/samples/codex-verified.jsonl" "$tmp/gha/uploads/entry-1/output/trace.jsonl"
echo '{"type":"session_meta"}' > "$tmp/gha/uploads/entry-1/logs/rollout.jsonl"
cp "$src/fixtures/samples/tampered-edit_mid.jsonl" "$tmp/gha/tarsrc/trace.jsonl"
tar -C "$tmp/gha/tarsrc" -cf - trace.jsonl | zstd -q -o "$tmp/gha/uploads/entry-2.tar.zst"
cp "$src/fixtures/samples/claude-code-verified.jsonl.zst" "$tmp/gha/uploads/entry-3.jsonl.zst"
printf 'not gzip' > "$tmp/gha/uploads/entry-4.tgz"
/usr/bin/python3 - "$src/docs/examples/github-actions-shards.yml" > "$tmp/gha/step.sh" <<'PY'
import sys, yaml
steps = yaml.safe_load(open(sys.argv[1]))["jobs"]["shard"]["steps"]
print(next(s["run"] for s in steps if s.get("name") == "Verify and check this shard"))
PY
gha_n=$(/usr/bin/python3 -c 'import sys, yaml; print(len(yaml.safe_load(open(sys.argv[1]))["jobs"]["shard"]["strategy"]["matrix"]["shard"]))' \
  "$src/docs/examples/github-actions-shards.yml")
for k in $(seq 0 $((gha_n - 1))); do
  sed -e "s/\${{ strategy.job-index }}/$k/g" -e "s/\${{ strategy.job-total }}/$gha_n/g" -e "s/\${{ matrix.shard }}/$k/g" \
    "$tmp/gha/step.sh" > "$tmp/gha/step-$k.sh"
  (cd "$tmp/gha" && bash "step-$k.sh") || fail "github actions shard $k"
done
for tool in verify cheatcheck; do
  set +e
  (cd "$tmp/gha" && goalcup-$tool --no-progress --batch uploads --format jsonl) > "$tmp/gha/single-$tool.jsonl"
  single_rc=$?
  (cd "$tmp/gha" && goalcup-$tool --format jsonl merge $tool-*.jsonl) > "$tmp/gha/merged-$tool.jsonl"
  merged_rc=$?
  set -e
  [ "$single_rc" = 1 ] || fail "github actions: the single $tool batch exits $single_rc, not 1 (entry-2 is tampered)"
  [ "$merged_rc" = "$single_rc" ] || fail "github actions: merged $tool exits $merged_rc, one process $single_rc"
  cmp -s "$tmp/gha/single-$tool.jsonl" "$tmp/gha/merged-$tool.jsonl" || fail "github actions: merged $tool differs from one process"
  for upload in entry-1 entry-2.tar.zst entry-3.jsonl.zst entry-4.tgz; do
    grep -q "\"uploads/$upload\"" "$tmp/gha/merged-$tool.jsonl" || fail "github actions: $tool never judged uploads/$upload"
  done
done

for y in github-actions-shards.yml ci-verify-uploads.yml; do
  /usr/bin/python3 -c 'import sys, yaml; d = yaml.safe_load(open(sys.argv[1])); assert d["jobs"]' "$src/docs/examples/$y" \
    || fail "$y is not a workflow"
done
echo "the batch examples work"
