#!/bin/sh
# Predicted vs measured saving per finding of the slow sample (docs/accuracy.md). Builds
# nothing: build the pieces first, then
#   bench/savings/run.sh [BUILD_DIR] [--device cpu|cuda] [--steps N] [--rounds N] [--keep DIR] [--strict]
# needs: cmake --build BUILD_DIR -j2 --target steplint slow_trainer steplint_preload steplint_collector
set -eu
exec python3 "$(dirname "$0")/savings.py" "$@"
