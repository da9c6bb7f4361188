#!/usr/bin/env bash
# Installs the Debian 12 packages Keylens needs to build and test, and nothing when all are present.
set -euo pipefail

packages=(
  cmake ninja-build g++ pkg-config ccache clang-format
  qt6-base-dev qt6-svg-dev qtkeychain-qt6-dev libhiredis-dev libqcustomplot-dev
  zlib1g-dev liblz4-dev libsnappy-dev libzstd-dev
  libssl-dev # libcrypto: a TLS client key is checked against its certificate
  redis-server redis-tools
  xvfb xauth # the GUI tests run once more on a real X server (tst_livetree_xcb)
  openssl    # tst_faults makes a certificate for a TLS port
  python3-minimal # the style tests that keep docs/ARCHITECTURE.md true (tests/style/house.py)
  openssh-client openssh-server # SSH tunnels run the system's ssh; tst_ssh starts a private sshd
  qt6-l10n-tools # lupdate and lrelease: the .ts template and the translations
  dpkg-dev file lintian # scripts/build-deb.sh: CPack's DEB (dpkg-shlibdeps), and its check
  desktop-file-utils appstream man-db zsh fish # tst_packagefiles validates what the package carries
  clang-14 libclang-rt-14-dev # fuzz/run: the RDB reader under libFuzzer with ASan and UBSan
)

missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
[ ${#missing[@]} -eq 0 ] && exit 0

sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
echo "Installing: ${missing[*]}" >&2
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
