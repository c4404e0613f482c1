"""What the package tests (ctest label `package`) share: checks, the .deb that package_deb
builds, and a clean Debian 12 root to install it into.

The root is made once by `debootstrap --variant=minbase bookworm` (Debian's debootstrap,
which scripts/setup.sh installs) from the mirror the machine's apt uses, with its package
lists fetched, and kept as BUILD/package-test/root; each test works on a copy of it
(BUILD/package-test/NAME), so the cached root stays clean and a re-run costs a copy.
Packages apt downloads into a copy are kept in BUILD/package-test/apt-archives and put back
into the next copy, so a re-run fetches nothing. Delete BUILD/package-test to start over.
Entering the root mounts /proc in it (debootstrap makes /dev's nodes), unmounted on the way
out; mounts left by a killed run are unmounted before a copy is deleted (never through a
mount: `rm --one-file-system`).
"""
import contextlib
import fcntl
import glob
import os
import re
import shutil
import subprocess
import sys

SKIP = 77  # ctest SKIP_RETURN_CODE of the tests that need root
CHROOT_ENV = {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "HOME": "/root",
              "LANG": "C.UTF-8", "DEBIAN_FRONTEND": "noninteractive"}


def arguments(doc, count):
    """The test's COUNT command-line arguments; its usage (DOC) when they are not that many."""
    if len(sys.argv) != count + 1:
        sys.exit(doc)
    return sys.argv[1:]


def check(name, condition, message):
    if not condition:
        sys.exit(f"{name}: {message}")


def run(args, **kwargs):
    """Runs ARGS, returns the CompletedProcess (text, stdout and stderr captured)."""
    return subprocess.run(args, capture_output=True, text=True, **kwargs)


def must(name, args, **kwargs):
    result = run(args, **kwargs)
    check(name, result.returncode == 0,
          f"{' '.join(map(str, args))} exited {result.returncode}\n{result.stdout}{result.stderr}")
    return result


def require_root(name):
    if os.geteuid() != 0:
        print(f"{name}: skipped: installing a package into a chroot needs root")
        sys.exit(SKIP)


def test_dir(build):
    path = os.path.join(build, "package-test")
    os.makedirs(path, exist_ok=True)
    return path


def built_deb(name, build):
    """The .deb package_deb built (it is this test's fixture)."""
    debs = glob.glob(os.path.join(test_dir(build), "deb", "squall_*.deb"))
    check(name, len(debs) == 1, f"expected one .deb from package_deb in {test_dir(build)}/deb, found {debs}")
    return debs[0]


def debian_mirror():
    """The Debian mirror of this machine's apt sources (deb822 or one-line), else deb.debian.org."""
    if os.environ.get("SQUALL_DEBIAN_MIRROR"):
        return os.environ["SQUALL_DEBIAN_MIRROR"]
    files = glob.glob("/etc/apt/sources.list.d/*.sources") + glob.glob("/etc/apt/sources.list*")
    for path in sorted(f for f in files if os.path.isfile(f)):
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
        for uri in re.findall(r"^\s*URIs:\s*(\S+)", text, re.M) + re.findall(r"^\s*deb\s+(?:\[[^]]*\]\s+)?(\S+)", text, re.M):
            if uri.rstrip("/").endswith("/debian"):
                return uri
    return "http://deb.debian.org/debian"


def mounts_under(path):
    prefix = os.path.realpath(path) + "/"
    points = []
    with open("/proc/self/mounts", encoding="utf-8") as f:
        for line in f:
            point = line.split()[1].encode().decode("unicode_escape")
            if point.startswith(prefix):
                points.append(point)
    return sorted(points, key=len, reverse=True)


def unmount_under(name, path):
    for point in mounts_under(path):
        if run(["umount", point]).returncode != 0:
            run(["umount", "-l", point])
    check(name, not mounts_under(path), f"cannot unmount {mounts_under(path)}")


def remove_tree(name, path):
    if os.path.lexists(path):
        unmount_under(name, path)
        must(name, ["rm", "-rf", "--one-file-system", path])


@contextlib.contextmanager
def entered(name, root):
    """/proc mounted in ROOT (debootstrap made its /dev), the host's resolv.conf copied in, for the block."""
    try:
        must(name, ["mount", "-t", "proc", "proc", os.path.join(root, "proc")])
        shutil.copyfile("/etc/resolv.conf", os.path.join(root, "etc/resolv.conf"))
        yield root
    finally:
        unmount_under(name, root)


def in_root(root, command, user=None, cwd="/", env=None):
    """Runs the shell COMMAND in ROOT (as USER when given) with a clean environment and ENV."""
    spec = [f"--userspec={user}"] if user else []
    env = dict(CHROOT_ENV, **(env or {}), **({"HOME": "/tmp"} if user else {}))
    return run(["chroot", *spec, root, "/usr/bin/env", "-i", *[f"{k}={v}" for k, v in env.items()],
                "/bin/sh", "-c", f"cd {cwd} && {command}"])


def cached_root(name, build):
    """The clean Debian 12 root (made on first use, under a lock)."""
    base = test_dir(build)
    root = os.path.join(base, "root")
    with open(os.path.join(base, "root.lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if os.path.exists(os.path.join(root, ".squall-root-ready")):
            return root
        fresh = os.path.join(base, "root.new")
        remove_tree(name, fresh)
        mirror = debian_mirror()
        print(f"{name}: debootstrap --variant=minbase bookworm from {mirror} into {root}", flush=True)
        must(name, ["debootstrap", "--variant=minbase", "bookworm", fresh, mirror])
        with entered(name, fresh):
            result = in_root(fresh, "apt-get clean && apt-get update -q")
            check(name, result.returncode == 0, f"apt-get update in the new root failed\n{result.stdout}{result.stderr}")
        open(os.path.join(fresh, ".squall-root-ready"), "w").close()
        remove_tree(name, root)
        os.rename(fresh, root)
        return root


def working_root(name, build):
    """A fresh copy of the clean root, BUILD/package-test/NAME, with the kept downloads."""
    root = cached_root(name, build)
    work = os.path.join(test_dir(build), name)
    remove_tree(name, work)
    must(name, ["cp", "-a", "--one-file-system", root, work])
    for deb in glob.glob(os.path.join(test_dir(build), "apt-archives", "*.deb")):
        shutil.copy2(deb, os.path.join(work, "var/cache/apt/archives"))
    return work


def keep_downloads(build, work):
    kept = os.path.join(test_dir(build), "apt-archives")
    os.makedirs(kept, exist_ok=True)
    for deb in glob.glob(os.path.join(work, "var/cache/apt/archives", "*.deb")):
        shutil.copy2(deb, kept)


def install_command(deb_in_root):
    return f"apt-get install -y -q --no-install-recommends ./{os.path.basename(deb_in_root)}"
