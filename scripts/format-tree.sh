#!/usr/bin/env bash
# Formats every C++ file git tracks (.cpp, .h) with clang-format and .clang-format, in place,
# then prints how many files and lines changed. Meant for one tree-wide formatting commit;
# day to day, `git clang-format` formats only what a change touches (scripts/check-format.sh).
#
#   bash scripts/format-tree.sh            # refuses to run over uncommitted C++ changes
#   bash scripts/format-tree.sh --force    # formats anyway
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

if ! command -v clang-format >/dev/null 2>&1; then
  echo "format-tree: clang-format not found (bash scripts/install-deps.sh installs it)" >&2
  exit 2
fi
if [[ "${1:-}" != "--force" ]] && ! git diff --quiet HEAD -- '*.cpp' '*.h'; then
  echo "format-tree: uncommitted changes to C++ files; commit them first or pass --force" >&2
  exit 2
fi

echo "format-tree: $(clang-format --version | head -1)"
git ls-files -z -- '*.cpp' '*.h' | xargs -0 clang-format -i
changed=$(git diff --shortstat -- '*.cpp' '*.h')
echo "format-tree: ${changed:-no changes}"
