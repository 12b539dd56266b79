#!/usr/bin/env python3
"""Validates SARIF files against the official SARIF 2.1.0 schema next to this
script. Usage: validate.py FILE...  (exit 1 and the first errors when one
does not validate)."""
import json
import os
import sys

import jsonschema

with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "sarif-schema-2.1.0.json")) as f:
    validator = jsonschema.Draft4Validator(json.load(f))
bad = 0
for path in sys.argv[1:]:
    with open(path) as f:
        errors = list(validator.iter_errors(json.load(f)))
    for e in errors[:3]:
        print(f"{path}: {e.message} at {list(e.absolute_path)}")
    bad += bool(errors)
sys.exit(1 if bad else 0)
