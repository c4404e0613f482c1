#!/usr/bin/env bash
# Installs squall's build dependencies from Debian 12's packages. Idempotent: packages
# that are already installed are skipped, and nothing is done when all are present.
# Runs apt-get directly as root and through sudo otherwise.
# Then builds the scale corpus from the machine's package index (build-debian-corpus.sh)
# unless it exists; without a package index it only warns: the scale scenario and the
# vector-search benchmark need it, nothing else does.
set -euo pipefail
cd "$(dirname "$0")/.."

sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then
  sudo_cmd=(sudo)
fi

scale_corpus() {
  if [ -f build/corpora/debian.jsonl ]; then
    echo "setup: build/corpora/debian.jsonl exists"
    return
  fi
  if scripts/build-debian-corpus.sh; then return; fi
  # A machine whose package lists were never fetched (a slim container image) has an
  # empty index: fetch it once and try again.
  echo "setup: fetching the package index for the scale corpus"
  if "${sudo_cmd[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q && scripts/build-debian-corpus.sh; then
    return
  fi
  echo "setup: warning: no scale corpus (scenarios/scale/ and the vector-search benchmark need it)" >&2
}

packages=(
  build-essential cmake
  nlohmann-json3-dev libfmt-dev libcli11-dev libboost-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  python3-junitparser
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

echo "setup: installing ${missing[*]}"
"${sudo_cmd[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q
"${sudo_cmd[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
scale_corpus
