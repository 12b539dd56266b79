#!/usr/bin/env python3
"""Writes seeds for fuzz/checks_fuzzer.cc from the project's own traces.

Each trace becomes one or more seeds of at most 60 KB (the fuzzer's
max_len is 64 KiB): the records before the first wire or native one as
they are ('R' lines), then windows of the rest, wire bodies and native
lines in the fuzzer's compact form (q, s, c, x), other records as they are.
Only traces the project wrote itself or copied into fixtures/ may be given
(never ../shared/corpora: its data must not enter the repository).

    scripts/fuzz_seeds_checks.py OUT_DIR TRACE...   (.jsonl or .jsonl.zst)
"""
import base64
import hashlib
import json
import os
import subprocess
import sys

SEED_BYTES = 60_000


def read_lines(path):
    if path.endswith(".zst"):
        data = subprocess.run(["zstd", "-dc", path], check=True, capture_output=True).stdout
    else:
        data = open(path, "rb").read()
    return [line for line in data.split(b"\n") if line]


def compact(line):
    """The fuzzer's line for one record."""
    record = json.loads(line)
    body, kind = record.get("body", {}), record.get("kind")
    if kind == "native" and body.get("source") in ("claude-code", "codex"):
        tag = b"c" if body["source"] == "claude-code" else b"x"
        return tag + body["text"].encode()
    if kind == "wire" and isinstance(body.get("body"), str):
        text = body["body"].encode()
        if body.get("encoding") == "base64":
            text = base64.b64decode(body["body"])
        text = text.replace(b"\n", b"\x1e")  # the fuzzer reads RS as LF in bodies
        if body.get("dir") == "request":
            return b"q" + body.get("path", "/v1/messages").encode() + b" " + text
        return b"s" + text
    return b"R" + line


def seeds(lines):
    head = []
    for i, line in enumerate(lines):
        kind = json.loads(line).get("kind")
        if kind in ("wire", "native"):
            rest = lines[i:]
            break
        head.append(b"R" + line)
    else:
        rest = []
    prefix = b"\n".join(head) + b"\n"
    window = []
    size = len(prefix)
    for line in rest:
        c = compact(line)
        if len(c) + len(prefix) > SEED_BYTES:
            continue
        if size + len(c) + 1 > SEED_BYTES and window:
            yield prefix + b"\n".join(window) + b"\n"
            window, size = [], len(prefix)
        window.append(c)
        size += len(c) + 1
    if window:
        yield prefix + b"\n".join(window) + b"\n"


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for path in sys.argv[2:]:
        for seed in seeds(read_lines(path)):
            name = hashlib.sha1(seed).hexdigest()
            with open(os.path.join(out, name), "wb") as f:
                f.write(seed)


if __name__ == "__main__":
    main()
