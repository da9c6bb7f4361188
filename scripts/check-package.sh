#!/usr/bin/env bash
# CI's package check: builds the .deb, checks it with lintian, installs it on this machine with apt-get, runs the
# installed binaries (their --version, a demo scan of 1,000 keys, the manual pages, the desktop files), and removes
# it. Needs root or sudo, and changes the machine's installed packages: CI runs it, a developer rarely needs to.
set -euo pipefail
cd "$(dirname "$0")/.."
deb=$(scripts/build-deb.sh | tail -n 1)
sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"

echo "== lintian $deb" >&2
lintian --fail-on error "$deb" >&2 || {
  echo "lintian found errors in $deb" >&2
  exit 1
}

echo "== apt-get install ./$deb" >&2
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "./$deb" >&2
trap 'DEBIAN_FRONTEND=noninteractive $sudo apt-get remove -y -qq keylens >&2' EXIT

/usr/bin/keylens-cli --version
/usr/bin/keylens --version
report=$(mktemp)
/usr/bin/keylens-cli demo --keys 1000 --format json >"$report"
grep -q '"keys": 1000' "$report" || {
  echo "the installed keylens-cli demo did not report 1,000 keys:" >&2
  head -c 2000 "$report" >&2
  exit 1
}
rm -f "$report"
for page in keylens keylens-cli; do
  MANPAGER=cat man --warnings -l "/usr/share/man/man1/$page.1.gz" >/dev/null
done
desktop-file-validate /usr/share/applications/io.github.keylens.Keylens.desktop
appstreamcli validate --no-net /usr/share/metainfo/io.github.keylens.Keylens.metainfo.xml >&2
test -f /usr/share/bash-completion/completions/keylens-cli
test -f /usr/share/icons/hicolor/scalable/apps/keylens.svg

DEBIAN_FRONTEND=noninteractive $sudo apt-get remove -y -qq keylens >&2
trap - EXIT
if [ -e /usr/bin/keylens-cli ]; then
  echo "keylens-cli is still installed after apt-get remove" >&2
  exit 1
fi
echo "package check passed: $deb"
