#!/usr/bin/env bash
# The README's first command: install what is missing, build the release preset, and run
# the flagship incident scenario. Its exit code is squall's (0 when thresholds hold).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cmake --preset release >/dev/null
# The command alone: the tests and benchmarks, half the objects, are test.sh's to build.
cmake --build --preset release -j"$(nproc)" --target squall
exec build/release/squall run scenarios/incidents/launch-surge-429-storm.json "$@"
