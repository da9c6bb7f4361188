#!/usr/bin/env bash
# Configures and builds Keylens in build/ (Ninja, warnings as errors).
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DKEYLENS_WERROR=ON >&2
cmake --build build >&2 # stdout is for what the scripts run, e.g. run-demo.sh --format json > report.json
