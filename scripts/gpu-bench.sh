#!/usr/bin/env bash
# On a GPU machine lent for minutes: the measurements only a GPU can make, most important
# first, each bounded in time so a short lease still returns the first ones. Everything lands
# in $OUT (default build-gpu/bench) as a few files: the log and one .tar.gz per part.
#   1. build the collector against the machine's torch, the CLI, the samples, the overhead driver
#   2. bench/savings on CUDA: predicted vs measured saving per fix (docs/accuracy.md, issue 13)
#   3. a 4-rank DDP job over gloo on one GPU with a planted straggler (backward, dataloader,
#      sync) and a balanced one, recorded by torch.profiler per rank, and one job recorded by
#      `steplint record -- torchrun` (docs/analyses.md, tests/data/gpu_ddp; issues 14, 16)
#   4. the Python sample recorded with no code change (issue 16)
#   5. collector overhead against Kineto on the fast, slow and ResNet-50 trainers and on a Python
#      trainer (bench/collector_overhead/python_overhead.py; issue 16)
# Parts not run by default: cupti (the launch-bound fast sample, 7 rounds, with the CUPTI
# switches as variants), profile (where the CPU goes while recording it, by `perf record` of
# cpu-clock; needs a carried .perf/ with perf and its libraries), rerecord (the traces kept in
# tests/data/gpu).
# Needs .gpu-deps (scripts/gpu-deps.sh, carried). See docs/gpu.md.
#
#   OUT=/tmp/out bash scripts/gpu-bench.sh [PART...]
#     parts: savings ddp python overhead (default), cupti profile rerecord
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
out=${OUT:-build-gpu/bench}
mkdir -p "$out"
exec > >(tee "$out/gpu-bench.log") 2>&1
parts=${*:-savings ddp python overhead}
b=build-gpu
export LD_LIBRARY_PATH=$PWD/.gpu-deps/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
steplint=$b/cli/steplint
work=$(mktemp -d)
stamp() { echo "=== $(date -u +%H:%M:%S) $*"; }
pack() { tar -C "$work" -czf "$out/$1.tar.gz" "$1" 2>/dev/null && ls -la "$out/$1.tar.gz"; }

stamp "machine"; nvidia-smi -L; python3 -c 'import torch; print("torch", torch.__version__, torch.version.cuda)'
stamp "build"
STEPLINT_GPU_TESTS=0 STEPLINT_GPU_TARGETS="steplint steplint_preload steplint_collector slow_trainer fast_trainer resnet_trainer steplint-collector-overhead" \
  timeout 300 bash scripts/gpu-build.sh >"$work/build.log" 2>&1 || { tail -40 "$work/build.log"; echo "gpu-bench: build FAILED"; }
tail -3 "$work/build.log"

if [[ " $parts " == *" savings "* && -x $b/samples/slow_trainer ]]; then
  stamp "savings (cuda)"
  mkdir -p "$work/savings"
  timeout 240 python3 bench/savings/savings.py "$b" --device cuda --rounds 3 --steps 30 --keep "$work/savings"
  pack savings
fi

if [[ " $parts " == *" ddp "* ]]; then
  mkdir -p "$work/ddp"
  port=29600
  for case in backward dataloader sync none; do
    stamp "ddp: straggler $case on rank 2 of 4 (torch.profiler per rank)"
    port=$((port + 1))
    timeout 90 python3 -m torch.distributed.run --nproc-per-node 4 --master-port $port samples/python/ddp_straggler_train.py \
      --straggler $case --straggler-rank 2 --steps 14 --profile-dir "$work/ddp/$case" 2>&1 | grep -v "^W\|^\*\|OMP_NUM"
    ls -la "$work/ddp/$case"
    [[ -x $steplint ]] && timeout 60 $steplint check --no-config "$work/ddp/$case"
  done
  if [[ -x $steplint ]]; then
    stamp "ddp: steplint record -- torchrun (straggler backward on rank 1)"
    timeout 120 $steplint record -o "$work/ddp/recorded/job.pt.trace.json.gz" -- python3 -m torch.distributed.run --nproc-per-node 4 \
      --master-port 29650 samples/python/ddp_straggler_train.py --straggler backward --straggler-rank 1 --steps 20
    echo "exit: $?"; ls -la "$work/ddp/recorded"
  fi
  pack ddp
fi

if [[ " $parts " == *" python "* && -x $steplint ]]; then
  stamp "python sample, no code change"
  mkdir -p "$work/python"
  timeout 90 $steplint record -o "$work/python/slow_loader.pt.trace.json.gz" -- python3 samples/python/slow_loader_train.py --steps 30
  echo "exit: $?"
  pack python
fi

if [[ " $parts " == *" overhead "* && -x $b/bench/steplint-collector-overhead ]]; then
  for spec in "fast_trainer 200" "slow_trainer 60" "resnet_trainer 40"; do
    set -- $spec
    [[ -x $b/samples/$1 ]] || continue
    stamp "overhead: $1 ($2 steps, 3 rounds)"
    timeout 150 $b/bench/steplint-collector-overhead --trainer "$b/samples/$1" --device cuda \
      --preload "$b/collector/libsteplint_preload.so" --steps "$2" --rounds 3 --kineto 1 \
      --configs baseline,default,host-only,kineto --dir "$work/overhead_$1"
  done
fi
if [[ " $parts " == *" overhead "* && -x $steplint ]]; then
  stamp "overhead: python trainer (steplint record vs torch.profiler/Kineto, 3 rounds)"
  timeout 150 python3 bench/collector_overhead/python_overhead.py --steplint "$steplint" --python python3 \
    --rounds 3 --steps 300
fi
if [[ " $parts " == *" cupti "* && -x $b/bench/steplint-collector-overhead ]]; then
  rounds=${GPU_BENCH_CUPTI_ROUNDS:-7}
  stamp "cupti: fast_trainer (200 steps, $rounds rounds; unfiltered = every driver call recorded)"
  timeout 240 $b/bench/steplint-collector-overhead --trainer "$b/samples/fast_trainer" --device cuda \
    --preload "$b/collector/libsteplint_preload.so" --steps 200 --rounds "$rounds" --kineto 1 \
    --configs baseline,default,host-only,kineto --variant unfiltered:STEPLINT_CUPTI_API_FILTER=0 \
    --dir "$work/cupti"
fi
if [[ " $parts " == *" profile "* && -x .perf/perf && -x $b/samples/fast_trainer ]]; then
  perf=(env "LD_LIBRARY_PATH=$PWD/.perf/lib:$LD_LIBRARY_PATH" "$PWD/.perf/perf")  # timeout runs no functions
  for config in steplint kineto none; do
    stamp "profile: fast_trainer under $config (cpu-clock samples, self time)"
    run=("$b/samples/fast_trainer" --device cuda --steps 1500)
    env=(OMP_NUM_THREADS=1)
    [[ $config == steplint ]] && env+=(STEPLINT_RECORD=1 STEPLINT_OUTPUT="$work/p.pt.trace.json"
                                      LD_PRELOAD="$PWD/$b/collector/libsteplint_preload.so")
    [[ $config == kineto ]] && run+=(--kineto-profile "$work/p.json")
    timeout 60 "${perf[@]}" record -q -F 4000 -e cpu-clock -o "$work/perf.data" -- env "${env[@]}" "${run[@]}" | tail -1
    timeout 60 "${perf[@]}" report -i "$work/perf.data" --stdio --no-children --sort comm,dso --percent-limit 1 2>/dev/null | grep -v '^#' | grep -v '^$' | head -20
    timeout 60 "${perf[@]}" report -i "$work/perf.data" --stdio --no-children --comm fast_trainer --sort dso,sym --percent-limit 0.4 2>/dev/null | grep -v '^#' | grep -v '^$' | head -45
    rm -f "$work/perf.data" "$work/p.pt.trace.json" "$work/p.json"
  done
fi
if [[ " $parts " == *" rerecord "* && -x $steplint ]]; then
  mkdir -p "$work/gpu"
  for spec in "slow_trainer auto" "slow_trainer marked" "fast_trainer marked"; do
    set -- $spec
    extra=(); [[ $2 == marked ]] && extra=(--steplint-steps)
    stamp "rerecord: $1 ($2 steps)"
    timeout 60 $steplint record --no-report -o "$work/gpu/${1}_$2.pt.trace.json.gz" -- \
      "$b/samples/$1" --device cuda --steps 30 "${extra[@]}"
  done
  stamp "rerecord: python slow loader"
  timeout 90 $steplint record --no-report -o "$work/gpu/python_slow_loader.pt.trace.json.gz" -- \
    python3 samples/python/slow_loader_train.py --steps 30
  pack gpu
fi
stamp "done"
