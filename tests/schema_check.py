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


# The schemas of the tools' own reports are checked both ways against what
# the tools emit: a member the code writes must be declared (objects with
# declared properties are closed here), and a member the schema declares must
# be written by at least one of the runs below (else the schema is stale or a
# test input is missing).
REPORT_SCHEMAS = ("verify-report", "cheatcheck-report", "inspect-")
declared = {}  # (schema name, JSON pointer of a property) -> seen
validators = {}


def close_objects(node, name, pointer):
    if isinstance(node, dict):
        props = node.get("properties")
        if isinstance(props, dict):
            node.setdefault("additionalProperties", False)
            for key in props:
                declared.setdefault((name, f"{pointer}/properties/{key}"), False)
        for key, sub in node.items():
            close_objects(sub, name, f"{pointer}/{key}")
    elif isinstance(node, list):
        for i, sub in enumerate(node):
            close_objects(sub, name, f"{pointer}/{i}")


def load(name):
    if name in validators:
        return validators[name]
    with open(os.path.join(schemas, name)) as f:
        schema = json.load(f)
    jsonschema.Draft202012Validator.check_schema(schema)
    if name.startswith(REPORT_SCHEMAS):
        close_objects(schema, name, "#")
    validators[name] = jsonschema.Draft202012Validator(schema)
    return validators[name]


def mark_seen(validator, name, subschema, pointer, doc):
    """Marks the declared properties that doc fills, following $ref and the
    branches of oneOf/anyOf/allOf that doc matches."""
    if not isinstance(subschema, dict):
        return
    ref = subschema.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/"):
        target = validator.schema
        for part in ref[2:].split("/"):
            target = target[part]
        mark_seen(validator, name, target, "#/" + ref[2:], doc)
    for key in ("oneOf", "anyOf", "allOf"):
        for i, branch in enumerate(subschema.get(key, [])):
            if validator.evolve(schema=dict(validator.schema, **branch)).is_valid(doc):
                mark_seen(validator, name, branch, f"{pointer}/{key}/{i}", doc)
    if isinstance(doc, dict) and isinstance(subschema.get("properties"), dict):
        for key, value in doc.items():
            if key in subschema["properties"]:
                declared[(name, f"{pointer}/properties/{key}")] = True
                mark_seen(validator, name, subschema["properties"][key], f"{pointer}/properties/{key}", value)
    if isinstance(doc, list) and isinstance(subschema.get("items"), dict):
        for value in doc:
            mark_seen(validator, name, subschema["items"], f"{pointer}/items", value)


def check(validator, doc, what):
    global failures
    errors = list(validator.iter_errors(doc))
    for e in errors[:3]:
        print(f"FAIL {what}: {e.message} at {list(e.absolute_path)}")
    failures += bool(errors)
    for name, v in validators.items():
        if v is validator and name.startswith(REPORT_SCHEMAS):
            mark_seen(v, name, v.schema, "#", doc)


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


def check_jsonl(validator, out, what):
    """Every line a report, the last one the summary."""
    lines = out.splitlines()
    for name, docs in (("report", lines[:-1]), ("summary_line", lines[-1:])):
        line_schema = dict(validator.schema, **{"$ref": f"#/$defs/{name}"})
        for k in ("required", "properties", "additionalProperties", "type"):
            line_schema.pop(k, None)
        v = jsonschema.Draft202012Validator(line_schema)
        schema_name = next(k for k, val in validators.items() if val is validator)
        for n, line in enumerate(docs):
            doc = json.loads(line)
            check(v, doc, f"{what} line {n} ({name})")
            mark_seen(validator, schema_name, validator.schema["$defs"][name], f"#/$defs/{name}", doc)
    global failures
    if not lines or "summary" not in json.loads(lines[-1]):
        print(f"FAIL {what}: no summary line")
        failures += 1


out = subprocess.run([verify, "--no-progress", "--format", "jsonl", *traces], capture_output=True, text=True).stdout
check_jsonl(report, out, "verify --format jsonl")
out = subprocess.run([verify, "--no-progress", "--format", "jsonl", "--shard", "1/2", *traces], capture_output=True, text=True).stdout
check_jsonl(report, out, "verify --format jsonl --shard 1/2")

# goalcup-cheatcheck: trace mode and scan mode JSON, the policy example.
cheat_schema = load("cheatcheck-report.schema.json")
out = subprocess.run([cheat, "--no-progress", "--format", "json", *traces], capture_output=True, text=True).stdout
check(cheat_schema, json.loads(out), "cheatcheck --format json")
out = subprocess.run([cheat, "--no-progress", "--format", "jsonl", *traces], capture_output=True, text=True).stdout
check_jsonl(cheat_schema, out, "cheatcheck --format jsonl")
out = subprocess.run([cheat, "--no-progress", "--format", "jsonl", "--shard", "0/3", *traces], capture_output=True, text=True).stdout
check_jsonl(cheat_schema, out, "cheatcheck --format jsonl --shard 0/3")
# A path that does not exist gives a report with its errors.
out = subprocess.run([cheat, "scan", "--no-progress", "--format", "json", samples, os.path.join(samples, "no-such-file")],
                     capture_output=True, text=True).stdout
check(cheat_schema, json.loads(out), "cheatcheck scan --format json")
policy = load("cheatcheck-policy.schema.json")
with open(os.path.join(src, "fixtures", "policy", "example-policy.json")) as f:
    check(policy, json.load(f), "fixtures/policy/example-policy.json")
# SARIF: the official 2.1.0 schema (tests/sarif/), and the parts code
# scanning needs (tests/sarif_check.py checks the rest).
with open(os.path.join(src, "tests", "sarif", "sarif-schema-2.1.0.json")) as f:
    sarif_schema = jsonschema.Draft4Validator(json.load(f))
sarif = json.loads(subprocess.run([cheat, "--no-progress", "--format", "sarif", *traces], capture_output=True, text=True).stdout)
check(sarif_schema, sarif, "cheatcheck --format sarif")
ok = sarif["version"] == "2.1.0" and len(sarif["runs"][0]["tool"]["driver"]["rules"]) == 14
ok &= sarif["runs"][0]["invocations"][0]["executionSuccessful"] is False  # /nonexistent.jsonl
for r in sarif["runs"][0]["results"]:
    ok &= r["level"] in ("error", "warning", "note") and r["ruleId"] and "goalcupFingerprint/v3" in r["partialFingerprints"]
    for loc in r["locations"]:
        ok &= loc["physicalLocation"]["region"]["startLine"] >= 1
if not ok:
    print("FAIL sarif structure")
    failures += 1

# With --dev-key the dev-key sample is verified under a supplied key: the
# summaries then say so ("supplied_key"), in JSON and JSON Lines, and merge
# passes it on.
dev_key = ["--dev-key", os.path.join(src, "fixtures", "keys", "dev-key.json")]
out = subprocess.run([verify, "--no-progress", "--format", "json", *dev_key, *traces], capture_output=True, text=True).stdout
check(report, json.loads(out), "verify --dev-key --format json")
if "supplied_key" not in json.loads(out)["summary"]:
    print("FAIL verify --dev-key: the summary has no supplied_key")
    failures += 1
out = subprocess.run([verify, "--no-progress", "--format", "jsonl", *dev_key, *traces], capture_output=True, text=True).stdout
check_jsonl(report, out, "verify --dev-key --format jsonl")
out = subprocess.run([cheat, "--no-progress", "--format", "json", *dev_key, *traces], capture_output=True, text=True).stdout
check(cheat_schema, json.loads(out), "cheatcheck --dev-key --format json")
out = subprocess.run([cheat, "--no-progress", "--format", "jsonl", *dev_key, *traces], capture_output=True, text=True).stdout
check_jsonl(cheat_schema, out, "cheatcheck --dev-key --format jsonl")

# Names that are not valid UTF-8 (here two differing in one such byte): each
# bad byte is written as \xNN in `file`, and `file_base64` holds the exact
# bytes, so the two stay two names and each can be got back.
import base64
import tempfile
with tempfile.TemporaryDirectory() as tmp:
    honest = open(os.path.join(samples, "codex-verified.jsonl"), "rb").read()
    names = [os.path.join(os.fsencode(tmp), b"bad\xff.jsonl"), os.path.join(os.fsencode(tmp), b"bad\xfe.jsonl")]
    for name in names:
        open(name, "wb").write(honest)
    os.mkdir(os.path.join(tmp, "scan"))
    open(os.path.join(os.fsencode(tmp), b"scan", b"notes\xff.txt"), "wb").write(b"key AKIAIOSFODNN7EXAMPLQ\n")
    for tool, schema, args in ((verify, report, names), (cheat, cheat_schema, names),
                               (cheat, cheat_schema, [b"scan", os.path.join(os.fsencode(tmp), b"scan")])):
        doc = json.loads(subprocess.run([tool, "--no-progress", "--format", "json", *args], capture_output=True).stdout)
        check(schema, doc, f"{os.path.basename(tool)} {args[0][-9:]!r} --format json of names not UTF-8")
    doc = json.loads(subprocess.run([verify, "--no-progress", "--format", "json", *names], capture_output=True).stdout)
    files = [r["file"] for r in doc["reports"]]
    exact = [base64.b64decode(r["file_base64"]) for r in doc["reports"]]
    if files[0] == files[1] or not files[0].endswith("bad\\xff.jsonl") or exact != names:
        print(f"FAIL names not UTF-8: {files} {exact}")
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
    for mode, args in (("coop", [os.path.join(tmp, "coop")]), ("manifest", mans)):
        out = subprocess.run([cheat, mode, "--no-progress", "--format", "sarif", *args], capture_output=True, text=True).stdout
        check(sarif_schema, json.loads(out), f"cheatcheck {mode} --format sarif")

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
# A line that is not a record: show says why, with record null.
dup = os.path.join(samples, "tampered-dup_json_key.jsonl")
check(load("inspect-show.schema.json"), run_json("show", "--json", dup, "14"), "inspect show of a line that is not a record")

# An answer of every block kind (thinking, redacted thinking, a provider-run
# web search and its result, a provider tool's failed result, text, a tool
# called with no input), streamed
# by `goalcup-fixture wrap` around a small Claude Code log written here.
with tempfile.TemporaryDirectory() as tmp:
    blocks = [{"type": "thinking", "thinking": "Let me look.", "signature": "c2ln"},
              {"type": "redacted_thinking", "data": "ZGF0YQ=="},
              {"type": "server_tool_use", "id": "srvtoolu_1", "name": "web_search", "input": {"query": "weather"}},
              {"type": "web_search_tool_result", "tool_use_id": "srvtoolu_1",
               "content": [{"type": "web_search_result", "title": "Weather", "url": "https://example.com/w", "encrypted_content": "ZW5j"}]},
              # a provider tool's failure: its result's detail, marked is_error
              {"type": "server_tool_use", "id": "srvtoolu_2", "name": "code_execution", "input": {"code": "print(1)"}},
              {"type": "code_execution_tool_result", "tool_use_id": "srvtoolu_2",
               "content": {"type": "code_execution_tool_result_error", "error_code": "unavailable"}},
              {"type": "text", "text": "Sunny."},
              {"type": "tool_use", "id": "toolu_1", "name": "Status", "input": {}}]
    log = [{"type": "user", "uuid": "u1", "parentUuid": None, "timestamp": "2026-01-01T10:00:00.000Z",
            "message": {"role": "user", "content": "Weather?"}}]
    for i, b in enumerate(blocks):
        log.append({"type": "assistant", "uuid": f"a{i}", "parentUuid": log[-1]["uuid"], "timestamp": "2026-01-01T10:00:01.000Z",
                    "message": {"id": "msg_1", "model": "claude-opus-4-5", "role": "assistant", "content": [b],
                                "usage": {"input_tokens": 3, "cache_read_input_tokens": 5, "cache_creation_input_tokens": 7, "output_tokens": 9}}})
    # The tool's run failed: its result goes back marked is_error.
    log.append({"type": "user", "uuid": "r1", "parentUuid": log[-1]["uuid"], "timestamp": "2026-01-01T10:00:02.000Z",
                "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "is_error": True,
                                                         "content": "status: failed"}]}})
    log.append({"type": "assistant", "uuid": "a9", "parentUuid": "r1", "timestamp": "2026-01-01T10:00:03.000Z",
                "message": {"id": "msg_2", "model": "claude-opus-4-5", "role": "assistant",
                            "content": [{"type": "text", "text": "It failed."}],
                            "usage": {"input_tokens": 3, "output_tokens": 4}}})
    with open(os.path.join(tmp, "log.jsonl"), "w") as f:
        f.write("".join(json.dumps(line) + "\n" for line in log))
    subprocess.run([fixture, "wrap", os.path.join(tmp, "log.jsonl"), "--key", os.path.join(src, "fixtures", "keys", "dev-key.json"),
                    "-o", os.path.join(tmp, "trace.jsonl")], check=True, capture_output=True)
    check(load("inspect-conversation.schema.json"), run_json("conversation", "--format", "json", os.path.join(tmp, "trace.jsonl")),
          "inspect conversation of every block kind")
    # The last answer broken off by the provider's error event.
    subprocess.run([fixture, "wrap", os.path.join(tmp, "log.jsonl"), "--interrupt", "--stream-error", "--key",
                    os.path.join(src, "fixtures", "keys", "dev-key.json"), "-o", os.path.join(tmp, "error.jsonl")],
                   check=True, capture_output=True)
    check(load("inspect-conversation.schema.json"), run_json("conversation", "--format", "json", os.path.join(tmp, "error.jsonl")),
          "inspect conversation of a stream that ends in an error")

# A request's history, system prompt and a Task subagent: a Claude Code log
# with a sidechain, wrapped, then its requests given system prompts (S1, S2,
# S1 again) and the first a history no answer gave (the chain breaks; the
# view still writes every exchange).
with tempfile.TemporaryDirectory() as tmp:
    t0 = "2026-01-01T10:00:0{}.000Z"
    def line(uuid, parent, kind, content, i, side=False, msg_id=None):
        m = {"role": kind, "content": content}
        if msg_id:
            m.update(id=msg_id, model="claude-opus-4-5", usage={"input_tokens": 3, "output_tokens": 4})
        return {"type": kind, "uuid": uuid, "parentUuid": parent, "isSidechain": side, "timestamp": t0.format(i), "message": m}
    log = [line("u1", None, "user", "Look around.", 0),
           line("a1", "u1", "assistant", [{"type": "tool_use", "id": "toolu_T", "name": "Task",
                                            "input": {"description": "d", "prompt": "Count the files."}}], 1, msg_id="msg_1"),
           line("s1", None, "user", "Count the files.", 2, side=True),
           line("s2", "s1", "assistant", [{"type": "text", "text": "3 files."}], 3, side=True, msg_id="msg_2"),
           line("r1", "a1", "user", [{"type": "tool_result", "tool_use_id": "toolu_T", "content": "3 files."}], 4),
           line("a2", "r1", "assistant", [{"type": "text", "text": "Done."}], 5, msg_id="msg_3")]
    with open(os.path.join(tmp, "log.jsonl"), "w") as f:
        f.write("".join(json.dumps(x) + "\n" for x in log))
    trace = os.path.join(tmp, "trace.jsonl")
    subprocess.run([fixture, "wrap", os.path.join(tmp, "log.jsonl"), "--key", os.path.join(src, "fixtures", "keys", "dev-key.json"),
                    "-o", trace], check=True, capture_output=True)
    lines, n = [], 0
    for raw in open(trace):
        rec = json.loads(raw)
        if rec.get("kind") == "wire" and rec["body"].get("dir") == "request":
            body = json.loads(rec["body"]["body"])
            body["system"] = ["S1", "S2", "S1"][min(n, 2)]
            if n == 0:
                body["messages"] = [{"role": "user", "content": "ORIGINAL"}, {"role": "assistant", "content": "PRIOR"}] + body["messages"]
            rec["body"]["body"] = json.dumps(body)
            n += 1
        lines.append(json.dumps(rec, separators=(",", ":")))
    open(trace, "w").write("\n".join(lines) + "\n")
    conv = run_json("conversation", "--format", "json", trace)
    check(load("inspect-conversation.schema.json"), conv, "inspect conversation of a history, system prompts and a subagent")
    if not any("subagent" in e for e in conv["exchanges"]) or not any(i.get("history") for e in conv["exchanges"] for i in e["input"]):
        print("FAIL inspect conversation: the subagent or the history is not shown")
        failures += 1

# A Chat Completions answer of two choices (n=2), choice 1 a refusal: its
# blocks say their choice. The altered record breaks the chain; the
# conversation still shows it.
with tempfile.TemporaryDirectory() as tmp:
    lines = open(os.path.join(samples, "codex-verified.jsonl"), "rb").read().split(b"\n")
    seq = next(i for i, line in enumerate(lines) if b'"kind":"wire"' in line and b'"dir":"response"' in line)
    rec = json.loads(lines[seq])
    chunks = [{"index": 0, "delta": {"content": "Sunny."}}, {"index": 1, "delta": {"refusal": "I can't help."}},
              {"index": 0, "delta": {}, "finish_reason": "stop"}, {"index": 1, "delta": {}, "finish_reason": "stop"}]
    sse = "".join("data: " + json.dumps({"id": "chatcmpl-1", "model": "gpt-4o", "choices": [c]}) + "\n\n" for c in chunks)
    rec["body"].update(body=sse, encoding="utf8", size=len(sse.encode()), redactions=[])
    lines[seq] = json.dumps(rec, separators=(",", ":")).encode()
    chat = os.path.join(tmp, "chat-choices.jsonl")
    open(chat, "wb").write(b"\n".join(lines))
    check(load("inspect-conversation.schema.json"), run_json("conversation", "--format", "json", chat),
          "inspect conversation of a Chat Completions answer of two choices")

# A wire body that is not UTF-8 is shown as base64; the secret text only with
# --show-secrets. The altered record breaks the chain, which show still reports.
with tempfile.TemporaryDirectory() as tmp:
    lines = open(os.path.join(samples, "codex-verified.jsonl"), "rb").read().split(b"\n")
    seq = next(i for i, line in enumerate(lines) if b'"kind":"wire"' in line)
    rec = json.loads(lines[seq])
    rec["body"].update(body="//4=", encoding="base64", size=2, redactions=[])
    lines[seq] = json.dumps(rec, separators=(",", ":")).encode()
    binary = os.path.join(tmp, "binary-body.jsonl")
    open(binary, "wb").write(b"\n".join(lines))
    check(load("inspect-show.schema.json"), run_json("show", "--json", binary, str(seq)), "inspect show binary body")
out = subprocess.run([cheat, "--no-progress", "--show-secrets", "--format", "json", os.path.join(samples, "claude-code-leaks.jsonl")],
                     capture_output=True, text=True).stdout
check(cheat_schema, json.loads(out), "cheatcheck --show-secrets --format json")

# goalcup-inspect diff: a trace against its redacted copy (redactions), two
# unrelated samples (changes, additions), and the same with the alignment
# cut short (not_aligned_from).
diff_schema = load("inspect-diff.schema.json")
with tempfile.TemporaryDirectory() as tmp:
    key = os.path.join(src, "fixtures", "keys", "dev-key.json")
    leak, red = os.path.join(tmp, "leak.jsonl"), os.path.join(tmp, "red.jsonl")
    subprocess.run([fixture, "gen", "--plant", "secret-plain", "--plant", "secret-header", "--key", key, "-o", leak],
                   check=True, capture_output=True)
    subprocess.run([cheat, "redact", leak, "-o", red, "--key", key], check=True, capture_output=True)
    runs = [[leak, red], [os.path.join(samples, "codex-verified.jsonl"), os.path.join(samples, "claude-code-restart.jsonl")],
            ["--max-steps", "1", os.path.join(samples, "codex-verified.jsonl"), os.path.join(samples, "claude-code-restart.jsonl")],
            [leak, leak]]
    for args in runs:
        check(diff_schema, run_json("diff", "--format", "json", *args), "inspect diff " + " ".join(os.path.basename(a) for a in args))

# Every member a report schema declares was written by some run above.
for (name, pointer), seen in sorted(declared.items()):
    if not seen:
        print(f"FAIL {name}: {pointer} is declared but no run wrote it")
        failures += 1

print(f"{failures} failed" if failures else "all documents fit their schemas")
sys.exit(1 if failures else 0)
