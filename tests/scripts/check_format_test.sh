#!/usr/bin/env bash
# CTest for scripts/check-format.sh, in a scratch git repository with the project's
# .clang-format: a branch whose new lines are formatted passes even when lines it does not
# touch are not; a badly formatted new line fails; on main, the last commit is what counts.
# Exits 77 (skipped) without git or clang-format.
#
#   bash tests/scripts/check_format_test.sh SOURCE_DIR
set -euo pipefail
source_dir=$(realpath "${1:?usage: check_format_test.sh SOURCE_DIR}")
for tool in git git-clang-format clang-format; do
  command -v "$tool" >/dev/null 2>&1 || { echo "check_format_test: no $tool: skipped"; exit 77; }
done

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cd "$scratch"
git init -q -b main .
git config user.email test@example.com
git config user.name test
mkdir scripts
cp "$source_dir/.clang-format" .
cp "$source_dir/scripts/check-format.sh" scripts/

failures=0
expect() {  # expect STATUS DESCRIPTION
  local want=$1 what=$2 got=0
  bash scripts/check-format.sh >"$scratch/out" 2>&1 || got=$?
  if [[ $got -ne $want ]]; then
    echo "FAILED: $what: exit $got, expected $want"
    cat "$scratch/out"
    failures=$((failures + 1))
  fi
}

# main: an old file that is not formatted (long line, odd spacing); nothing of ours touches it.
printf 'int old( int a ){return a;}\n' >old.cpp
printf 'int kept() { return 1; }\n' >kept.cpp
git add -A && git commit -qm base

git checkout -qb feature
printf 'int kept() { return 1; }\nint added(int b) { return b + 1; }\n' >kept.cpp
git commit -qam "formatted addition"
expect 0 "formatted new lines beside an unformatted old file"

printf 'int worse( int c ){return c;}\n' >>kept.cpp
expect 1 "an unformatted line, not yet committed"
git commit -qam "unformatted addition"
expect 1 "an unformatted line, committed on the branch"

git checkout -q main
git merge -q --no-ff -m merge feature
expect 1 "on main after the merge: the merged change is checked"
printf 'int kept() { return 1; }\nint added(int b) { return b + 1; }\nint worse(int c) { return c; }\n' >kept.cpp
git commit -qam "format it"
expect 0 "on main, the last commit formats what it touches"

if [[ $failures -ne 0 ]]; then
  exit 1
fi
echo "check_format_test: passed"
