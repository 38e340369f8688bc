#!/usr/bin/env bash
# Whole-job benchmark (issue 14): a job of RANKS ranks against one of its traces in the same run.
# Reports throughput per CPU second (JSON bytes / (user + sys)) for both, their ratio, and the
# peak RSS of the job report; wall times depend on the machine's load and are printed only.
# Then the job report from SUMMARIES per-rank summary files alone (`summary --format json` of
# one 50-step rank, copied with ranks 0..SUMMARIES-1): CPU seconds against the 1 s target.
#   bench/job_bench.sh                 # 16 ranks x 2400 steps (~60 MB JSON each, gzip as stored)
#   RANKS=4 STEPS=200 bench/job_bench.sh
#   RANKS=0 bench/job_bench.sh         # the summary files only
set -euo pipefail
RANKS=${RANKS:-16}
STEPS=${STEPS:-2400}
WORKERS=${WORKERS:-2}
SUMMARIES=${SUMMARIES:-1000}
STEPLINT_BIN=${STEPLINT_BIN:-build/cli/steplint}
TRACEGEN_BIN=${TRACEGEN_BIN:-build/bench/steplint-tracegen}
RESULTS=${BENCH_DIR:-bench/results}
DIR=$RESULTS/job_${RANKS}x${STEPS}

measure() {  # prints "cpu_seconds peak_kb wall_seconds"
  /usr/bin/time -f "%U %S %M %e" "$@" 2>&1 >/dev/null | tail -1 | awk '{print $1 + $2, $3, $4}'
}

# SUMMARIES files made from one rank's `summary --format json`, each given its own rank.
write_summary_files() {
  local dir=$1 src=$1.src
  rm -rf "$dir" "$src"
  "$TRACEGEN_BIN" -q --ranks 2 --steps 50 -o "$src"
  "$STEPLINT_BIN" summary --format json "$src/rank0.pt.trace.json" -o "$src/one.json"
  mkdir -p "$dir"
  python3 -c '
import json, sys
src, out, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
doc = json.load(open(src))
for r in range(n):
    doc["rank_summary"].update(rank=r, world_size=n, source=f"rank{r}.pt.trace.json")
    with open(f"{out}/rank{r}.summary.json", "w") as f:
        json.dump(doc, f, indent=2)
' "$src/one.json" "$dir" "$SUMMARIES"
  rm -rf "$src"
}

summary_files() {
  local dir=$RESULTS/summaries_$SUMMARIES
  [ -d "$dir" ] || write_summary_files "$dir"
  local bytes
  bytes=$(cat "$dir"/*.summary.json | wc -c)
  read -r cpu rss wall < <(measure "$STEPLINT_BIN" summary "$dir")
  awk -v n="$SUMMARIES" -v b="$bytes" -v c="$cpu" -v r="$rss" -v w="$wall" 'BEGIN {
    printf "job report from %d rank-summary files (%.0f KB each): %.2f CPU s (target <= 1), peak %.0f MiB, wall %.1f s\n", n, b / n / 1000, c, r / 1024, w
  }'
}

if [ "$RANKS" -eq 0 ]; then
  summary_files
  exit 0
fi

if [ ! -d "$DIR" ] || [ "$TRACEGEN_BIN" -nt "$DIR" ]; then
  rm -rf "$DIR"
  "$TRACEGEN_BIN" -q --ranks "$RANKS" --steps "$STEPS" --straggler backward --straggler-rank 1 --gzip -o "$DIR"
fi
bytes_one=$(zcat "$DIR/rank0.pt.trace.json.gz" | wc -c)
bytes_all=$((bytes_one * RANKS))  # every rank has the same steps and events
read -r cpu_one rss_one wall_one < <(measure "$STEPLINT_BIN" summary "$DIR/rank0.pt.trace.json.gz")
read -r cpu_all rss_all wall_all < <(measure "$STEPLINT_BIN" summary --jobs "$WORKERS" "$DIR")
awk -v b1="$bytes_one" -v c1="$cpu_one" -v r1="$rss_one" -v w1="$wall_one" \
    -v b2="$bytes_all" -v c2="$cpu_all" -v r2="$rss_all" -v w2="$wall_all" -v n="$RANKS" -v j="$WORKERS" 'BEGIN {
  t1 = b1 / 1e6 / c1; t2 = b2 / 1e6 / c2
  printf "single trace: %.0f MB JSON, %.2f CPU s, %.0f MB/CPU-s, peak %.0f MiB, wall %.1f s\n", b1 / 1e6, c1, t1, r1 / 1024, w1
  printf "job (%d ranks, --jobs %d): %.0f MB JSON, %.2f CPU s, %.0f MB/CPU-s, peak %.0f MiB, wall %.1f s\n", n, j, b2 / 1e6, c2, t2, r2 / 1024, w2
  printf "ratio job/single throughput per CPU second: %.2f (target >= 1); job peak RSS %.2f GiB (target <= 0.6)\n", t2 / t1, r2 / 1048576
}'
summary_files
