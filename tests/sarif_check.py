#!/usr/bin/env python3
"""Every SARIF file goalcup-cheatcheck writes in these cases validates against
the official SARIF 2.1.0 schema (tests/sarif/) and holds what GitHub code
scanning needs: a notification for each input that could not be judged, URIs
percent-encoded (relative to --sarif-base), members named by their path,
a region and primaryLocationLineHash on every result, runs of at most 5,000
results, and scan's own rule ids.

Usage: sarif_check.py SOURCE_DIR CHEATCHECK_BIN
"""
import json
import os
import random
import shutil
import subprocess
import sys
import tarfile
import tempfile

import jsonschema

src, cheat = sys.argv[1:3]
samples = os.path.join(src, "fixtures", "samples")
with open(os.path.join(src, "tests", "sarif", "sarif-schema-2.1.0.json")) as f:
    schema = json.load(f)
jsonschema.Draft4Validator.check_schema(schema)
validator = jsonschema.Draft4Validator(schema)
failures = 0


def expect(ok, what):
    global failures
    if not ok:
        print(f"FAIL {what}")
        failures += 1


def sarif(*args, cwd=None):
    """Runs cheatcheck --format sarif; checks the schema and the invariants."""
    p = subprocess.run([cheat, *args[:1], "--no-progress", "--format", "sarif", *args[1:]],
                       capture_output=True, text=True, cwd=cwd)
    doc = json.loads(p.stdout)
    what = " ".join(args)
    for e in list(validator.iter_errors(doc))[:3]:
        expect(False, f"{what}: schema: {e.message} at {list(e.absolute_path)}")
    for run in doc["runs"]:
        expect(len(run["invocations"]) == 1, f"{what}: one invocation per run")
        expect(len(run["results"]) <= 5000, f"{what}: at most 5,000 results per run")
        for r in run["results"]:
            loc = r["locations"][0]["physicalLocation"]
            expect(loc.get("region", {}).get("startLine", 0) >= 1, f"{what}: a region on every result")
            expect("primaryLocationLineHash" in r["partialFingerprints"], f"{what}: primaryLocationLineHash")
            expect("goalcupFingerprint/v3" in r["partialFingerprints"], f"{what}: our fingerprint")
    return p, doc


def uris(doc):
    return [r["locations"][0]["physicalLocation"]["artifactLocation"] for run in doc["runs"] for r in run["results"]]


with tempfile.TemporaryDirectory() as tmp:
    # An input that could not be judged is never a clean scan.
    missing = os.path.join(tmp, "missing.jsonl")
    p, doc = sarif(os.path.join(samples, "codex-verified.jsonl"), missing)
    inv = doc["runs"][0]["invocations"][0]
    expect(p.returncode == 2, "missing input: exit 2")
    expect(inv["executionSuccessful"] is False, "missing input: executionSuccessful false")
    notes = inv["toolExecutionNotifications"]
    expect(len(notes) == 1 and notes[0]["level"] == "error" and "missing.jsonl" in notes[0]["message"]["text"],
           "missing input: one error notification naming it")
    expect("missing.jsonl" in p.stderr and "not_found" in p.stderr, "missing input: the error on stderr")
    p, doc = sarif(os.path.join(samples, "codex-verified.jsonl"))
    expect(doc["runs"][0]["invocations"][0]["executionSuccessful"] is True, "clean run: executionSuccessful true")
    expect(doc["runs"][0]["invocations"][0]["toolExecutionNotifications"] == [], "clean run: no notification")

    # Names with a space, '#' and '%', relative to --sarif-base.
    odd = os.path.join(tmp, "repo", "up loads", "a#1%.jsonl")
    os.makedirs(os.path.dirname(odd))
    shutil.copy(os.path.join(samples, "claude-code-sealed-unacked.jsonl"), odd)
    p, doc = sarif(odd, "--sarif-base", os.path.join(tmp, "repo"))
    run = doc["runs"][0]
    base = run["originalUriBaseIds"]["SRCROOT"]["uri"]
    expect(base.startswith("file:///") and base.endswith("/repo/"), f"--sarif-base: SRCROOT is {base}")
    locs = uris(doc)
    expect(locs and all(l == {"uri": "up%20loads/a%231%25.jsonl", "uriBaseId": "SRCROOT"} for l in locs),
           f"--sarif-base: relative, percent-encoded URIs: {locs[:1]}")
    p, doc = sarif(os.path.join("up loads", "a#1%.jsonl"), cwd=os.path.join(tmp, "repo"))
    expect(all(l["uri"] == "up%20loads/a%231%25.jsonl" for l in uris(doc)), "relative argument: relative URI")
    p, doc = sarif(odd)
    expect(all(l["uri"].startswith("file:///") and "%20" in l["uri"] for l in uris(doc)),
           "absolute argument: an absolute file URI")

    # A trace in a submission folder is named by its path there; a .tar
    # member as a nested artifact.
    sub = os.path.join(tmp, "repo", "sub1", "output")
    os.makedirs(sub)
    shutil.copy(os.path.join(samples, "claude-code-sealed-unacked.jsonl"), os.path.join(sub, "trace.jsonl"))
    p, doc = sarif(os.path.join(tmp, "repo", "sub1"), "--sarif-base", os.path.join(tmp, "repo"))
    expect(all(l["uri"] == "sub1/output/trace.jsonl" for l in uris(doc)), f"folder member: {uris(doc)[:1]}")
    tar = os.path.join(tmp, "repo", "entry.tar")
    with tarfile.open(tar, "w") as t:
        t.add(os.path.join(sub, "trace.jsonl"), arcname="run/trace.jsonl")
    p, doc = sarif(tar, "--sarif-base", os.path.join(tmp, "repo"))
    run = doc["runs"][0]
    arts = run.get("artifacts", [])
    locs = uris(doc)
    ok = locs and all(l["uri"] == "run/trace.jsonl" and "index" in l for l in locs)
    if ok:
        member = arts[locs[0]["index"]]
        parent = arts[member["parentIndex"]]
        ok = member["location"]["uri"] == "run/trace.jsonl" and parent["location"]["uri"] == "entry.tar"
    expect(ok, f"tar member: nested artifact: {locs[:1]} {arts}")
    p, doc = sarif("scan", tar, "--sarif-base", os.path.join(tmp, "repo"))
    expect(p.returncode in (0, 1), "scan of a tar: judged")

    # A region even where the finding has no record (an empty trace).
    empty = os.path.join(tmp, "empty.jsonl")
    open(empty, "w").close()
    p, doc = sarif(empty)
    expect(len(uris(doc)) >= 1, "empty trace: a result")

    # scan: rule ids of its own, and more than 5,000 results in two runs.
    rnd = random.Random(7)
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
    many = os.path.join(tmp, "many.txt")
    with open(many, "w") as f:
        for _ in range(5100):
            f.write("key = AKIA" + "".join(rnd.choice(alphabet) for _ in range(16)) + "\n")
    p, doc = sarif("scan", many)
    counts = [len(run["results"]) for run in doc["runs"]]
    expect(counts == [5000, 100], f"5,100 results in runs of 5,000: {counts}")
    ids = {r["ruleId"] for run in doc["runs"] for r in run["results"]}
    expect(ids == {"secret/aws-key-id"}, f"scan rule ids: {ids}")
    rules = {r["id"] for r in doc["runs"][0]["tool"]["driver"]["rules"]}
    expect("secret/aws-key-id" in rules and not any(r.startswith("GC") for r in rules), "scan rules are secret rules")
    cats = [run.get("automationDetails", {}).get("id") for run in doc["runs"]]
    expect(len(set(cats)) == 2 and None not in cats, f"split runs have their own category: {cats}")

print(f"{failures} failed" if failures else "every SARIF file validates and holds what code scanning needs")
sys.exit(1 if failures else 0)
