#!/usr/bin/env python3
"""The commands that run on several threads, as processes: what the tsan preset runs
under ThreadSanitizer (and the release and debug presets too, where the same checks hold).

Usage: parallel_commands_test.py SQUALL_BINARY COMMAND
COMMAND is one of sweep, ci, seeds, serve:
  sweep  `squall sweep --jobs 4` on a sweep of 4 variants x 6 seeds: exit 0, and the same
         JSON report bytes as with --jobs 1 (DESIGN section 3: a sweep's result is
         identical for any --jobs);
  ci     `squall ci --jobs 4` on four CI scenarios: exit 0 and the same JUnit file as --jobs 1;
  seeds  `squall run --seeds 6 --jobs 4`: exit 0 and the same report and output as --jobs 1;
  serve  `squall serve` answering 8 clients at once (16 chat completions each, half of them
         streamed, on their own connections and threads), then stopped by POST
         /squall/v1/stop: every answer a 200, the failed threshold counting 128 calls, and exit 1
         (the scenario's threshold holds for at most 5 calls).
A ThreadSanitizer report makes the process exit 66 (TSAN_OPTIONS below; a sanitizer's
report on stderr fails the check in any build), so a data race fails the command's check.
"""
import http.client
import json
import os
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SQUALL = sys.argv[1]
ENV = dict(os.environ)
ENV.setdefault("TSAN_OPTIONS", "halt_on_error=1 exitcode=66 second_deadlock_stack=1")
TIMEOUT_S = 600  # under ThreadSanitizer the runs take 5 to 15 times longer


def squall(*args):
    done = subprocess.run([SQUALL, *args], cwd=ROOT, env=ENV, capture_output=True, text=True, timeout=TIMEOUT_S)
    for marker in ("ThreadSanitizer", "AddressSanitizer", "runtime error:"):
        assert marker not in done.stderr, f"squall {' '.join(args)}: {marker} report:\n{done.stderr[-6000:]}"
    return done


def expect_exit(done, code, what):
    assert done.returncode == code, f"{what}: exit {done.returncode}, expected {code}\n{done.stderr[-4000:]}"


def same_for_any_jobs(make_args, output_name, what):
    with tempfile.TemporaryDirectory() as tmp:
        outputs = []
        for jobs in ("1", "4"):
            out = Path(tmp, f"{jobs}-{output_name}")
            done = squall(*make_args(str(out)), "--jobs", jobs)
            expect_exit(done, 0, f"{what} --jobs {jobs}")
            outputs.append(out.read_bytes())
        assert outputs[0] == outputs[1], f"{what}: --jobs 1 and --jobs 4 wrote different {output_name}"


def test_sweep():
    same_for_any_jobs(lambda out: ["sweep", "tests/cli/data/sweep-quickstart.json", "-q", "--out", out],
                      "sweep.json", "squall sweep")


def test_ci():
    scenarios = ["scenarios/ci/search-outage-breaker.json", "scenarios/ci/llm-budget-guard.json",
                 "scenarios/ci/slow-provider-bulkhead.json", "scenarios/quickstart.json"]
    same_for_any_jobs(lambda out: ["ci", *scenarios, "-q", "--report", f"junit={out}"], "junit.xml", "squall ci")


def test_seeds():
    same_for_any_jobs(lambda out: ["run", "scenarios/quickstart.json", "-q", "--seeds", "6", "--out", out],
                      "report.json", "squall run --seeds")


def post(port, path, body):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        connection.request("POST", path, body=json.dumps(body), headers={"Content-Type": "application/json"})
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


def test_serve():
    scenario = str(ROOT / "tests/live/scenarios/clean.json")
    server = subprocess.Popen([SQUALL, "serve", scenario, "--listen", "127.0.0.1:0", "-q"],
                              cwd=ROOT, env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        base_url = server.stdout.readline().strip()
        assert base_url.startswith("http://127.0.0.1:"), f"squall serve printed {base_url!r} first"
        port = int(base_url.split(":")[2].split("/")[0])
        statuses, lock = [], threading.Lock()
        chat = {"model": "gpt-4o-mini", "messages": [{"role": "user", "content": "Hello there"}]}

        def client(index):
            for i in range(16):
                request = dict(chat, stream=(i % 2 == 1))
                status, _ = post(port, "/v1/chat/completions", request)
                with lock:
                    statuses.append(status)

        threads = [threading.Thread(target=client, args=(i,)) for i in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=TIMEOUT_S)
        assert statuses == [200] * 128, f"squall serve answered {sorted(set(statuses))} to 128 requests"
        status, _ = post(port, "/squall/v1/stop", {})
        assert status == 200, f"POST /squall/v1/stop answered {status}"
        stdout, stderr = server.communicate(timeout=TIMEOUT_S)
        assert "ThreadSanitizer" not in stderr and "AddressSanitizer" not in stderr, stderr[-6000:]
        assert server.returncode == 1, f"squall serve exited {server.returncode}, expected 1\n{stderr[-4000:]}"
        counted = "threshold failed: provider_calls{provider:llm}: count<=5 (observed 128)"
        assert counted in stdout, f"squall serve printed:\n{stdout[-4000:]}"
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()


if __name__ == "__main__":
    {"sweep": test_sweep, "ci": test_ci, "seeds": test_seeds, "serve": test_serve}[sys.argv[2]]()
    print(f"{sys.argv[2]}: ok")
