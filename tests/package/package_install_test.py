#!/usr/bin/env python3
"""The Debian package on a fresh Debian 12: installs the .deb package_deb built into a copy of
a clean `debootstrap --variant=minbase bookworm` root with `apt-get install ./squall_*.deb`
(apt resolves its Depends from the mirror), then, as user nobody, runs `squall --version`
and the README's quickstart on the shipped scenario, whose report must be the bytes the
build's own squall writes for the checkout's copy (same scenario, seed and program).

Usage: package_install_test.py BUILD_DIR VERSION SQUALL_BINARY   (from the source directory)
Needs root (chroot, mount): exits 77, which ctest reports as skipped, when not root.
"""
import os
import shutil
import tempfile

import package_support as ps

NAME = "package_install"
BUILD, VERSION, SQUALL = ps.arguments(__doc__, 3)
QUICKSTART = "/usr/share/squall/scenarios/quickstart.json"


def install(root, deb):
    shutil.copyfile(deb, os.path.join(root, "tmp", os.path.basename(deb)))
    result = ps.in_root(root, ps.install_command(deb), cwd="/tmp")
    ps.check(NAME, result.returncode == 0, f"apt-get install failed\n{result.stdout}{result.stderr}")
    status = ps.in_root(root, "dpkg-query -W -f '${Status} ${Version}' squall").stdout
    ps.check(NAME, status == f"install ok installed {VERSION}", f"dpkg-query squall: {status!r}")
    depends = ps.must(NAME, ["dpkg-deb", "-f", deb, "Depends"]).stdout.strip()
    for dependency in depends.split(","):
        package = dependency.split()[0]
        state = ps.in_root(root, f"dpkg-query -W -f '${{Status}}' {package}").stdout
        ps.check(NAME, state == "install ok installed", f"dependency {package} not installed by apt: {state!r}")


def expected_quickstart():
    """stdout and the JSON report of the build's squall on the checkout's quickstart, run as
    in the root (from a scratch directory, --out quickstart.json), with the checkout's path of
    the scenario written as the installed one."""
    scenario = os.path.abspath("scenarios/quickstart.json")
    with tempfile.TemporaryDirectory() as tmp:
        # Invoked as `squall`, as in the root, since the program's name goes into repro lines.
        result = ps.run(["squall", "run", scenario, "--out", "quickstart.json"], executable=SQUALL, cwd=tmp)
        ps.check(NAME, result.returncode == 0, f"squall run {scenario} exited {result.returncode}")
        with open(os.path.join(tmp, "quickstart.json"), encoding="utf-8") as f:
            return result.stdout.replace(scenario, QUICKSTART), f.read().replace(scenario, QUICKSTART)


def run_as_nobody(root):
    version = ps.in_root(root, "squall --version", user="nobody:nogroup")
    ps.check(NAME, (version.returncode, version.stdout) == (0, f"squall {VERSION}\n"),
             f"squall --version as nobody: exit {version.returncode}, {version.stdout!r}{version.stderr}")
    quickstart = ps.in_root(root, f"squall run {QUICKSTART} --out quickstart.json", user="nobody:nogroup", cwd="/tmp")
    ps.check(NAME, quickstart.returncode == 0,
             f"squall run {QUICKSTART} as nobody exited {quickstart.returncode}\n{quickstart.stdout}{quickstart.stderr}")
    stdout, report = expected_quickstart()
    ps.check(NAME, "\n  ✓ task_success " in stdout and "\n  ✓ task_latency " in stdout, f"quickstart did not pass\n{stdout}")
    ps.check(NAME, quickstart.stdout == stdout, f"quickstart output differs\ninstalled:\n{quickstart.stdout}\nbuild:\n{stdout}")
    with open(os.path.join(root, "tmp/quickstart.json"), encoding="utf-8") as f:
        installed_report = f.read()
    ps.check(NAME, installed_report == report,
             "the installed squall's quickstart report differs from the build's")
    return quickstart.stdout


def main():
    ps.require_root(NAME)
    deb = ps.built_deb(NAME, BUILD)
    root = ps.working_root(NAME, BUILD)
    with ps.entered(NAME, root):
        install(root, deb)
        ps.keep_downloads(BUILD, root)
        output = run_as_nobody(root)
    print(output, end="")
    print(f"{NAME}: ok: {os.path.basename(deb)} installed by apt into a clean Debian 12 root, ran as nobody")


main()
