#!/usr/bin/env bash
# Formats every C++ file of the project with clang-format and the repository's
# .clang-format (Google's style at 120 columns). With --check, changes nothing and exits 1
# listing the files that differ. clang-format 14 is Debian 12's (package clang-format).
set -euo pipefail
cd "$(dirname "$0")/.."
command -v clang-format >/dev/null || { echo "format: clang-format not found (apt-get install clang-format)" >&2; exit 2; }
mapfile -t files < <(git ls-files '*.cpp' '*.hpp')
if [[ "${1:-}" == "--check" ]]; then
  differ=0
  for f in "${files[@]}"; do
    if ! clang-format "$f" | cmp -s - "$f"; then echo "$f"; differ=1; fi
  done
  exit "$differ"
fi
clang-format -i "${files[@]}"
