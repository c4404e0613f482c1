#!/usr/bin/env bash
# Installs squall's build dependencies from Debian 12's packages. Idempotent: packages
# that are already installed are skipped, and nothing is done when all are present.
# Runs apt-get directly as root and through sudo otherwise.
# Node.js and npm (Debian's nodejs and npm, unless an npm is already on the PATH) install
# the HTML report's chart library, uPlot, at the version pinned in third_party/uplot
# (`npm ci`, from package-lock.json), which the build embeds (cmake/html_assets.cmake), and
# the official OpenAI Node client the live-mode tests drive, pinned in tests/live/client.
# Options:
#   --with-browser   also Debian's chromium-headless-shell, with which a test opens the
#                    HTML report (tests/cli/html_browser_test.py); SQUALL_WITH_BROWSER=1
#                    does the same. scripts/test.sh, and so CI, passes it; the quickstart
#                    does not, to stay light.
# Then builds the scale corpus from the machine's package index (build-debian-corpus.sh)
# unless it exists; without a package index it only warns: the scale scenario and the
# vector-search benchmark need it, nothing else does.
set -euo pipefail
cd "$(dirname "$0")/.."

with_browser=${SQUALL_WITH_BROWSER:-0}
for arg in "$@"; do
  case "$arg" in
    --with-browser) with_browser=1 ;;
    *) echo "usage: scripts/setup.sh [--with-browser]" >&2; exit 2 ;;
  esac
done

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

# An npm package pinned in DIR/package.json (with its package-lock.json), installed with
# `npm ci` into DIR/node_modules; nothing is fetched when that version is already there.
pinned_npm_package() {
  local dir=$1 package=$2
  local pinned installed=""
  pinned=$(node -p "require('./$dir/package.json').dependencies['$package']")
  if [ -f "$dir/node_modules/$package/package.json" ]; then
    installed=$(node -p "require('./$dir/node_modules/$package/package.json').version")
  fi
  if [ "$installed" = "$pinned" ]; then
    echo "setup: $package $pinned is installed in $dir"
    return
  fi
  echo "setup: installing $package $pinned into $dir (npm ci)"
  npm ci --prefix "$dir" --no-audit --no-fund --loglevel=error
}

packages=(
  build-essential cmake
  nlohmann-json3-dev libfmt-dev libcli11-dev libboost-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  libyaml-cpp-dev
  python3-junitparser python3-jsonschema
  clang-format universal-ctags
  clang libclang-rt-14-dev llvm-14
  dpkg-dev debootstrap python3-yaml
)
# The Debian package (scripts/package.sh, docs/ci.md): dpkg-dev's dpkg-shlibdeps computes its
# Depends from the binary; the package tests (ctest label `package`) install it into a clean
# Debian 12 root made by debootstrap and read action.yml with python3-yaml.
# clang with its sanitizer and libFuzzer runtimes (libclang-rt-14-dev) and llvm-symbolizer
# (llvm-14, for the sanitizers' stack traces): the fuzz and tsan presets (docs/fuzzing.md).
# An npm already on the PATH (NodeSource's nodejs bundles one) is used as it is.
if ! command -v npm >/dev/null 2>&1; then
  packages+=(nodejs npm)
fi
if [ "$with_browser" = 1 ]; then
  packages+=(chromium-headless-shell)
fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all build dependencies are installed"
else
  echo "setup: installing ${missing[*]}"
  "${sudo_cmd[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q
  "${sudo_cmd[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
fi
# uPlot for the HTML report; the official OpenAI, Anthropic and MCP Node clients the live-mode tests drive,
# and the OpenTelemetry instrumentation whose trace of the OpenAI client the replay test reads.
pinned_npm_package third_party/uplot uplot
pinned_npm_package tests/live/client openai
pinned_npm_package tests/live/client @anthropic-ai/sdk
pinned_npm_package tests/live/client @modelcontextprotocol/sdk
pinned_npm_package tests/live/client @opentelemetry/instrumentation-openai
scale_corpus
