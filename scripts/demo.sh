#!/usr/bin/env bash
# The main job: build steplint and its sample trainers, record the slow sample with
# `steplint record` and print the report (the same one `steplint check` prints).
#
#   bash scripts/demo.sh                     # records samples/slow_trainer (GPU if there is one)
#   bash scripts/demo.sh my.pt.trace.json.gz # report on your own torch.profiler / steplint trace
#   STEPLINT_DEMO_STEPS=50 bash scripts/demo.sh
#
# The slow sample marks its steps with the linked API (--steplint-steps); without that flag it
# is recorded with no code change at all and steplint detects the steps itself.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

bash scripts/install-deps.sh

preset=${STEPLINT_PRESET:-default}
if [[ "$preset" == "default" ]]; then default_dir=build; else default_dir="build-$preset"; fi
build_dir=${STEPLINT_BUILD_DIR:-$default_dir}
jobs=${STEPLINT_JOBS:-2}
steplint="$build_dir/cli/steplint"

echo "demo.sh: building steplint and the samples in $build_dir (a few minutes the first time; log: $build_dir/demo-build.log)"
mkdir -p "$build_dir"
cmake --preset "$preset" -B "$build_dir" >"$build_dir/demo-configure.log" 2>&1 || {
  cat "$build_dir/demo-configure.log" >&2
  exit 1
}
targets=(steplint)
if [[ $# -eq 0 ]]; then targets+=(slow_trainer steplint_preload steplint_collector); fi
cmake --build "$build_dir" -j "$jobs" --target "${targets[@]}" >"$build_dir/demo-build.log" 2>&1 || {
  tail -n 50 "$build_dir/demo-build.log" >&2
  exit 1
}

if [[ $# -gt 0 ]]; then
  echo "demo.sh: steplint check $1"
  status=0
  "$steplint" check "$1" || status=$?
  # Exit code 1 means "findings", which is what a demo trace is for.
  if [[ $status -gt 1 ]]; then exit "$status"; fi
  exit 0
fi

device=cpu
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then device=cuda; fi
mkdir -p "$build_dir/demo"
trace="$build_dir/demo/slow_trainer.pt.trace.json.gz"
echo "demo.sh: $steplint record -o $trace -- $build_dir/samples/slow_trainer --device $device --steps ${STEPLINT_DEMO_STEPS:-20} --steplint-steps"
echo
"$steplint" record -o "$trace" -- "$build_dir/samples/slow_trainer" --device "$device" \
  --steps "${STEPLINT_DEMO_STEPS:-20}" --steplint-steps
echo
echo "Trace: $(realpath "$trace") (open it in https://ui.perfetto.dev too)"
echo "Look at it:          cmake --build $build_dir --target steplint-gui && $build_dir/gui/app/steplint-gui $trace"
echo "Step-time breakdown: $steplint summary $trace"
echo "Explain a finding:   $steplint explain SL101"
echo "The fixed twin:      $steplint record -- $build_dir/samples/fast_trainer --device $device --steplint-steps"
