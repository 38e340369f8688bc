#!/usr/bin/env bash
# The main job until the collector exists: build steplint, make a demo trace and print its
# summary (steps, step-time breakdown, GPU utilisation, idle time, top kernels).
#
#   bash scripts/demo.sh                 # synthetic trace from steplint-tracegen
#   bash scripts/demo.sh my.pt.trace.json.gz   # your own torch.profiler trace
#   STEPLINT_DEMO_STEPS=50 bash scripts/demo.sh
#
# Trace source, first that exists: the argument; build/bench/steplint-tracegen; the shared
# ResNet-50 reference trace (../shared/fixtures or $STEPLINT_FIXTURES); tests/data/cli/tiny_steps.json.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
repo=$(pwd)

bash scripts/install-deps.sh

preset=${STEPLINT_PRESET:-default}
if [[ "$preset" == "default" ]]; then default_dir=build; else default_dir="build-$preset"; fi
build_dir=${STEPLINT_BUILD_DIR:-$default_dir}
jobs=${STEPLINT_JOBS:-2}

echo "demo.sh: building steplint in $build_dir (a few minutes the first time; log: $build_dir/demo-build.log)"
mkdir -p "$build_dir"
cmake --preset "$preset" -B "$build_dir" >"$build_dir/demo-configure.log" 2>&1 || {
  cat "$build_dir/demo-configure.log" >&2
  exit 1
}
targets=(steplint)
if cmake --build "$build_dir" --target help 2>/dev/null | grep -q '^steplint-tracegen:'; then
  targets+=(steplint-tracegen)
fi
cmake --build "$build_dir" -j "$jobs" --target "${targets[@]}" >"$build_dir/demo-build.log" 2>&1 || {
  tail -n 50 "$build_dir/demo-build.log" >&2
  exit 1
}

fixtures=${STEPLINT_FIXTURES:-$repo/../shared/fixtures}
reference="$fixtures/kineto/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz"
tracegen="$build_dir/bench/steplint-tracegen"
if [[ $# -gt 0 ]]; then
  trace=$1
  origin="given on the command line"
elif [[ -x "$tracegen" ]]; then
  mkdir -p "$build_dir/demo"
  trace="$build_dir/demo/demo.pt.trace.json.gz"
  "$tracegen" --steps "${STEPLINT_DEMO_STEPS:-10}" --gzip -o "$trace"
  origin="synthetic, written by $tracegen"
elif [[ -f "$reference" ]]; then
  trace=$reference
  origin="shared reference trace (ResNet-50 on a V100, torch.profiler 2021)"
else
  trace="tests/data/cli/tiny_steps.json"
  origin="tiny hand-written trace from the test data"
fi

echo "demo.sh: steplint summary $trace"
echo
"$build_dir/cli/steplint" summary "$trace"
echo
echo "demo.sh: steplint check $trace"
echo
# Exit code 1 means "findings" here, which is what the demo trace is for.
status=0
"$build_dir/cli/steplint" check "$trace" || status=$?
if [[ $status -gt 1 ]]; then exit "$status"; fi
echo
echo "Trace: $(realpath "$trace") ($origin)"
echo "Open it in https://ui.perfetto.dev, or run: $build_dir/cli/steplint summary --format json $trace"
echo "Explain a finding: $build_dir/cli/steplint explain SL101"
