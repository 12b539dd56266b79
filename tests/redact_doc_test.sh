#!/usr/bin/env bash
# docs/REDACT.md runs as written: every line of its ```sh blocks, in order,
# from a copy of the repository's fixtures, with the exit code its comment
# names (0 when none); then the summary lines of the diff output it shows
# are the ones the tools print.
#
#   redact_doc_test.sh SOURCE_DIR BIN_DIR...
set -euo pipefail
src=$1; shift
for d in "$@"; do PATH=$d:$PATH; done
export PATH
doc=$src/docs/REDACT.md
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { printf 'FAIL: %s\n' "$*" >&2; exit 1; }
cp -r "$src/fixtures" "$tmp/fixtures"
cd "$tmp"

commands=$(awk '/^```sh$/ { on = 1; next } /^```/ { on = 0 } on && NF && !/^#/' "$doc")
[ "$(wc -l <<<"$commands")" -ge 10 ] || fail "REDACT.md has too few commands: $commands"
while IFS= read -r line; do
  want=0
  if [[ $line =~ \#\ exit\ ([0-9]+)$ ]]; then want=${BASH_REMATCH[1]}; fi
  set +e
  bash -c "$line" > "$tmp/out" 2>&1
  got=$?
  set -e
  [ "$got" -eq "$want" ] || { cat "$tmp/out" >&2; fail "exit $got, not $want: $line"; }
  case $line in *"goalcup-inspect"*" diff fixtures"*) cp "$tmp/out" "$tmp/diff.txt" ;; esac
done <<<"$commands"

# The diff output the page shows: its banners, counts and last line are
# what the tool printed, and nothing but redactions is reported.
[ -s "$tmp/diff.txt" ] || fail "no diff output"
shown=$(awk '/^```$/ { on = !on; next } on' "$doc" | grep -E '^(VERDICT|wire exchanges:|native lines:|other records:|differences:)')
[ -n "$shown" ] || fail "REDACT.md shows no diff output"
while IFS= read -r line; do
  grep -qxF -- "$line" "$tmp/diff.txt" || { cat "$tmp/diff.txt" >&2; fail "the page shows a line the tool does not print: $line"; }
done <<<"$shown"
if grep -qE '^  [*+-] (changed|added|removed)' "$tmp/diff.txt"; then fail "the redacted copy differs in more than redactions"; fi
echo "every command of docs/REDACT.md runs as the page says"
