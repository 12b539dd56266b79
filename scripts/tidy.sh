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
# A unity build (cmake/unity.cmake) lists its batches, not its files: each
# file a batch includes gets the batch's command.
commands=$(mktemp -d)
trap 'rm -rf "$commands"' EXIT
python3 - "$build/compile_commands.json" > "$commands/compile_commands.json" <<'PY'
import json, re, sys
entries = []
for e in json.load(open(sys.argv[1])):
    e["command"] = re.sub(r" -include \S*cmake_pch\.hxx| -Winvalid-pch", "", e["command"])
    if not re.search(r"/Unity/unity_\d+_cxx\.cxx$", e["file"]):
        entries.append(e)
        continue
    for member in re.findall(r'^#include "(.+)"$', open(e["file"]).read(), re.M):
        entries.append(dict(e, file=member, command=e["command"].replace(e["file"], member)))
json.dump(entries, sys.stdout, indent=1)
PY
files=$(git ls-files 'core/*.cc' 'cli/*.cc' 'verify/*.cc' 'inspect/*.cc' 'cheatcheck/*.cc' 'fixtures/*.cc')
echo "$files" | xargs -P "$(nproc)" -n 4 "$tidy" -p "$commands" --quiet --extra-arg=-Wno-unknown-warning-option 2>/dev/null
echo "clang-tidy: clean"
