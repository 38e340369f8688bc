#!/usr/bin/env bash
# Fails when a line a change touches in a C++ file (.cpp, .h) is not formatted as
# .clang-format says; prints the diff that would fix it. Lines the change does not touch are
# not checked, so a branch is judged on its own lines only (CONTRIBUTING.md "Formatting and
# lint"). Run by scripts/ci-extra.sh in CI; the fix is `git clang-format BASE`.
#
#   bash scripts/check-format.sh          # against the merge base with origin/main or main;
#                                         # on main itself, against HEAD^ (the last commit)
#   bash scripts/check-format.sh REV      # against REV (also STEPLINT_FORMAT_BASE=REV)
#
# Uncommitted changes to tracked files count as part of the change. Exit codes: 0 formatted
# (or nothing to compare: not a git checkout, or a history too shallow to have a base), 1 a
# formatting violation, 2 a usage or tool error.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

for tool in git git-clang-format clang-format; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "check-format: $tool not found (bash scripts/install-deps.sh installs it)" >&2
    exit 2
  fi
done

if ! git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  echo "check-format: not a git checkout (or git refuses it), nothing to compare: skipped"
  exit 0
fi

base=${1:-${STEPLINT_FORMAT_BASE:-}}
if [[ -z "$base" ]]; then
  head=$(git rev-parse HEAD)
  for ref in origin/main main; do
    if git rev-parse --verify --quiet "$ref^{commit}" >/dev/null; then
      merge_base=$(git merge-base HEAD "$ref" || true)
      if [[ -n "$merge_base" && "$merge_base" != "$head" ]]; then
        base=$merge_base
        break
      fi
    fi
  done
fi
if [[ -z "$base" ]]; then
  # On main (or a branch with nothing of its own yet): the commit that just landed.
  if git rev-parse --verify --quiet "HEAD^" >/dev/null; then
    base=HEAD^
  else
    echo "check-format: no base commit to compare with (shallow or one-commit history): skipped"
    exit 0
  fi
fi
if ! git rev-parse --verify --quiet "$base^{commit}" >/dev/null; then
  echo "check-format: $base is not a commit" >&2
  exit 2
fi

echo "check-format: $(clang-format --version | head -1); lines changed since $(git rev-parse --short "$base^{commit}")"
status=0
output=$(git clang-format --binary "$(command -v clang-format)" --extensions cpp,h --diff "$base" 2>&1) \
  || status=$?
if [[ $status -ne 0 ]]; then
  echo "$output" >&2
  echo "check-format: git clang-format failed (exit $status)" >&2
  exit 2
fi
# git-clang-format 14 exits 0 whether or not it found something; its output says which.
case "$output" in
  "no modified files to format" | "clang-format did not modify any files")
    echo "check-format: $output"
    ;;
  "diff --git"*)
    echo "$output"
    echo "check-format: the lines above are not formatted as .clang-format says;" \
      "fix them with: git clang-format $base" >&2
    exit 1
    ;;
  *)
    echo "$output" >&2
    echo "check-format: unexpected output from git clang-format" >&2
    exit 2
    ;;
esac
