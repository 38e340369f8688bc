#!/usr/bin/env bash
# Installs what is missing, configures, builds (-j2) and runs every test with CTest.
# Exits non-zero when anything fails; the last lines are CTest's summary.
#
#   bash scripts/test.sh                          # preset "default" -> build/
#   STEPLINT_PRESET=asan bash scripts/test.sh     # -> build-asan/
#   CI=true bash scripts/test.sh                  # preset "ci" (-Werror) -> build-ci/
#   STEPLINT_BUILD_DIR=/tmp/b bash scripts/test.sh
#   STEPLINT_JOBS=4 bash scripts/test.sh          # default 2 (the development machines' cores)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

bash scripts/install-deps.sh

configure_args=()
if [[ "${CI:-}" == "true" ]]; then
  preset=${STEPLINT_PRESET:-ci}
  configure_args+=(-DSTEPLINT_WERROR=ON)
else
  preset=${STEPLINT_PRESET:-default}
fi
# Same directories as CMakePresets.json: build/ for "default", build-<preset>/ otherwise.
if [[ "$preset" == "default" ]]; then default_dir=build; else default_dir="build-$preset"; fi
build_dir=${STEPLINT_BUILD_DIR:-$default_dir}
jobs=${STEPLINT_JOBS:-2}

echo "test.sh: preset $preset, build directory $build_dir, $jobs jobs"
cmake --preset "$preset" -B "$build_dir" "${configure_args[@]}"
cmake --build "$build_dir" -j "$jobs"
ctest --test-dir "$build_dir" --output-on-failure -j "$jobs" --timeout 900
