#!/usr/bin/env python3
"""The composite GitHub Action (action.yml at the checkout's root), run as a runner would:
parses it with PyYAML (Debian's python3-yaml, which scripts/setup.sh installs), substitutes
`${{ inputs.NAME }}` with the inputs given (or their defaults) and runs each step's `run:`
with its `env:` as `bash --noprofile --norc -eo pipefail` (GitHub's `shell: bash`), as root in
a copy of the clean Debian 12 root (package_support.py) where a team's repository is the
workspace. The .deb is the one package_deb built. Checks the action installs squall, gates
on the thresholds (exit 0 with the team's policy, 1 with a policy that fails them), writes
the JUnit report with one suite per scenario and one test case per threshold, and appends
the summary to $GITHUB_STEP_SUMMARY; stdout and JUnit are the bytes the build's squall
writes for the same command.

Usage: package_action_test.py BUILD_DIR VERSION SQUALL_BINARY   (from the source directory)
Needs root (chroot, mount): exits 77, which ctest reports as skipped, when not root.
"""
import os
import re
import shutil
import subprocess
import tempfile
import xml.etree.ElementTree as ET

import yaml

import package_support as ps

NAME = "package_action"
BUILD, VERSION, SQUALL = ps.arguments(__doc__, 3)
WORKSPACE = "/github/workspace"
SCENARIOS = ["scenarios/quickstart.json", "scenarios/ci/llm-budget-guard.json"]
PROD_POLICY = """# The team's production policy: one file for every scenario.
web_search:
  - timeout: { per_attempt: 2s, total: 10s }
  - simplify_query: {}
  - retry: { max_attempts: 3, backoff: exponential, base_delay: 200ms }
llm:
  - timeout: { per_attempt: 15s }
  - retry: { max_attempts: 3, backoff: exponential, base_delay: 500ms }
"""
EXPRESSION = re.compile(r"\$\{\{\s*inputs\.([A-Za-z0-9_-]+)\s*\}\}")


def team_repository(top):
    """A team's own repository at TOP: scenarios/ with its corpora, policies/prod.yaml."""
    os.makedirs(os.path.join(top, "scenarios/corpora"))
    os.makedirs(os.path.join(top, "policies"))
    for scenario in SCENARIOS:
        with open(scenario, encoding="utf-8") as f:
            text = f.read().replace('"../corpora/', '"corpora/')
        with open(os.path.join(top, "scenarios", os.path.basename(scenario)), "w", encoding="utf-8") as f:
            f.write(text)
    shutil.copy("scenarios/corpora/crm.jsonl", os.path.join(top, "scenarios/corpora"))
    with open(os.path.join(top, "policies/prod.yaml"), "w", encoding="utf-8") as f:
        f.write(PROD_POLICY)
    shutil.copy("scenarios/policies/naive-retry.json", os.path.join(top, "policies/naive.json"))


def substituted(text, inputs):
    text = EXPRESSION.sub(lambda m: inputs[m.group(1)], str(text))
    ps.check(NAME, "${{" not in text, f"action.yml: an expression this test cannot evaluate: {text!r}")
    return text


def action_steps(given):
    """The composite action's steps as (name, env, script), with GIVEN inputs substituted."""
    with open("action.yml", encoding="utf-8") as f:
        action = yaml.safe_load(f)
    ps.check(NAME, action["runs"]["using"] == "composite", f"runs.using: {action['runs']['using']!r}")
    declared = action["inputs"]
    ps.check(NAME, set(given) <= set(declared), f"inputs {sorted(set(given) - set(declared))} not declared")
    inputs = {name: str(given.get(name, spec.get("default", ""))) for name, spec in declared.items()}
    steps = []
    for step in action["runs"]["steps"]:
        ps.check(NAME, step.get("shell") == "bash" and "run" in step and "uses" not in step,
                 f"step {step.get('name')!r}: expected `shell: bash` and `run:`")
        env = {key: substituted(value, inputs) for key, value in step.get("env", {}).items()}
        steps.append((step["name"], env, substituted(step["run"], inputs)))
    return steps


def run_action(root, given):
    """Runs the action's steps in ROOT; returns the last step's result and the summary."""
    summary = os.path.join(root, "tmp/step-summary.md")
    open(summary, "w").close()
    runner = {"CI": "true", "GITHUB_ACTIONS": "true", "GITHUB_WORKSPACE": WORKSPACE, "RUNNER_TEMP": "/tmp",
              "GITHUB_STEP_SUMMARY": "/tmp/step-summary.md", "GITHUB_ACTION_REPOSITORY": "squall/squall"}
    for index, (name, env, script) in enumerate(action_steps(given)):
        with open(os.path.join(root, f"tmp/step-{index}.sh"), "w", encoding="utf-8") as f:
            f.write(script)
        result = ps.in_root(root, f"bash --noprofile --norc -eo pipefail /tmp/step-{index}.sh",
                            cwd=WORKSPACE, env=dict(runner, **env))
        if index == 0:
            ps.check(NAME, result.returncode == 0 and result.stdout.endswith(f"squall {VERSION}\n"),
                     f"step {name!r} exited {result.returncode}\n{result.stdout}{result.stderr}")
    with open(summary, encoding="utf-8") as f:
        return result, f.read()


def expected(args):
    """Exit code, stdout, JUnit and step summary of the build's squall for `squall ci ARGS` in a
    team repository, with its step summary's path written as the root's."""
    with tempfile.TemporaryDirectory() as top:
        team_repository(top)
        os.makedirs(os.path.join(top, "squall-reports"))
        summary = os.path.join(top, "step-summary.md")
        # Invoked as `squall`, as the action does, since the program's name goes into repro lines.
        result = subprocess.run(["squall", "ci", *args, "--report", "junit=squall-reports/junit.xml",
                                 "--report", "markdown=squall-reports/summary.md"],
                                executable=os.path.abspath(SQUALL), cwd=top, capture_output=True, text=True,
                                env=dict(os.environ, GITHUB_STEP_SUMMARY=summary))
        with open(os.path.join(top, "squall-reports/junit.xml"), encoding="utf-8") as f:
            junit = f.read()
        with open(summary, encoding="utf-8") as f:
            return result.returncode, result.stdout.replace(summary, "/tmp/step-summary.md"), junit, f.read()


def gate(root, policy, code, failures):
    given = {"deb": "squall.deb", "scenarios": "scenarios/", "policy": policy, "seeds": "5",
             "junit": "squall-reports/junit.xml", "markdown": "squall-reports/summary.md"}
    result, summary = run_action(root, given)
    args = ["scenarios/", "--policy", policy, "--seeds", "5"]
    host_code, host_stdout, host_junit, host_summary = expected(args)
    command = f"squall ci {' '.join(args)} --report junit=squall-reports/junit.xml --report markdown=squall-reports/summary.md"
    ps.check(NAME, result.returncode == code == host_code,
             f"{policy}: the action exited {result.returncode}, the build's squall {host_code}, expected {code}\n"
             f"{result.stdout}{result.stderr}")
    ps.check(NAME, result.stdout == f"{command}\n{host_stdout}", f"{policy}: stdout\n{result.stdout}\nexpected\n{host_stdout}")
    with open(os.path.join(root, WORKSPACE[1:], "squall-reports/junit.xml"), encoding="utf-8") as f:
        junit = f.read()
    ps.check(NAME, junit == host_junit, f"{policy}: the JUnit report differs from the build's squall's")
    suites = ET.fromstring(junit)
    counts = (len(suites.findall("testsuite")), suites.get("tests"), suites.get("failures"), suites.get("errors"))
    ps.check(NAME, counts == (2, "6", failures, "0"), f"{policy}: suites, tests, failures, errors {counts}")
    heading = f"## {'✓' if code == 0 else '✗'} squall ci: 2 scenarios"
    ps.check(NAME, summary.startswith(heading) and summary == host_summary,
             f"{policy}: $GITHUB_STEP_SUMMARY starts {summary[:80]!r}, expected {heading!r} and the build's summary")
    ps.check(NAME, os.path.isfile(os.path.join(root, WORKSPACE[1:], "squall-reports/summary.md")), "no summary.md")
    return result.stdout


def main():
    ps.require_root(NAME)
    deb = ps.built_deb(NAME, BUILD)
    root = ps.working_root(NAME, BUILD)
    workspace = os.path.join(root, WORKSPACE[1:])
    team_repository(workspace)
    shutil.copyfile(deb, os.path.join(workspace, "squall.deb"))
    with ps.entered(NAME, root):
        before = ps.in_root(root, "command -v squall")
        ps.check(NAME, before.returncode != 0, f"squall is already in the clean root: {before.stdout}")
        passing = gate(root, "policies/prod.yaml", 0, "0")
        gate(root, "policies/naive.json", 1, "1")
        ps.keep_downloads(BUILD, root)
    print(passing, end="")
    print(f"{NAME}: ok: action.yml installed squall and gated on the thresholds (exit 0 and 1)")


main()
