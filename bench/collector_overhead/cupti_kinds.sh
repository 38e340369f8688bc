#!/usr/bin/env bash
# CUPTI activity kinds against step time, on a GPU machine after scripts/gpu-build.sh: runs
# fast_trainer 6 times per configuration (interleaved) and prints median/min/max of its mean
# step time. Used for docs/gpu.md (session 3); the steadier, general tool is
# steplint-collector-overhead (run.sh).
b=build-gpu; p=$b/collector/libsteplint_preload.so; t=$b/samples/fast_trainer
run() { OMP_NUM_THREADS=1 env "$@" $t --steps 400 --device cuda 2>/dev/null | sed -n 's/.*mean step \([0-9.]*\).*/\1/p'; }
declare -A res
for r in 1 2 3 4 5 6; do
  for cfg in base default nodriver nodrv_nosync noclockcb hostonly; do
    case $cfg in
      base) v=$(run X=1);;
      default) v=$(run STEPLINT_RECORD=1 STEPLINT_OUTPUT=/tmp/k_$cfg.json LD_PRELOAD=$p);;
      nodriver) v=$(run STEPLINT_RECORD=1 STEPLINT_OUTPUT=/tmp/k_$cfg.json LD_PRELOAD=$p STEPLINT_CUPTI_DRIVER=0);;
      nodrv_nosync) v=$(run STEPLINT_RECORD=1 STEPLINT_OUTPUT=/tmp/k_$cfg.json LD_PRELOAD=$p STEPLINT_CUPTI_DRIVER=0 STEPLINT_CUPTI_SYNC=0);;
      noclockcb) v=$(run STEPLINT_RECORD=1 STEPLINT_OUTPUT=/tmp/k_$cfg.json LD_PRELOAD=$p STEPLINT_CUPTI_CLOCK_CALLBACK=0);;
      hostonly) v=$(run STEPLINT_RECORD=1 STEPLINT_OUTPUT=/tmp/k_$cfg.json LD_PRELOAD=$p STEPLINT_CUPTI=0);;
    esac
    res[$cfg]="${res[$cfg]} $v"
  done
done
for cfg in base default nodriver nodrv_nosync noclockcb hostonly; do
  echo "$cfg: ${res[$cfg]}" | python3 -c "import sys,statistics as s; n,v=sys.stdin.read().split(':'); v=[float(x) for x in v.split()]; print(f'{n:14s} median {s.median(v):.4f} min {min(v):.4f} max {max(v):.4f}  {v}')"
done
