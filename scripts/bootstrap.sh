#!/usr/bin/env bash
# Quick start, step 1: install the packages, build, and verify a bundled
# sample trace.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release
cmake --build build
echo
echo "== goalcup-verify fixtures/samples/claude-code-verified.jsonl.zst"
build/verify/goalcup-verify fixtures/samples/claude-code-verified.jsonl.zst
