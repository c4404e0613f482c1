#!/usr/bin/env python3
"""Every shipped scenario and policy file, as `squall validate --print-json` prints it,
passes scenarios/schema/scenario.schema.json under a standard JSON Schema validator:
Debian's python3-jsonschema (installed by scripts/setup.sh), Draft 2020-12. Policy files
are checked against the schema's #/$defs/policy. The files of tests/cli/data/schema-bad/
must be rejected by the schema (and by squall). Shipped sweep files (scenarios/sweeps/, bench/sweeps/) pass
scenarios/schema/sweep.schema.json (their whole-line // comments removed first), and sweeps
squall refuses are refused by it too.

Usage: schema_validation_test.py SQUALL_BINARY   (run from the source directory; ctest does)
Exits non-zero with a message listing every check that failed.
"""
import glob
import json
import subprocess
import sys

import jsonschema

if len(sys.argv) != 2:
    sys.exit(__doc__)
SQUALL = sys.argv[1]
SCENARIO_GLOBS = ["scenarios/*.json", "scenarios/ci/*", "scenarios/examples/*", "scenarios/incidents/*",
                  "bench/scenarios/*.json"]  # scenarios/scale/ reads a corpus built by setup.sh
POLICY_GLOBS = ["scenarios/policies/*"]

with open("scenarios/schema/scenario.schema.json", encoding="utf-8") as f:
    SCENARIO_SCHEMA = json.load(f)
jsonschema.Draft202012Validator.check_schema(SCENARIO_SCHEMA)
POLICY_SCHEMA = {"$schema": SCENARIO_SCHEMA["$schema"], "$defs": SCENARIO_SCHEMA["$defs"], "$ref": "#/$defs/policy"}
FORMAT_CHECKER = jsonschema.Draft202012Validator.FORMAT_CHECKER
failures = []


def schema_errors(document, schema):
    validator = jsonschema.Draft202012Validator(schema, format_checker=FORMAT_CHECKER)
    return [f"{'/' + '/'.join(map(str, e.absolute_path))}: {e.message}" for e in validator.iter_errors(document)]


def plain_json(args):
    result = subprocess.run([SQUALL, "validate", "--print-json", *args], capture_output=True, text=True)
    if result.returncode != 0:
        failures.append(f"squall validate --print-json {' '.join(args)} exited {result.returncode}: {result.stderr}")
        return None
    return json.loads(result.stdout)


def files(patterns):
    found = sorted({f for p in patterns for f in glob.glob(p) if f.endswith((".json", ".yaml", ".yml"))})
    if not found:
        failures.append(f"no files match {patterns}")
    return found


checked = 0
for path in files(SCENARIO_GLOBS):
    document = plain_json([path])
    if document is not None:
        failures += [f"{path}: {e}" for e in schema_errors(document, SCENARIO_SCHEMA)]
        checked += 1
for path in files(POLICY_GLOBS):
    document = plain_json(["--policy", path])
    if document is not None:
        failures += [f"{path}: {e}" for e in schema_errors(document, POLICY_SCHEMA)]
        checked += 1

for path in files(["tests/cli/data/schema-bad/*.json"]):
    with open(path, encoding="utf-8") as f:
        document = json.load(f)
    if not schema_errors(document, SCENARIO_SCHEMA):
        failures.append(f"{path}: the schema accepts it, but it is invalid")
    if subprocess.run([SQUALL, "validate", path], capture_output=True).returncode != 2:
        failures.append(f"{path}: squall validate accepts it, but it is invalid")

with open("scenarios/schema/sweep.schema.json", encoding="utf-8") as f:
    SWEEP_SCHEMA = json.load(f)
jsonschema.Draft202012Validator.check_schema(SWEEP_SCHEMA)
for path in files(["scenarios/sweeps/*", "bench/sweeps/*"]):
    with open(path, encoding="utf-8") as f:
        text = "".join(line for line in f if not line.lstrip().startswith("//"))
    failures += [f"{path}: {e}" for e in schema_errors(json.loads(text), SWEEP_SCHEMA)]
    checked += 1
GOOD_SWEEP = {"name": "t", "scenario": "../quickstart.json", "variants": [{"name": "a"}], "seeds": 3}
BAD_SWEEPS = [  # each also an error of squall's (tests/sim/sweep_spec_test.cpp)
    {"seeds": 0}, {"sedes": 3}, {"target": {"metric": "task_success", "width": 0.1, "max_seeds": 4}},
    {"variants": []}, {"variants": [{"name": "g", "grid": [{"path": "llm.retry", "values": [2]}]}]},
    {"variants": [{"name": "g", "grid": [{"path": "/llm/1/retry/max_attempts", "values": [2, 2]}]}]},
    {"metrics": ["p99"]}, {"objectives": [{"metric": "task_success", "goal": "up"}]},
]
if schema_errors(GOOD_SWEEP, SWEEP_SCHEMA):
    failures.append(f"sweep schema refuses a valid sweep: {schema_errors(GOOD_SWEEP, SWEEP_SCHEMA)}")
for change in BAD_SWEEPS:
    if not schema_errors({**GOOD_SWEEP, **change}, SWEEP_SCHEMA):
        failures.append(f"sweep schema accepts an invalid sweep: {change}")

if failures:
    sys.exit("schema_validation_test:\n  " + "\n  ".join(failures))
print(f"schema_validation_test: {checked} shipped files pass the schema")
