#!/usr/bin/env bash
# The README's second command: install what is missing, build the release preset and run
# the whole test suite under ctest. CI's .ci/run calls this. The browser is installed too
# (setup's --with-browser), so CI opens the HTML report in headless Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --with-browser
cmake --preset release >/dev/null
cmake --build --preset release -j"$(nproc)"
ctest --preset release -j"$(nproc)"
