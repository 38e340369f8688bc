#!/usr/bin/env bash
# Installs the Debian 12 packages steplint needs to build and test, skipping those already
# present: with everything installed it prints one line and takes well under a second.
#
#   bash scripts/install-deps.sh            # as root, or through sudo
#   STEPLINT_EXTRA_PACKAGES="ccache" bash scripts/install-deps.sh
set -euo pipefail

packages=(
  # build tools
  cmake ninja-build g++ pkg-config
  # libraries (cmake/ThirdParty.cmake)
  libsimdjson-dev catch2 nlohmann-json3-dev libcli11-dev zlib1g-dev libisal-dev libtomlplusplus-dev
  libxxhash-dev
  # the collector and the sample trainers (CPU-only LibTorch 1.13; CUDA/CUPTI come from /usr/local/cuda)
  libtorch-dev
  # the desktop app (gui/); its tests run on the offscreen platform
  qt6-base-dev
  # scripts and benchmarks; python3-torch (1.13, the same libtorch as libtorch-dev) for the
  # Python recording tests (tests/collector_e2e/python_e2e_test.cpp, run with /usr/bin/python3)
  time python3 python3-jsonschema python3-torch
  # the fuzz run of scripts/ci-extra.sh: clang and its libFuzzer (only *recommended* by
  # libclang-common-14-dev, so --no-install-recommends would leave it out; docs/fuzzing.md)
  clang libclang-rt-14-dev
  # the importer's AArch64 splitter kernels, cross-compiled and run under qemu by a test
  # (tests/scripts/arm_splitter_test.sh)
  g++-aarch64-linux-gnu qemu-user
  # formatting and lint (.clang-format, .clang-tidy): clang-format brings git-clang-format,
  # which scripts/check-format.sh runs in CI on the lines a change touches
  clang-format clang-tidy
)
# Optional extras for later components (collector, GUI), space-separated.
read -r -a extra <<<"${STEPLINT_EXTRA_PACKAGES:-}"
packages+=("${extra[@]}")

# One dpkg-query for all packages; unknown ones print nothing and stay "missing".
installed=$(dpkg-query -W -f='${Package} ${Status}\n' "${packages[@]}" 2>/dev/null \
  | awk '$NF == "installed" && $(NF-1) == "ok" { print $1 }' || true)
missing=()
for package in "${packages[@]}"; do
  if ! grep -qxF "$package" <<<"$installed"; then
    missing+=("$package")
  fi
done

if [[ ${#missing[@]} -eq 0 ]]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi

if [[ $(id -u) -eq 0 ]]; then
  as_root=()
elif command -v sudo >/dev/null 2>&1; then
  as_root=(sudo)
else
  echo "install-deps: missing packages: ${missing[*]}" >&2
  echo "install-deps: run as root or install sudo" >&2
  exit 1
fi

echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${as_root[@]}" apt-get update -qq
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive \
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
echo "install-deps: done"
