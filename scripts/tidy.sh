#!/usr/bin/env bash
# clang-tidy (.clang-tidy) over the project's sources, in parallel, using the
# compile commands of a configured build directory. Any warning fails.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
[ -f "$build/compile_commands.json" ] || cmake -S . -B "$build" -G Ninja >/dev/null
tidy=$(command -v clang-tidy || command -v clang-tidy-14)
# The build's commands without its precompiled header: clang-tidy would try
# to load GCC's .gch, and each file should stand on its own includes anyway.
commands=$(mktemp -d)
trap 'rm -rf "$commands"' EXIT
sed -E 's/ -include [^ ]*cmake_pch\.hxx//g; s/ -Winvalid-pch//g' "$build/compile_commands.json" \
  > "$commands/compile_commands.json"
files=$(git ls-files 'core/*.cc' 'cli/*.cc' 'verify/*.cc' 'inspect/*.cc' 'cheatcheck/*.cc' 'fixtures/*.cc')
echo "$files" | xargs -P "$(nproc)" -n 4 "$tidy" -p "$commands" --quiet --extra-arg=-Wno-unknown-warning-option 2>/dev/null
echo "clang-tidy: clean"
