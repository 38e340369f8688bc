#!/bin/sh
# Builds the pieces and runs the collector overhead benchmark once (docs/benchmarks.md).
#   bench/collector_overhead/run.sh [BUILD_DIR] [extra driver args...]
set -eu
build=${1:-build}
[ $# -gt 0 ] && shift
cmake --build "$build" -j2 --target steplint-collector-overhead fast_trainer steplint_preload steplint_collector
exec "$build/bench/steplint-collector-overhead" --trainer "$build/samples/fast_trainer" \
  --preload "$build/collector/libsteplint_preload.so" "$@"
