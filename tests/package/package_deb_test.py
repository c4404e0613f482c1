#!/usr/bin/env python3
"""`cmake --install` and the Debian package (cmake/packaging.cmake): installs the build into
a temporary prefix and checks the file list; runs CPack into BUILD/package-test/deb (the
fixture of package_install and package_action) and checks the package's control fields with
`dpkg-deb -f` and its files with `dpkg-deb -c`.

Usage: package_deb_test.py BUILD_DIR VERSION CPACK   (run from the source directory; ctest does)
Exits non-zero with a message on the first check that fails.
"""
import glob
import os
import re
import tempfile

from package_support import arguments, check, must, remove_tree, test_dir

NAME = "package_deb"
BUILD, VERSION, CPACK = arguments(__doc__, 3)
# What dpkg-shlibdeps finds in the binary: the C and C++ runtimes, fmt and yaml-cpp.
EXPECTED_DEPENDS = ["libc6", "libfmt9", "libgcc-s1", "libstdc++6", "libyaml-cpp0.7"]


def tree(top):
    """Every regular file under TOP, relative to it."""
    files = set()
    for folder, _, names in os.walk(top):
        for name in names:
            files.add(os.path.relpath(os.path.join(folder, name), top))
    return files


def expected_files(prefix):
    """The files the install rules name, from the checkout, under PREFIX (relative)."""
    files = {f"{prefix}bin/squall", f"{prefix}share/doc/squall/README.md"}
    files |= {f"{prefix}share/squall/schema/{f}" for f in tree("scenarios/schema")}
    files |= {f"{prefix}share/squall/scenarios/{f}" for f in tree("scenarios")
              if not f.startswith(("schema/", "scale/"))}
    files |= {f"{prefix}share/doc/squall/{f}" for f in tree("docs")}
    return files


def cmake_install():
    with tempfile.TemporaryDirectory() as prefix:
        must(NAME, ["cmake", "--install", BUILD, "--prefix", prefix])
        installed = tree(prefix)
        expected = expected_files("")
        check(NAME, installed == expected, f"cmake --install: missing {sorted(expected - installed)}, "
              f"unexpected {sorted(installed - expected)}")
        check(NAME, os.access(os.path.join(prefix, "bin/squall"), os.X_OK), "bin/squall is not executable")
        version = must(NAME, [os.path.join(prefix, "bin/squall"), "--version"]).stdout
        check(NAME, version == f"squall {VERSION}\n", f"installed squall --version printed {version!r}")


def build_deb():
    out = os.path.join(test_dir(BUILD), "deb")
    remove_tree(NAME, out)
    must(NAME, [CPACK, "--config", os.path.join(BUILD, "CPackConfig.cmake"), "-B", out])
    arch = must(NAME, ["dpkg", "--print-architecture"]).stdout.strip()
    deb = os.path.join(out, f"squall_{VERSION}_{arch}.deb")
    debs = glob.glob(os.path.join(out, "*.deb"))
    check(NAME, debs == [deb], f"cpack made {debs}, expected [{deb}]")
    return deb, arch


def control_fields(deb, arch):
    def field(key):
        return must(NAME, ["dpkg-deb", "-f", deb, key]).stdout.strip()

    check(NAME, field("Package") == "squall", f"Package: {field('Package')!r}")
    check(NAME, field("Version") == VERSION, f"Version: {field('Version')!r}, expected {VERSION}")
    check(NAME, field("Architecture") == arch, f"Architecture: {field('Architecture')!r}, expected {arch}")
    check(NAME, field("Section") == "devel", f"Section: {field('Section')!r}")
    depends = field("Depends")
    names = sorted(re.match(r"\s*([^\s(]+)", d).group(1) for d in depends.split(","))
    check(NAME, names == EXPECTED_DEPENDS, f"Depends: {depends!r}, expected the packages {EXPECTED_DEPENDS}")
    check(NAME, all("(>=" in d for d in depends.split(",")), f"Depends without versions: {depends!r}")
    description = must(NAME, ["dpkg-deb", "-f", deb, "Description"]).stdout
    check(NAME, description.startswith("deterministic chaos-testing harness"), f"Description: {description!r}")


def file_list(deb):
    listing = must(NAME, ["dpkg-deb", "-c", deb]).stdout.splitlines()
    files = {line.split()[-1].removeprefix("./") for line in listing if line.startswith("-")}
    expected = expected_files("usr/")
    check(NAME, files == expected, f"dpkg-deb -c: missing {sorted(expected - files)}, unexpected {sorted(files - expected)}")
    squall = [line for line in listing if line.endswith("./usr/bin/squall")]
    check(NAME, squall and squall[0].startswith("-rwxr-xr-x root/root"), f"usr/bin/squall: {squall}")


def main():
    cmake_install()
    deb, arch = build_deb()
    control_fields(deb, arch)
    file_list(deb)
    size = os.path.getsize(deb)
    print(f"{NAME}: ok: {deb} ({size // 1024} KiB)")


main()
