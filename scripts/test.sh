#!/usr/bin/env bash
# The README's second command: install what is missing, build the release preset, run
# the whole test suite under ctest, then every CI and incident scenario at once with
# `squall ci` (its JUnit file and Markdown summary go to build/release/ci/). CI's .ci/run
# calls this. The browser is installed too (setup's --with-browser), so CI
# opens the HTML report in headless Chromium. scenarios/policies/ holds policies meant to fail the incidents: not run here.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --with-browser
cmake --preset release >/dev/null
cmake --build --preset release -j"$(nproc)"
ctest --preset release -j"$(nproc)"
mkdir -p build/release/ci
build/release/squall ci scenarios/ci scenarios/incidents \
  --report junit=build/release/ci/junit.xml --report markdown=build/release/ci/summary.md
