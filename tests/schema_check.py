#!/usr/bin/env python3
"""Checks the tools' JSON output and the sample records against schemas/.

Usage: schema_check.py SOURCE_DIR VERIFY_BIN
"""
import glob
import json
import os
import subprocess
import sys

import jsonschema

src, verify = sys.argv[1], sys.argv[2]
schemas = os.path.join(src, "schemas")
samples = os.path.join(src, "fixtures", "samples")
failures = 0


def load(name):
    with open(os.path.join(schemas, name)) as f:
        schema = json.load(f)
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def check(validator, doc, what):
    global failures
    errors = list(validator.iter_errors(doc))
    for e in errors[:3]:
        print(f"FAIL {what}: {e.message} at {list(e.absolute_path)}")
    failures += bool(errors)


# Every record of the valid samples fits the record schema.
records = load("trace-record.schema.json")
for path in glob.glob(os.path.join(samples, "*.jsonl")):
    if "tampered-dup" in path:
        continue  # Python's json keeps the last duplicate; the verifier refuses it
    with open(path, "rb") as f:
        for n, line in enumerate(f):
            check(records, json.loads(line), f"{os.path.basename(path)} line {n}")

# goalcup-verify's JSON and JSONL output fit the report schema.
report = load("verify-report.schema.json")
traces = sorted(glob.glob(os.path.join(samples, "*.jsonl*"))) + ["/nonexistent.jsonl"]
out = subprocess.run([verify, "--no-progress", "--format", "json", *traces], capture_output=True, text=True).stdout
check(report, json.loads(out), "verify --format json")
out = subprocess.run([verify, "--no-progress", "--format", "jsonl", *traces], capture_output=True, text=True).stdout
line_schema = dict(report.schema, **{"$ref": "#/$defs/report"})
for k in ("required", "properties", "additionalProperties", "type"):
    line_schema.pop(k, None)
lines = jsonschema.Draft202012Validator(line_schema)
for n, line in enumerate(out.splitlines()):
    check(lines, json.loads(line), f"verify --format jsonl line {n}")

print(f"{failures} failed" if failures else "all documents fit their schemas")
sys.exit(1 if failures else 0)
