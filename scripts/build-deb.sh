#!/usr/bin/env bash
# Builds the Debian package, build/packages/keylens_<version>_amd64.deb: installs what is missing, builds (as
# scripts/build.sh), then CPack (Depends from dpkg-shlibdeps, stripped binaries). Prints the package's path.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
rm -f build/packages/keylens_*.deb
(cd build && cpack -G DEB >&2)
ls build/packages/keylens_*.deb
