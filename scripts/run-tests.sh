#!/usr/bin/env bash
# Installs what is missing, builds, and runs every test (unit and integration; each integration test
# starts its own redis-server on a free loopback port). Benchmarks live in bench/ and are not run here.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
cd build
# How long the tests took, on stderr at the end, whether they passed or not; the exit code stays ctest's.
started=$SECONDS
status=0
ctest --output-on-failure -j2 --timeout 600 || status=$?
took=$((SECONDS - started))
echo "Tests took $((took / 60)) min $((took % 60)) s" >&2
exit "$status"
