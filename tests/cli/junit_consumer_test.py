#!/usr/bin/env python3
"""The JUnit report as a CI reads it: parsed by junitparser (Debian's python3-junitparser,
installed by scripts/setup.sh), the library GitHub and GitLab report actions build on.

Usage: junit_consumer_test.py SQUALL_BINARY   (run from the source directory; ctest does)
Exits non-zero with a message on the first check that fails.
"""
import json
import os
import re
import subprocess
import sys
import tempfile

from junitparser import Failure, JUnitXml

if len(sys.argv) != 2:
    sys.exit(__doc__)
SQUALL = sys.argv[1]
FLAGSHIP = "scenarios/incidents/launch-surge-429-storm.json"
NAIVE = "scenarios/policies/naive-retry.json"


def check(condition, message):
    if not condition:
        sys.exit(f"junit_consumer_test: {message}")


def run(args, expected_code, junit):
    result = subprocess.run([SQUALL, "run", *args, "--report", f"junit={junit}"], capture_output=True, text=True)
    check(result.returncode == expected_code,
          f"squall run {' '.join(args)} exited {result.returncode}, expected {expected_code}\n{result.stdout}{result.stderr}")
    return JUnitXml.fromfile(junit)


def only_suite(xml):
    suites = list(xml)
    check(len(suites) == 1, f"expected one test suite, got {len(suites)}")
    return suites[0]


def system_out(suite):
    # junitparser 2.8 reads a suite's system-out through its element only.
    element = suite._elem.find("system-out")
    return element.text if element is not None else ""


def failing_flagship(tmp):
    suite = only_suite(run([FLAGSHIP, "--policy", NAIVE], 1, os.path.join(tmp, "naive.xml")))
    check(suite.name == "launch-surge-429-storm", f"suite name {suite.name!r}")
    check((suite.tests, suite.failures, suite.errors, suite.skipped) == (5, 1, 0, 0),
          f"counts tests={suite.tests} failures={suite.failures} errors={suite.errors} skipped={suite.skipped}")
    cases = list(suite)
    names = [case.name for case in cases]
    check(names == ["task_success: rate>=0.83", "task_failed: rate<=0.05", "task_latency: p(99)<50s",
                    "retry_amplification: avg<=2.2", "cost_usd: sum<=15"], f"test case names {names}")
    check(all(case.classname == "launch-surge-429-storm" for case in cases), "classname is the scenario")
    failed = {case.name: case.result[0] for case in cases if not case.is_passed}
    check(sorted(failed) == ["task_success: rate>=0.83"], f"failed cases {sorted(failed)}")
    success = failed["task_success: rate>=0.83"]
    check(isinstance(success, Failure), "a failed threshold is a <failure>, not an error")
    check(success.type == "threshold", f"failure type {success.type!r}")
    check(re.fullmatch(r"observed 0\.376071; expected rate>=0\.83", success.message or ""), f"message {success.message!r}")
    repro = f"{SQUALL} run {FLAGSHIP} --seed 7 --policy {NAIVE}"
    check(success.text == f"task_success: rate>=0.83 (observed 0.376071)\nrepro: {repro}", f"failure text {success.text!r}")
    properties = {p.name: p.value for p in suite.properties()}
    check(properties.get("seed") == "7", f"seed property {properties.get('seed')!r}")
    check(properties.get("repro") == repro, f"repro property {properties.get('repro')!r}")
    check(properties.get("policy_file") == NAIVE, f"policy_file property {properties.get('policy_file')!r}")
    check(re.fullmatch(r"[0-9a-f]{16}", properties.get("fingerprint", "")), "fingerprint property")
    out = system_out(suite)
    check("seed: 7" in out and out.endswith(f"repro: {repro}\n"), f"system-out {out!r}")


def hostile_names(tmp):
    # A scenario whose name and path hold XML's markup characters (control characters are
    # refused by the loader; tests/reports/xml_text_test.cpp covers them); the corpus path
    # is made absolute since the copy lives elsewhere.
    with open("scenarios/quickstart.json", encoding="utf-8") as f:
        text = "\n".join(line for line in f.read().splitlines() if not line.lstrip().startswith("//"))
    scenario = json.loads(text)
    scenario["name"] = "a<b>&\"c\" 'd'"
    scenario["providers"]["web_search"]["corpus"] = os.path.abspath("scenarios/corpora/crm.jsonl")
    scenario["thresholds"] = {"provider_calls{provider:web_search}": ["count<1"]}
    path = os.path.join(tmp, "it's <hostile>.json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(scenario, f)
    suite = only_suite(run([path], 1, os.path.join(tmp, "hostile.xml")))
    check(suite.name == "a<b>&\"c\" 'd'", f"hostile suite name {suite.name!r}")
    case = list(suite)[0]
    check(case.name == "provider_calls{provider:web_search}: count<1", f"hostile case {case.name!r}")
    check(case.result[0].message.startswith("observed "), f"hostile message {case.result[0].message!r}")
    check("it'\\''s <hostile>.json" in case.result[0].text, f"quoted path in {case.result[0].text!r}")


def passing_quickstart(tmp):
    suite = only_suite(run(["scenarios/quickstart.json"], 0, os.path.join(tmp, "quickstart.xml")))
    check((suite.tests, suite.failures) == (2, 0), f"quickstart counts {suite.tests} {suite.failures}")
    check(all(case.is_passed for case in suite), "every quickstart case passes")


def many_scenarios(tmp):
    """squall ci: one file, a suite per scenario in input order, an error suite for a bad one."""
    bad = os.path.join(tmp, "bad.json")
    with open(bad, "w") as f:
        f.write('{ "name": 3 }\n')
    junit = os.path.join(tmp, "ci.xml")
    result = subprocess.run([SQUALL, "ci", "scenarios/ci", bad, "scenarios/quickstart.json", "--jobs", "2",
                             "--report", f"junit={junit}"], capture_output=True, text=True)
    check(result.returncode == 2, f"squall ci exited {result.returncode}, expected 2\n{result.stdout}{result.stderr}")
    suites = list(JUnitXml.fromfile(junit))
    names = [s.name for s in suites]
    n = len([f for f in os.listdir("scenarios/ci") if f.endswith(".json")])  # as squall ci counts them
    check(len(suites) == n + 2, f"expected {n + 2} suites, got {names}")
    check(names[0] == "llm-budget-guard" and names[n + 1] == "quickstart", f"suite order {names}")
    broken = suites[n]
    check(broken.name == bad and broken.errors == 1 and broken.tests == 1, f"error suite {broken.name} {broken.errors}")
    case = list(broken)[0]
    check(case.name == "scenario" and not case.is_passed, "the error suite's case is not passed")
    check(all(s.errors == 0 and s.failures == 0 for s in suites[:n] + suites[n + 1:]), "the other suites pass")


def seeded_scenarios(tmp):
    """squall ci --seeds: a suite per scenario, a test case per threshold with its pass rate
    as properties; a threshold below its pass rate is a failure naming the seeds it failed on."""
    junit = os.path.join(tmp, "seeds.xml")
    result = subprocess.run([SQUALL, "ci", FLAGSHIP, "scenarios/quickstart.json", "--policy", NAIVE, "--seeds", "7..9",
                             "--jobs", "2", "--report", f"junit={junit}"], capture_output=True, text=True)
    check(result.returncode == 1, f"squall ci --seeds exited {result.returncode}, expected 1\n{result.stdout}{result.stderr}")
    suites = list(JUnitXml.fromfile(junit))
    check([s.name for s in suites] == ["launch-surge-429-storm", "quickstart"], f"seeded suites {[s.name for s in suites]}")
    flagship = suites[0]
    properties = {p.name: p.value for p in flagship.properties()}
    check(properties.get("seeds") == "7..9", f"seeds property {properties.get('seeds')!r}")
    check(re.fullmatch(r"[0-3]/3", properties.get("seeds_passed", "")), f"seeds_passed {properties.get('seeds_passed')!r}")
    check(properties.get("pass_k", "").startswith("k=1 "), f"pass_k property {properties.get('pass_k')!r}")
    cases = {case.name: case for case in flagship}
    success = cases["task_success: rate>=0.83"]
    check(not success.is_passed, "the naive policy's task success misses its pass rate")
    failure = success.result[0]
    check(isinstance(failure, Failure) and failure.type == "pass_rate", f"failure type {failure.type!r}")
    check(re.fullmatch(r"held on 0/3 seeds \(required on every seed\); failed on seeds 7, 8, 9", failure.message or ""),
          f"failure message {failure.message!r}")
    check(failure.text.endswith(f"repro: {SQUALL} run {FLAGSHIP} --seed 7 --policy {NAIVE}"), f"failure text {failure.text!r}")
    case_properties = {p.get("name"): p.get("value") for p in success._elem.find("properties")}
    check(case_properties == {"pass_rate": "0", "seeds_passed": "0/3", "pass_rate_required": "every seed",
                              "failed_seeds": "7,8,9"}, f"test case properties {case_properties}")
    check(flagship.tests == 5 and flagship.failures == len([c for c in flagship if not c.is_passed]),
          f"seeded counts tests={flagship.tests} failures={flagship.failures}")


def main():
    with tempfile.TemporaryDirectory(prefix="squall_junit_") as tmp:
        failing_flagship(tmp)
        hostile_names(tmp)
        passing_quickstart(tmp)
        many_scenarios(tmp)
        seeded_scenarios(tmp)
    print("junit_consumer_test: ok")


if __name__ == "__main__":
    main()
