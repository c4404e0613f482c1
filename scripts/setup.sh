#!/usr/bin/env bash
# Installs squall's build dependencies from Debian 12's packages. Idempotent: packages
# that are already installed are skipped, and nothing is done when all are present.
# Runs apt-get directly as root and through sudo otherwise.
# Then builds the scale corpus from the machine's package index (build-debian-corpus.sh)
# unless it exists; without a package index it only warns: the scale scenario and the
# vector-search benchmark need it, nothing else does.
set -euo pipefail
cd "$(dirname "$0")/.."

scale_corpus() {
  if [ -f build/corpora/debian.jsonl ]; then
    echo "setup: build/corpora/debian.jsonl exists"
  elif ! scripts/build-debian-corpus.sh; then
    echo "setup: warning: no scale corpus (scenarios/scale/ and the vector-search benchmark need it)" >&2
  fi
}

packages=(
  build-essential cmake
  nlohmann-json3-dev libfmt-dev libcli11-dev libboost-dev
  libgtest-dev libgmock-dev libbenchmark-dev
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all build dependencies are installed"
  scale_corpus
  exit 0
fi

sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then
  sudo_cmd=(sudo)
fi

echo "setup: installing ${missing[*]}"
"${sudo_cmd[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q
"${sudo_cmd[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
scale_corpus
