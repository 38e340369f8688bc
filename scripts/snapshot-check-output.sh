#!/usr/bin/env bash
# Writes what `steplint check --no-config --format json` and `steplint summary --format json`
# print for every trace in tests/data and in the shared fixtures (stdout, stderr and exit code,
# one folder per trace), so that a
# change meant to keep behaviour (a refactoring, the tree-wide formatting) can be checked
# byte for byte: snapshot before, snapshot after, then `diff -r BEFORE AFTER`.
#
#   bash scripts/snapshot-check-output.sh build/cli/steplint /tmp/before
#   ... change, rebuild ...
#   bash scripts/snapshot-check-output.sh build/cli/steplint /tmp/after && diff -r /tmp/before /tmp/after
#
# STEPLINT_FIXTURES: the shared fixtures (default ../shared/fixtures, as in CMake).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

if [[ $# -ne 2 ]]; then
  echo "usage: $0 STEPLINT_BINARY OUT_DIR" >&2
  exit 2
fi
steplint=$(realpath "$1")
out=$2
fixtures=${STEPLINT_FIXTURES:-../shared/fixtures}
mkdir -p "$out"

traces=()
while IFS= read -r -d '' f; do traces+=("$f"); done < <(
  { find tests/data -type f \( -name '*.json' -o -name '*.json.gz' \) -print0
    if [[ -d "$fixtures" ]]; then
      find -L "$fixtures" -type f \( -name '*.json' -o -name '*.json.gz' \) -print0
    fi
  } | sort -z)

for trace in "${traces[@]}"; do
  name=${trace#"$fixtures"/}
  [[ "$name" == "$trace" ]] || name="fixtures/$name"
  dir="$out/$name"
  mkdir -p "$dir"
  status=0
  # Relative paths, so that the output names the trace the same way wherever it runs.
  "$steplint" check --no-config --format json "$trace" >"$dir/stdout" 2>"$dir/stderr" || status=$?
  echo "$status" >"$dir/exit"
  status=0
  "$steplint" summary --format json "$trace" >"$dir/summary.stdout" 2>"$dir/summary.stderr" ||
    status=$?
  echo "$status" >"$dir/summary.exit"
done
echo "snapshot-check-output: ${#traces[@]} traces -> $out"
