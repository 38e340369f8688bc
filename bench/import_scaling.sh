# Sourced by bench/import_bench.sh --scaling (it defines measure, json_size, generate and the
# binaries). For each size in BENCH_SIZES, plain and gzip: simdjson's own parse of the same JSON
# (steplint-import-bench --raw: the baseline, and beside it a simdjson program's cold run), then
# `steplint summary` and the import alone on 1 core, 2 cores and all cores (taskset), each with
# MB/s, the ratio to the baseline measured in this run, peak RSS and RSS per MB of JSON, and the
# import's serial tail (TraceBuilder::finalize, "final s"); last, issue 18's targets against the
# 2-core rows.

sizes=${BENCH_SIZES:-100M}
cores_total=$(nproc)
core_counts=$(printf '%s\n' 1 2 "$cores_total" | awk -v n="$cores_total" '$1 <= n' | sort -nu)
[[ -x "$importer" ]] || { echo "import_bench.sh: steplint-import-bench not found (set IMPORT_BIN)" >&2; exit 2; }
command -v taskset >/dev/null || { echo "import_bench.sh: taskset (util-linux) not found" >&2; exit 2; }

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else printf "-" }'; }
mbps() { awk -v b="$1" -v s="$2" 'BEGIN { if (s > 0) printf "%.0f", b / 1e6 / s; else printf "-" }'; }
field() { tr ' ' '\n' <<<"$1" | sed -n "s/^$2=//p"; }

targets=()
rss_points=()  # "MB RSS_MiB" of the plain inputs at 2 cores (or 1 on a 1-core machine)
printf '%-34s %8s %-14s %7s %6s %7s %6s %8s %7s %8s %9s %7s %7s\n' input "JSON MB" cores "sum s" \
  "cpu s" "MB/s" "x raw" "RSS MiB" "MiB/MB" "x 1core" "imp MB/s" "x raw" "final s"
for size in $sizes; do
  plain=$(generate "$size")
  for f in "$plain" "$plain.gz"; do
    cat "$f" >/dev/null  # page cache: every run reads from memory
    bytes=$(json_size "$f")
    mb=$(awk -v b="$bytes" 'BEGIN { printf "%.1f", b / 1e6 }')
    label=$(basename "$f")
    # run 1 faults in buffers; above 4 GiB simdjson parses nothing and the "x raw" columns are "-"
    raw=$("$importer" --raw "$((repeat < 2 ? 2 : repeat))" "$f" 2>"$dir/.raw_err") || raw=""
    raw_od=$(field "$raw" ondemand_mb_per_s) raw_dom=$(field "$raw" dom_mb_per_s)
    if [[ -z "$raw_od" ]]; then
      printf '%-34s %8s %-14s   n/a: %s\n' "$label" "$mb" "raw On-Demand" "$(tail -1 "$dir/.raw_err")"
    else
      printf '%-34s %8s %-14s %7s %6s %7.0f %6s   (simdjson %s, 1 thread, text in memory)\n' "$label" \
        "$mb" "raw On-Demand" "$(field "$raw" ondemand_seconds)" - "$raw_od" 1.00 "$(field "$raw" implementation)"
      if awk -v r="$raw_dom" 'BEGIN { exit !(r > 0) }'; then
        printf '%-34s %8s %-14s %7s %6s %7.0f %6s\n' "$label" "$mb" "raw DOM" "$(field "$raw" dom_seconds)" - \
          "$raw_dom" "$(ratio "$raw_dom" "$raw_od")"
      else
        printf '%-34s %8s %-14s   n/a: %s\n' "$label" "$mb" "raw DOM" "$(tail -1 "$dir/.raw_err")"
      fi
      # A simdjson program on the file, for reference only: its loader (plain files) and the
      # first walk, which faults in the parser's buffers (as `steplint summary` faults in its
      # own). It varies two- to threefold from run to run, so it is no baseline.
      raw_cold=$(field "$raw" cold_mb_per_s)
      printf '%-34s %8s %-14s %7s %6s %7.0f %6s   (load %s s + first walk %s s)\n' "$label" "$mb" \
        "raw cold" - - "$raw_cold" "$(ratio "$raw_cold" "$raw_od")" "$(field "$raw" load_seconds)" \
        "$(field "$raw" first_ondemand_seconds)"
    fi
    one_core=""
    for c in $core_counts; do
      cpus="0-$((c - 1))"
      measure "$bytes" taskset -c "$cpus" "$steplint" summary "$f"
      s_sec=$m_seconds s_cpu=$m_cpu s_rss=$((m_rss_kb / 1024))
      rate=$(mbps "$bytes" "$s_sec")
      [[ -z "$one_core" ]] && one_core=$rate
      imp=$(taskset -c "$cpus" "$importer" "$f" | head -1)
      imp_rate=$(field "$imp" mb_per_s)
      name="$c core"; ((c > 1)) && name="$c cores"; ((c == cores_total && c > 2)) && name="$c (all)"
      ((c == cores_total && c <= 2)) && name="$name (all)"
      printf '%-34s %8s %-14s %7s %6s %7s %6s %8s %7s %8s %9.0f %7s %7s\n' "$label" "$mb" "$name" "$s_sec" \
        "$s_cpu" "$rate" "$(ratio "$rate" "$raw_od")" "$s_rss" "$(ratio "$s_rss" "$mb")" \
        "$(ratio "$rate" "$one_core")" "$imp_rate" "$(ratio "$imp_rate" "$raw_od")" \
        "$(field "$imp" finalize_seconds)"
      if ((c == 2 || (c == 1 && cores_total == 1))); then
        [[ "$f" != *.gz ]] && rss_points+=("$mb $s_rss")
        if [[ "$f" == *.gz ]]; then
          targets+=("$label, $name: $rate MB/s of JSON (target >= 500)")
        else
          targets+=("$label, $name: $(ratio "$rate" "$raw_od") x raw parse (target >= 0.85), $(ratio "$rate" "$one_core") x 1 core (target >= 1.8)")
        fi
      fi
    done
  done
done

echo
echo "Issue 18's targets (defined for a 1 GB trace; smaller sizes are indicative):"
for t in "${targets[@]}"; do echo "  $t"; done
if ((${#rss_points[@]} >= 2)); then
  # Peak RSS = base + slope x MB, through the smallest and the largest plain input.
  read -r mb0 rss0 <<<"${rss_points[0]}"
  read -r mb1 rss1 <<<"${rss_points[-1]}"
  awk -v a="$mb0" -v ra="$rss0" -v b="$mb1" -v rb="$rss1" 'BEGIN {
    slope = (rb - ra) / (b - a); printf "  peak RSS = %.0f MiB + %.3f MiB per MB of JSON (target <= 0.2 per MB)\n",
    ra - slope * a, slope }'
fi
echo
echo "machine: $cores_total cores, $(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo)," \
  "load average at start $load_at_start, now $(cut -d ' ' -f 1-3 /proc/loadavg);" \
  "steplint: $steplint; import bench: $importer"
