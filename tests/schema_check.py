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

src, verify, cheat, inspect, fixture = sys.argv[1:6]
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

# goalcup-cheatcheck: trace mode and scan mode JSON, the policy example.
cheat_schema = load("cheatcheck-report.schema.json")
out = subprocess.run([cheat, "--no-progress", "--format", "json", *traces], capture_output=True, text=True).stdout
check(cheat_schema, json.loads(out), "cheatcheck --format json")
out = subprocess.run([cheat, "scan", "--no-progress", "--format", "json", samples], capture_output=True, text=True).stdout
check(cheat_schema, json.loads(out), "cheatcheck scan --format json")
policy = load("cheatcheck-policy.schema.json")
with open(os.path.join(src, "fixtures", "policy", "example-policy.json")) as f:
    check(policy, json.load(f), "fixtures/policy/example-policy.json")
# SARIF: the parts code scanning needs.
sarif = json.loads(subprocess.run([cheat, "--no-progress", "--format", "sarif", *traces], capture_output=True, text=True).stdout)
ok = sarif["version"] == "2.1.0" and len(sarif["runs"][0]["tool"]["driver"]["rules"]) == 14
for r in sarif["runs"][0]["results"]:
    ok &= r["level"] in ("error", "warning", "note") and r["ruleId"] and "goalcupFingerprint/v1" in r["partialFingerprints"]
    for loc in r["locations"]:
        region = loc["physicalLocation"].get("region")
        ok &= region is None or region["startLine"] >= 1
if not ok:
    print("FAIL sarif structure")
    failures += 1

# goalcup-cheatcheck coop and manifest modes, on generated fixtures.
import tempfile
with tempfile.TemporaryDirectory() as tmp:
    subprocess.run([fixture, "coop", os.path.join(tmp, "coop")], check=True)
    subprocess.run([fixture, "manifests", os.path.join(tmp, "man")], check=True, capture_output=True)
    out = subprocess.run([cheat, "coop", "--no-progress", "--format", "json", os.path.join(tmp, "coop")],
                         capture_output=True, text=True).stdout
    check(cheat_schema, json.loads(out), "cheatcheck coop --format json")
    mans = sorted(glob.glob(os.path.join(tmp, "man", "*")))
    out = subprocess.run([cheat, "manifest", "--no-progress", "--format", "json", *mans], capture_output=True, text=True).stdout
    check(cheat_schema, json.loads(out), "cheatcheck manifest --format json")

# goalcup-inspect: summary, records, show and conversation JSON.
def run_json(*args):
    return json.loads(subprocess.run([inspect, *args], capture_output=True, text=True).stdout)
for sample in ["codex-verified.jsonl", "claude-code-verified.jsonl.zst", "claude-code-restart.jsonl", "tampered-edit_mid.jsonl"]:
    path = os.path.join(samples, sample)
    check(load("inspect-summary.schema.json"), run_json("summary", "--json", path), f"inspect summary {sample}")
    check(load("inspect-records.schema.json"), run_json("records", "--json", path), f"inspect records {sample}")
    check(load("inspect-conversation.schema.json"), run_json("conversation", "--format", "json", path), f"inspect conversation {sample}")
    for seq in ("0", "1", "5", "6", "7"):
        check(load("inspect-show.schema.json"), run_json("show", "--json", path, seq), f"inspect show {sample} {seq}")

print(f"{failures} failed" if failures else "all documents fit their schemas")
sys.exit(1 if failures else 0)
