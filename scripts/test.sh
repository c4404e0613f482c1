#!/usr/bin/env bash
# The README's second command: install what is missing, build the release preset and run
# the whole test suite under ctest. CI's .ci/run calls this.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cmake --preset release >/dev/null
cmake --build --preset release -j"$(nproc)"
ctest --preset release -j"$(nproc)"
