#!/usr/bin/env bash
# cmake --install puts the tools, man pages and completions in place; they
# work from there, and so does the pre-commit hook with the installed tool
# on PATH. With --deb, CPack also makes a .deb holding them.
#
#   install_test.sh BUILD_DIR SOURCE_DIR [--deb]
set -euo pipefail
build=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { printf 'FAIL: %s\n' "$*" >&2; exit 1; }

prefix=$tmp/prefix
cmake --install "$build" --prefix "$prefix" >/dev/null
for t in goalcup-verify goalcup-inspect goalcup-cheatcheck; do
  [ -x "$prefix/bin/$t" ] || fail "$t not installed"
  "$prefix/bin/$t" --help | grep -- "$t" >/dev/null || fail "$t --help"
  man -l "$prefix/share/man/man1/$t.1" 2>/dev/null | grep SYNOPSIS >/dev/null || fail "man $t"
  [ -f "$prefix/share/bash-completion/completions/$t" ] || fail "bash completion for $t"
done
[ -f "$prefix/share/zsh/vendor-completions/_goalcup" ] || fail "zsh completion"
MANPATH=$prefix/share/man man -w goalcup-verify >/dev/null || fail "man goalcup-verify by name"

# bash completion: options, values and subcommands.
complete_words() {  # tool, words...
  bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(( $# - 1 )); _goalcup; printf "%s\n" "${COMPREPLY[@]}"' \
    _ "$prefix/share/bash-completion/completions/$1" "$@"
}
complete_words goalcup-cheatcheck --fo | grep -x -- --format >/dev/null || fail "completion of --format"
complete_words goalcup-cheatcheck --format s | grep -x sarif >/dev/null || fail "completion of --format values"
complete_words goalcup-verify me | grep -x merge >/dev/null || fail "completion of merge"

# Every subcommand a tool's --help lists is completed, by bash and by zsh.
mkdir "$tmp/empty"
for t in goalcup-verify goalcup-inspect goalcup-cheatcheck; do
  for s in $("$prefix/bin/$t" --help | awk '/^Subcommands:/ { on = 1; next } on && /^  [a-z]/ { print $1 }'); do
    (cd "$tmp/empty" && complete_words "$t" "$s") | grep -x -- "$s" >/dev/null || fail "bash completion of $t $s"
    grep -q "[( ]$s[ )]" "$src/completions/_goalcup" || fail "zsh completion of $t $s"
  done
done

# The pre-commit hook's entry, as pre-commit runs it: on PATH, file names last.
entry=$(/usr/bin/python3 -c 'import sys, yaml; print(yaml.safe_load(open(sys.argv[1]))[0]["entry"])' "$src/.pre-commit-hooks.yaml")
printf 'nothing here\n' > "$tmp/clean.txt"
printf 'aws_key = AKIAG4WTHDRE74DAL6O2\n' > "$tmp/leak.txt"
PATH=$prefix/bin:/usr/bin:/bin $entry "$tmp/clean.txt" >/dev/null || fail "pre-commit hook refuses a clean file"
if PATH=$prefix/bin:/usr/bin:/bin $entry "$tmp/clean.txt" "$tmp/leak.txt" >/dev/null; then fail "pre-commit hook lets a key pass"; fi

if [ "${3:-}" = "--deb" ]; then
  (cd "$build" && cpack -G DEB -B "$tmp/pkg" >/dev/null) || fail "cpack -G DEB"
  deb=$(ls "$tmp"/pkg/goalcup-tools_*.deb)
  listing=$(dpkg-deb -c "$deb")
  for f in bin/goalcup-verify bin/goalcup-inspect bin/goalcup-cheatcheck share/man/man1/goalcup-verify.1 \
           share/bash-completion/completions/goalcup-cheatcheck; do
    grep -q "$f" <<<"$listing" || fail "the .deb lacks $f"
  done
  depends=$(dpkg-deb -f "$deb" Depends)
  grep -q libsodium <<<"$depends" || fail "the .deb does not depend on its libraries: $depends"
fi
echo "installed tools, man pages, completions and the pre-commit hook work"
