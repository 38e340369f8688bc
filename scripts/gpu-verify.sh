#!/usr/bin/env bash
# On a GPU machine: build (scripts/gpu-build.sh), run the tests, record both samples on the GPU
# with `steplint record`, check the CUPTI-conflict message and that one libcupti is loaded.
# Traces and logs go to $OUT (default build-gpu/verify). See docs/gpu.md.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
out=${OUT:-build-gpu/verify}
mkdir -p "$out"
log="$out/verify.log"
exec > >(tee "$log") 2>&1
nvidia-smi -L
STEPLINT_GPU_TESTS=${STEPLINT_GPU_TESTS:-1} bash scripts/gpu-build.sh || echo "gpu-verify: build or tests FAILED"
b=build-gpu
export LD_LIBRARY_PATH=$PWD/.gpu-deps/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
steps=${STEPLINT_VERIFY_STEPS:-30}
for sample in slow_trainer fast_trainer; do
  for mode in auto marked; do
    extra=(); [[ $mode == marked ]] && extra=(--steplint-steps)
    trace="$out/${sample}_${mode}.pt.trace.json.gz"
    echo "=== steplint record: $sample ($mode steps) on cuda"
    "$b/cli/steplint" record -o "$trace" -- "$b/samples/$sample" --device cuda --steps "$steps" "${extra[@]}"
    echo "exit: $?"
  done
done
echo "=== a schedule (2 wait, 1 warmup, 3 active): only the active steps and their GPU work"
"$b/cli/steplint" record --no-report --schedule 2,1,3,1 -o "$out/schedule.pt.trace.json.gz" -- \
  "$b/samples/slow_trainer" --device cuda --steps 12 --steplint-steps
python3 - "$out/schedule.pt.trace.json.gz" <<'PY'
import gzip, json, sys
ev = json.load(gzip.open(sys.argv[1]))["traceEvents"]
steps = [e for e in ev if e.get("name", "").startswith("ProfilerStep#")]
dev = [e for e in ev if e.get("cat") in ("kernel", "gpu_memcpy", "gpu_memset")]
lo = min(s["ts"] for s in steps); hi = max(s["ts"] + s["dur"] for s in steps)
print("steps", sorted(s["name"] for s in steps), "device ops", len(dev),
      "outside the steps' span", sum(1 for d in dev if d["ts"] < lo or d["ts"] > hi + 50000))
PY
rm -f "$out/schedule.pt.trace.json.gz"
echo "=== the same schedule without step markers: iterations counted live"
"$b/cli/steplint" record --no-report --schedule 2,1,3,1 -o "$out/schedule_unmarked.pt.trace.json.gz" -- \
  "$b/samples/slow_trainer" --device cuda --steps 12
python3 - "$out/schedule_unmarked.pt.trace.json.gz" <<'PY'
import gzip, json, sys
ev = json.load(gzip.open(sys.argv[1]))["traceEvents"]
names = [e.get("name", "") for e in ev]
print("addmm", names.count("aten::addmm"), "(3 per forward pass)",
      "kernels", sum(1 for e in ev if e.get("cat") == "kernel"),
      "ProfilerStep", sum(1 for n in names if n.startswith("ProfilerStep#")))
PY
rm -f "$out/schedule_unmarked.pt.trace.json.gz"
echo "=== [memory] samples per recording (one per step or live iteration, plus set-up and stop)"
for f in "$out"/*_trainer_*.pt.trace.json.gz; do
  echo "$(basename "$f"): $(zcat "$f" | grep -o '"name": "\[memory\]"' | wc -l)"
done
echo "=== one libcupti in a recorded process"
STEPLINT_RECORD=1 STEPLINT_OUTPUT=/tmp/maps.pt.trace.json.gz LD_PRELOAD=$PWD/$b/collector/libsteplint_preload.so \
  "$b/samples/fast_trainer" --device cuda --steps 300 --sleep-after-step-ms 20 &
pid=$!; sleep 5; grep -o '[^ ]*libcupti[^ ]*' /proc/$pid/maps | sort -u; wait $pid
echo "=== collector overhead on the GPU (fast_trainer, CUPTI on)"
"$b/bench/steplint-collector-overhead" --trainer "$b/samples/fast_trainer" --device cuda \
  --preload "$b/collector/libsteplint_preload.so" --steps ${STEPLINT_VERIFY_BENCH_STEPS:-200} --rounds 3 --kineto 1
echo "=== CUPTI held by torch.profiler: expect a clear conflict message"
STEPLINT_OUTPUT=/tmp/conflict.pt.trace.json.gz python3 - <<'PY'
import ctypes, torch
x = torch.randn(1024, 1024, device="cuda")
with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
    lib = ctypes.CDLL("build-gpu/collector/libsteplint_collector.so")
    print("steplint_start ->", lib.steplint_start(None))
    for _ in range(3): x @ x
    torch.cuda.synchronize()
    print("steplint_stop ->", lib.steplint_stop())
print("torch.profiler kernels:", sum(1 for e in prof.events() if e.device_type == torch.autograd.DeviceType.CUDA))
PY
zcat /tmp/conflict.pt.trace.json.gz 2>/dev/null | grep -o '"steplint_sources": {[^}]*}'
