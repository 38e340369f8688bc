#!/usr/bin/env bash
# CTest: no library source file (trace/, analyzer/, rules/, cli/, collector/, gui/) is longer
# than 500 lines (docs/reference/style.md §2.15, issue 17). A file that grows past it is split
# along its seams, as trace/src/kineto_event_*.cpp were; tests, bench/, fuzz/ and samples/ are
# not counted.
#
#   bash tests/scripts/source_size_test.sh SOURCE_DIR [MAX_LINES]
set -euo pipefail
root=${1:?usage: source_size_test.sh SOURCE_DIR [MAX_LINES]}
max=${2:-500}
cd "$root"

files=0
over=0
largest=0
largest_file=
while IFS= read -r -d '' file; do
  lines=$(wc -l <"$file")
  files=$((files + 1))
  if ((lines > largest)); then
    largest=$lines
    largest_file=$file
  fi
  if ((lines > max)); then
    echo "source_size_test: $file has $lines lines (at most $max): split it along its seams"
    over=$((over + 1))
  fi
done < <(find trace analyzer rules cli collector gui -type f \
  \( -name '*.cpp' -o -name '*.cc' -o -name '*.h' -o -name '*.hpp' \) -print0)

echo "source_size_test: $files files, the longest $largest_file ($largest lines), $over over $max"
if ((files == 0)); then
  echo "source_size_test: no source files under $root" >&2
  exit 1
fi
((over == 0))
