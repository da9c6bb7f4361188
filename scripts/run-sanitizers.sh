#!/usr/bin/env bash
# Builds with clang's AddressSanitizer and UndefinedBehaviorSanitizer in build-asan/ and runs every test
# there, leak detection on. Slower than run-tests.sh; run it before landing threading or memory work.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
command -v clang++ >/dev/null || { sudo=""; [ "$(id -u)" -ne 0 ] && sudo=sudo; $sudo apt-get install -y -qq clang; }
cmake -S . -B build-asan -G Ninja -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=Debug -DKEYLENS_WERROR=ON \
  -DKEYLENS_BUILD_BENCH=OFF -DCMAKE_CXX_FLAGS="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined" >/dev/null
cmake --build build-asan
cd build-asan
ASAN_OPTIONS=detect_leaks=1 LSAN_OPTIONS=suppressions="$PWD/../scripts/lsan.supp" UBSAN_OPTIONS=print_stacktrace=1 ctest --output-on-failure -j2 --timeout 600
