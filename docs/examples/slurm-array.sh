#!/usr/bin/env bash
# One batch of uploaded traces over a Slurm job array (docs/BATCH.md).
#
#   sbatch --array=0-7 docs/examples/slurm-array.sh uploads.txt out/
#   sbatch --dependency=afterany:<array job id> --wrap 'goalcup-verify merge out/verify-shard-*.jsonl'
#
# Each array task verifies and checks its shard of the list and writes JSON
# Lines; the merge job gives the report and exit code of the whole batch.
# Outside Slurm, set SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT yourself.
#SBATCH --job-name=goalcup-batch
#SBATCH --cpus-per-task=2
#SBATCH --time=01:00:00
set -euo pipefail
list=${1:?usage: slurm-array.sh LIST OUTDIR}
out=${2:?usage: slurm-array.sh LIST OUTDIR}
k=${SLURM_ARRAY_TASK_ID:?not in a Slurm array task}
n=${SLURM_ARRAY_TASK_COUNT:?not in a Slurm array task}
mkdir -p "$out"
# Exit codes 1-3 are verdicts, not failures of the task: the merge decides.
v=0 c=0
goalcup-verify --no-progress --files-from "$list" --shard "$k/$n" --format jsonl \
  > "$out/verify-shard-$k.jsonl" || v=$?
goalcup-cheatcheck --no-progress --files-from "$list" --shard "$k/$n" --format jsonl \
  > "$out/cheatcheck-shard-$k.jsonl" || c=$?
[ "$v" -le 3 ] && [ "$c" -le 3 ]   # anything else is a crash, not a verdict
