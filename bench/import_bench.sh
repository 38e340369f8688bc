#!/usr/bin/env bash
# Import benchmark: `steplint summary` vs Python's json module on the same traces, plain and
# gzip, with throughput (MB/s of uncompressed JSON) and peak RSS. See docs/benchmarks.md.
#
#   bench/import_bench.sh            # ~1 GB generated trace + the ResNet-50 fixtures
#   bench/import_bench.sh --quick    # ~100 MB generated trace, for development
#   BENCH_BYTES=2G bench/import_bench.sh --no-python --strict
#   bench/import_bench.sh --scaling  # 1 core, 2 cores, all cores against simdjson's raw parse
#   BENCH_SIZES="100M 1G" bench/import_bench.sh --scaling
#
# Environment (all optional):
#   STEPLINT_BIN   steplint CLI                 (default: build/cli/steplint)
#   TRACEGEN_BIN   steplint-tracegen            (default: build-bench/bench/..., then build/bench/...)
#   IMPORT_BIN     steplint-import-bench; adds an "import only" column when found
#   BENCH_BYTES    size of the generated trace  (default 1G; --quick: 100M)
#   BENCH_DIR      where generated files go     (default bench/results, git-ignored)
#   FIXTURES       shared fixtures directory    (default ../shared/fixtures)
#   REPEAT         runs per small input; the fastest counts (default 3; inputs > 200 MB run once)
#   BENCH_SIZES    --scaling: generated trace sizes, plain and gzip each (default 100M)
set -euo pipefail

cd "$(dirname "$0")/.."
root=$(pwd)

quick=0 python=1 strict=0 scaling=0
for arg in "$@"; do
  case "$arg" in
    --quick) quick=1 ;;
    --scaling) scaling=1 ;;
    --no-python) python=0 ;;
    --strict) strict=1 ;;
    -h|--help) sed -n '2,19p' "$0"; exit 0 ;;
    *) echo "import_bench.sh: unknown argument $arg" >&2; exit 2 ;;
  esac
done

pick() { for f in "$@"; do [[ -x "$f" ]] && { echo "$f"; return; }; done; echo ""; }
steplint=${STEPLINT_BIN:-$(pick build/cli/steplint build-bench/cli/steplint)}
tracegen=${TRACEGEN_BIN:-$(pick build-bench/bench/steplint-tracegen build/bench/steplint-tracegen)}
importer=${IMPORT_BIN:-$(pick build-bench/bench/steplint-import-bench build/bench/steplint-import-bench)}
bytes=${BENCH_BYTES:-$([[ $quick == 1 ]] && echo 100M || echo 1G)}
dir=${BENCH_DIR:-bench/results}
fixtures=${FIXTURES:-$root/../shared/fixtures}
repeat=${REPEAT:-3}
[[ -x "$steplint" ]] || { echo "import_bench.sh: steplint not found (build it or set STEPLINT_BIN)" >&2; exit 2; }
[[ -x "$tracegen" ]] || { echo "import_bench.sh: steplint-tracegen not found (set TRACEGEN_BIN)" >&2; exit 2; }
mkdir -p "$dir"
load_at_start=$(cut -d ' ' -f 1-3 /proc/loadavg)

# Peak RSS and CPU seconds: GNU time (Debian package `time`) when present, else a getrusage
# wrapper in Python. The .rss file's last line is "user_s sys_s max_rss_kb".
if [[ -x /usr/bin/time ]]; then
  run_rss() { /usr/bin/time -f '%U %S %M' -o "$dir/.rss" "$@" >/dev/null 2>"$dir/.stderr"; }
else
  run_rss() {
    python3 -c 'import resource, subprocess, sys
rc = subprocess.call(sys.argv[2:], stdout=subprocess.DEVNULL, stderr=open(sys.argv[1] + ".stderr", "w"))
u = resource.getrusage(resource.RUSAGE_CHILDREN)
open(sys.argv[1] + ".rss", "w").write("%.2f %.2f %d\n" % (u.ru_utime, u.ru_stime, u.ru_maxrss))
sys.exit(rc)' "$dir/" "$@"
  }
fi
read_rss() { tail -n 1 "$dir/.rss" | awk '{ print $3 }'; }
read_cpu() { tail -n 1 "$dir/.rss" | awk '{ printf "%.2f", $1 + $2 }'; }

# measure JSON_BYTES CMD... -> sets m_seconds m_rss_kb m_rc (best time, largest RSS) and m_cpu
# (user + sys seconds of the fastest run)
measure() {
  local json_bytes=$1; shift
  local runs=$repeat
  if (( json_bytes > 200000000 )); then runs=1; fi
  m_seconds="" m_rss_kb=0 m_rc=0 m_cpu=""
  for ((i = 0; i < runs; i++)); do
    local t0=$EPOCHREALTIME rc=0
    run_rss "$@" || rc=$?
    local t1=$EPOCHREALTIME
    local s rss
    s=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')
    rss=$(read_rss 2>/dev/null || true); [[ "$rss" =~ ^[0-9]+$ ]] || rss=0
    if [[ $rc != 0 ]]; then m_rc=$rc; fi
    if [[ -z "$m_seconds" ]] || awk -v a="$s" -v b="$m_seconds" 'BEGIN { exit !(a < b) }'; then
      m_seconds=$s m_cpu=$(read_cpu 2>/dev/null || true)
    fi
    if (( rss > m_rss_kb )); then m_rss_kb=$rss; fi
  done
  return 0
}

json_size() {  # uncompressed bytes of a plain or gzip file
  if [[ "$1" == *.gz ]]; then gzip -dc "$1" | wc -c; else stat -c %s "$1"; fi
}

# generate BYTES -> the plain trace's path (its .gz beside it), reused while newer than tracegen
generate() {
  local path="$dir/gen_$1.pt.trace.json"
  if [[ ! -s "$path" || "$tracegen" -nt "$path" ]]; then
    echo "generating $path ..." >&2
    "$tracegen" --target-bytes "$1" --trace-name gen.pt.trace.json -o "$path" >&2
  fi
  if [[ ! -s "$path.gz" || "$path" -nt "$path.gz" ]]; then
    echo "generating $path.gz ..." >&2
    "$tracegen" --target-bytes "$1" --trace-name gen.pt.trace.json -o "$path.gz" >&2
  fi
  echo "$path"
}

if [[ $scaling == 1 ]]; then
  source "$root/bench/import_scaling.sh"
  exit 0
fi

# --- inputs -------------------------------------------------------------------------------
gen=$(generate "$bytes")
inputs=("$gen" "$gen.gz")
labels=("$(basename "$gen")" "$(basename "$gen").gz")
for rel in kineto/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz \
           kineto/resnet50_num_workers_4/worker0.1623212756351.pt.trace.json.gz; do
  gz="$fixtures/$rel"
  if [[ ! -f "$gz" ]]; then echo "fixture $gz absent; skipped" >&2; continue; fi
  plain="$dir/$(basename "$(dirname "$rel")").pt.trace.json"
  [[ -s "$plain" ]] || gzip -dc "$gz" > "$plain"
  inputs+=("$plain" "$gz")
  labels+=("$(basename "$plain")" "$(basename "$plain").gz")
done

# --- runs ---------------------------------------------------------------------------------
py_plain='import json, sys; json.load(open(sys.argv[1], "rb"))'
py_gz='import gzip, json, sys; json.load(gzip.open(sys.argv[1], "rb"))'
results=()
fail=0
printf '%-40s %8s | %8s %8s %8s | %8s %8s %8s | %8s %8s %8s | %7s %7s\n' \
  input "JSON MB" "sum s" "sum MB/s" "sum RSS" "imp s" "imp MB/s" "imp RSS" "py s" "py MB/s" "py RSS" \
  "speedup" "RSS x"
for idx in "${!inputs[@]}"; do
  f=${inputs[$idx]}
  cat "$f" > /dev/null  # warm the page cache so every tool reads from memory
  size=$(json_size "$f")
  mb=$(awk -v b="$size" 'BEGIN { printf "%.1f", b / 1e6 }')

  measure "$size" "$steplint" summary "$f"
  s_sec=$m_seconds s_rss=$m_rss_kb s_rc=$m_rc
  s_note=""; [[ $s_rc != 0 ]] && s_note="rc=$s_rc"

  i_sec="-" i_rss=0
  if [[ -x "$importer" ]]; then
    measure "$size" "$importer" "$f"
    i_sec=$m_seconds i_rss=$m_rss_kb
    [[ $m_rc != 0 ]] && i_sec="err"
  fi

  p_sec="-" p_rss=0
  if [[ $python == 1 ]]; then
    script=$py_plain; [[ "$f" == *.gz ]] && script=$py_gz
    measure "$size" python3 -c "$script" "$f"
    p_sec=$m_seconds p_rss=$m_rss_kb
    [[ $m_rc != 0 ]] && p_sec="err"
  fi

  rate() {  # MB/s for a time in seconds, "-" for none
    if [[ "$1" =~ ^[0-9.]+$ ]]; then
      awk -v b="$size" -v s="$1" 'BEGIN { printf "%.0f", (s > 0) ? b / 1e6 / s : 0 }'
    else
      echo "-"
    fi
  }
  mbytes() { if (( $1 > 0 )); then awk -v k="$1" 'BEGIN { printf "%.0f", k / 1024 }'; else echo "-"; fi; }
  speedup="-" rss_ratio="-"
  if [[ "$p_sec" =~ ^[0-9.]+$ && "$s_sec" =~ ^[0-9.]+$ ]]; then
    speedup=$(awk -v p="$p_sec" -v s="$s_sec" 'BEGIN { printf "%.1fx", (s > 0) ? p / s : 0 }')
    rss_ratio=$(awk -v p="$p_rss" -v s="$s_rss" 'BEGIN { printf "%.2f", (p > 0) ? s / p : 0 }')
  fi
  printf '%-40s %8s | %8s %8s %8s | %8s %8s %8s | %8s %8s %8s | %7s %7s %s\n' \
    "${labels[$idx]}" "$mb" "$s_sec" "$(rate "$s_sec")" "$(mbytes "$s_rss")" \
    "$i_sec" "$(rate "$i_sec")" "$(mbytes "$i_rss")" "$p_sec" "$(rate "$p_sec")" "$(mbytes "$p_rss")" \
    "$speedup" "$rss_ratio" "$s_note"

  # Goals apply to the generated trace (the fixtures are too small to measure throughput).
  if [[ "$f" == "$gen" || "$f" == "$gen.gz" ]]; then
    want=400; kind=plain
    [[ "$f" == *.gz ]] && want=300 kind=gz
    got=$(rate "$s_sec")
    verdict=FAIL; [[ $s_rc == 0 && "$got" =~ ^[0-9]+$ ]] && (( got >= want )) && verdict=PASS
    results+=("$verdict  summary throughput ($kind): $got MB/s >= $want MB/s")
    rss_mb=$(( s_rss / 1024 ))
    limit=$(awk -v b="$size" 'BEGIN { printf "%.0f", b / 1e6 / 2 * 1e6 / 1048576 }')
    verdict=FAIL; (( rss_mb <= limit )) && verdict=PASS
    results+=("$verdict  summary peak RSS ($kind): $rss_mb MiB <= 0.5 x JSON = $limit MiB")
  fi
done

echo
echo "Goals (generated trace, $bytes):"
if [[ $quick == 1 ]]; then echo "  (--quick: indicative only; the goals are defined for the ~1 GB trace)"; fi
for r in "${results[@]}"; do
  echo "  $r"
  [[ "$r" == FAIL* ]] && fail=1
done
echo
echo "machine: $(nproc) cores, $(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo)," \
     "load average at start $load_at_start (other jobs distort the numbers);" \
     "steplint: $steplint; python: $(python3 --version 2>&1)"
[[ $strict == 1 ]] && exit $fail
exit 0
