#!/usr/bin/env bash
# Runs clang-tidy with the project's .clang-tidy on C++ sources, through the compile commands
# of a configured build (CMAKE_EXPORT_COMPILE_COMMANDS is on). Headers are checked through the
# sources that include them. Any warning fails the run. Not part of CI: a whole-tree run takes
# about an hour on 2 cores (about 10 s per file); check what you changed.
#
#   bash scripts/tidy.sh                   # the .cpp files changed since the merge base with main
#   bash scripts/tidy.sh rules/src/transfer/sl201_pageable_h2d_copy.cpp ...
#   STEPLINT_BUILD_DIR=build-ci STEPLINT_JOBS=1 bash scripts/tidy.sh
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

build_dir=${STEPLINT_BUILD_DIR:-build}
jobs=${STEPLINT_JOBS:-2}
if ! command -v clang-tidy >/dev/null 2>&1; then
  echo "tidy: clang-tidy not found (bash scripts/install-deps.sh installs it)" >&2
  exit 2
fi
if [[ ! -f "$build_dir/compile_commands.json" ]]; then
  echo "tidy: no $build_dir/compile_commands.json: configure first (cmake --preset default)" >&2
  exit 2
fi

files=("$@")
if [[ ${#files[@]} -eq 0 ]]; then
  base=$(git merge-base HEAD main 2>/dev/null || git rev-parse HEAD)
  mapfile -t files < <(git diff --name-only --diff-filter=d "$base" -- '*.cpp')
fi
if [[ ${#files[@]} -eq 0 ]]; then
  echo "tidy: no changed .cpp files"
  exit 0
fi

echo "tidy: $(clang-tidy --version | grep -m1 version), ${#files[@]} files"
# The build uses GCC: clang does not know some of its warning flags (-Wshadow=local).
# "N warnings generated." counts the system headers' warnings, which are not shown: dropped.
printf '%s\0' "${files[@]}" | xargs -0 -n 1 -P "$jobs" bash -c 'set -o pipefail
  clang-tidy -p "$0" --quiet --warnings-as-errors="*" --extra-arg=-Wno-unknown-warning-option "$1" 2>&1 |
    { grep -v -E "^[0-9]+ warnings? generated\.$" || true; }' "$build_dir"
echo "tidy: no warnings"
