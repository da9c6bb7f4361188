#!/usr/bin/env bash
# Installs what is missing, builds, and opens the Keylens browser on the embedded demo keyspace: a private
# redis-server with 200,000 realistic, messy keys, stopped when the window closes. Extra arguments go to
# `keylens` (try --demo-keys 1000000, or --palette dark). Without a display, use keylens-cli demo.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ] && [ -z "${QT_QPA_PLATFORM:-}" ]; then
  echo "No display: scanning the demo in the terminal instead (build/bin/keylens-cli demo)." >&2
  exec build/bin/keylens-cli demo
fi
exec build/bin/keylens --demo "$@"
