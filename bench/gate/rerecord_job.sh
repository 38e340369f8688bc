#!/bin/bash
# The regression gate on real re-recordings of one distributed job (docs/accuracy.md, "Real jobs
# re-recorded, and the gate"): records the 2-rank gloo DDP sample N times with `steplint
# record`, then checks each recording against one, three and five others (`--compare`
# repeated) and counts the failures; a quiet job should not fail. Needs a torch with
# torch.distributed (Debian's python3-torch: PYTHON=/usr/bin/python3).
#   bench/gate/rerecord_job.sh [BUILD_DIR] [OUT_DIR]     # N=10 STEPS=20 PYTHON=python3
set -u
build=${1:-build}
out=${2:-bench/results/gate-jobs}
steplint="$build/cli/steplint"
sample="$(dirname "$0")/../../samples/python/ddp_straggler_train.py"
n=${N:-10}
mkdir -p "$out"
for i in $(seq 1 "$n"); do
  [ -d "$out/run$i" ] && continue
  mkdir -p "$out/run$i"
  OMP_NUM_THREADS=1 "$steplint" record --no-cupti --no-config --no-report \
    -o "$out/run$i/train.pt.trace.json" -- "${PYTHON:-python3}" "$sample" --spawn 2 \
    --steps "${STEPS:-20}" > "$out/run$i.log" 2>&1 || echo "run $i: record failed (see $out/run$i.log)"
done
for i in $(seq 1 "$n"); do  # the sample's own timing, unprofiled clock, one rank
  echo "  run$i: $(grep -o 'mean step [0-9.]* ms' "$out/run$i.log" | head -1)"
done
for k in 1 3 5; do
  [ "$k" -ge "$n" ] && continue
  fails=0
  for j in $(seq 1 "$n"); do
    bases=()
    for d in $(seq 1 "$k"); do bases+=(--compare "$out/run$(( (j + d - 1) % n + 1 ))"); done
    "$steplint" check "$out/run$j" "${bases[@]}" --select SL801 --no-config > /dev/null 2>&1
    [ $? -eq 1 ] && fails=$((fails + 1))
  done
  echo "against $k base recording(s): $fails of $n recordings fail the 5% gate"
done
