#!/usr/bin/env bash
# The README's second command and CI's (.ci/run calls it): install what is missing, check
# the formatting (scripts/format.sh --check), build the release preset and run the whole
# test suite under ctest, then every CI and incident scenario at once with `squall ci`
# (its JUnit file and Markdown summary go to build/release/ci/); then build the debug
# preset (clang, AddressSanitizer and UndefinedBehaviorSanitizer, build/debug: the tests and
# the libFuzzer harnesses from the same instrumented libraries, one build instead of two),
# run each fuzz harness for 10 seconds (docs/fuzzing.md) and the suite again under the
# sanitizers, where a leak, an out-of-bounds access or undefined behaviour fails the test
# that caused it (all but the source-text checks, the third-party consumers of squall's
# files and the Debian package's tests, labels `source`, `consumer` and `package`, which no
# sanitizer changes; the debug build preset does not build tests_source); and last the
# parallel commands under ThreadSanitizer (the tsan preset). The browser is installed too (setup's --with-browser), so CI
# opens the HTML report in headless Chromium. scenarios/policies/ holds policies meant to
# fail the incidents: not run here.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --with-browser
if ! scripts/format.sh --check; then
  echo "test: the files above differ from clang-format's style: run scripts/format.sh" >&2
  exit 1
fi
cmake --preset release >/dev/null
cmake --build --preset release -j"$(nproc)"
ctest --preset release -j"$(nproc)"
mkdir -p build/release/ci
build/release/squall ci scenarios/ci scenarios/incidents \
  --report junit=build/release/ci/junit.xml --report markdown=build/release/ci/summary.md
cmake --preset debug >/dev/null
cmake --build --preset debug -j"$(nproc)"
# Every libFuzzer harness of fuzz/ for a short smoke (docs/fuzzing.md; the long run, with
# the -O1 `fuzz` preset, is documented there).
FUZZ_PRESET=debug scripts/fuzz.sh "${SQUALL_FUZZ_SMOKE_S:-10}"
ctest --preset debug -j"$(nproc)"
# The commands that run on several threads (sweep --jobs, ci --jobs, run --seeds --jobs,
# serve) under ThreadSanitizer: the tsan preset builds the squall program only (clang,
# -O1 -gline-tables-only) and runs the tests labelled `parallel` (docs/fuzzing.md).
cmake --preset tsan >/dev/null
cmake --build --preset tsan -j"$(nproc)"
ctest --preset tsan -j"$(nproc)"
