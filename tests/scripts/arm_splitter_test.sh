#!/usr/bin/env bash
# The importer's AArch64 splitter kernels (NEON, and NEON with PMULL; trace/src/json_splitter.cpp),
# which an x86-64 build never compiles: the splitter and its unit test (which holds every kernel
# to the portable one) are cross-compiled and run under qemu's user-mode emulation, on a Neoverse
# N1 (Graviton 2, Ampere Altra) and on qemu's "max" CPU. Correctness only: emulated timings mean
# nothing.
#
#   bash tests/scripts/arm_splitter_test.sh SOURCE_DIR
#
# Exits 77 (reported as skipped) without aarch64-linux-gnu-g++ or qemu-aarch64 (Debian 12:
# g++-aarch64-linux-gnu, qemu-user; scripts/install-deps.sh installs them) or without Catch2's
# single header.
set -euo pipefail
root=$1
cxx=${STEPLINT_ARM_CXX:-aarch64-linux-gnu-g++}
catch_header=/usr/include/catch2/catch.hpp
for tool in "$cxx" qemu-aarch64; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "arm_splitter_test: $tool not found: skipped"
    exit 77
  fi
done
if [[ ! -f $catch_header ]]; then
  echo "arm_splitter_test: $catch_header not found: skipped"
  exit 77
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Only Catch2's header is taken from the host: the host's /usr/include would shadow the cross
# compiler's C library headers.
mkdir -p "$tmp/include/catch2"
cp "$catch_header" "$tmp/include/catch2/"
printf '#define CATCH_CONFIG_MAIN\n#include <catch2/catch.hpp>\n' >"$tmp/main.cpp"
"$cxx" -std=c++20 -O2 -Wall -Wextra -Werror -static -I "$tmp/include" -I "$root/trace/src" \
  "$tmp/main.cpp" "$root/trace/src/json_splitter.cpp" "$root/tests/trace/json_splitter_test.cpp" \
  -o "$tmp/splitter_test"
for cpu in neoverse-n1 max; do
  echo "arm_splitter_test: -cpu $cpu"
  qemu-aarch64 -cpu "$cpu" "$tmp/splitter_test" "[splitter]"
done
