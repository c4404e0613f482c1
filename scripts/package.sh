#!/usr/bin/env bash
# Builds squall's Debian package: configures the release preset, builds only the `squall`
# target and runs CPack (cmake/packaging.cmake), then prints the path of the .deb
# (build/release/package/squall_VERSION_ARCH.deb) as its last line. Its Depends are
# computed from the binary by dpkg-shlibdeps (dpkg-dev; scripts/setup.sh installs it).
# Install it with `apt-get install ./squall_VERSION_ARCH.deb` on Debian 12 (docs/ci.md).
# Extra arguments go to `cmake --preset release` (e.g. -DCMAKE_CXX_COMPILER_LAUNCHER=ccache).
# Environment: SQUALL_JOBS, the build's parallel jobs (default: one per processor online).
set -euo pipefail
cd "$(dirname "$0")/.."
cmake --preset release "$@" >/dev/null
cmake --build --preset release --target squall -j"${SQUALL_JOBS:-$(nproc)}"
rm -f build/release/package/squall_*.deb
(cd build/release && cpack --config CPackConfig.cmake >&2)
debs=(build/release/package/squall_*.deb)
if [ ${#debs[@]} -ne 1 ] || [ ! -f "${debs[0]}" ]; then
  echo "package: expected one build/release/package/squall_*.deb, found: ${debs[*]}" >&2
  exit 1
fi
echo "$(pwd)/${debs[0]}"
