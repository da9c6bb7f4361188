#!/usr/bin/env bash
# Installs what is missing, builds, and scans the embedded demo keyspace: a private redis-server with
# 200,000 realistic, messy keys. Extra arguments go to `keylens-cli demo` (try --keys 1000000, --format json).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
exec build/bin/keylens-cli demo "$@"
