#!/usr/bin/env bash
# Installs what is missing, builds, and runs every test (unit and integration; each integration test
# starts its own redis-server on a free loopback port). Benchmarks live in bench/ and are not run here.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
cd build
ctest --output-on-failure -j2 --timeout 600
