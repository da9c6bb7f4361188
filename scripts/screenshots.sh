#!/usr/bin/env bash
# Renders the README's pictures into docs/images/: keylens --screenshot of each view on the demo keyspace, offscreen
# (no display needed). Each shot starts its own private demo server, with the same seed, so the pictures agree.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
mkdir -p docs/images
shoot() { # name, then keylens's view flags
  local name=$1
  shift
  QT_QPA_PLATFORM=offscreen build/bin/keylens --demo --demo-keys 100000 --palette light --size 1280x760 \
    --screenshot "docs/images/$name.png" "$@"
  echo "docs/images/$name.png"
}
shoot tree
shoot patterns --view patterns
shoot charts --view charts --select user
shoot treemap --view treemap
shoot findings --view findings
shoot server --view server
