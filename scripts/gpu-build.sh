#!/usr/bin/env bash
# Builds steplint on a GPU machine against the torch 2.x of its Python (collector, samples,
# CLI, tests), then runs the tests. No GUI. Needs .gpu-deps from scripts/gpu-deps.sh for the
# analysis side; without it only the collector and samples are built (-DSTEPLINT_ANALYZER=OFF).
#
#   bash scripts/gpu-build.sh            # -> build-gpu/
#   STEPLINT_GPU_TESTS=0 bash scripts/gpu-build.sh   # build only
#   STEPLINT_GPU_TARGETS="steplint slow_trainer" ...  # only these targets (and no tests)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
build_dir=${STEPLINT_BUILD_DIR:-build-gpu}
torch_prefix=$(python3 -c 'import torch; print(torch.utils.cmake_prefix_path)')
prefix="$torch_prefix"
analyzer=OFF
if [[ -d .gpu-deps/usr ]]; then
  deps=$PWD/.gpu-deps/usr
  prefix="$prefix;$deps;$deps/lib/x86_64-linux-gnu/cmake;$deps/share/cmake;$deps/lib/cmake"
  export CPATH=$deps/include${CPATH:+:$CPATH}
  export LD_LIBRARY_PATH=$deps/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
  analyzer=ON
fi
echo "gpu-build: torch $(python3 -c 'import torch; print(torch.__version__)'), analyzer=$analyzer, $build_dir"
cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_PREFIX_PATH="$prefix" -DSTEPLINT_ANALYZER=$analyzer -DSTEPLINT_BUILD_BENCH=ON \
  -DCUDAToolkit_ROOT=/usr/local/cuda ${STEPLINT_GPU_CMAKE_ARGS:-}
targets=()
for t in ${STEPLINT_GPU_TARGETS:-}; do targets+=(--target "$t"); done
cmake --build "$build_dir" -j "$(nproc)" "${targets[@]}"
if [[ "${STEPLINT_GPU_TESTS:-1}" == "1" && "$analyzer" == "ON" && ${#targets[@]} -eq 0 ]]; then
  ctest --test-dir "$build_dir" --output-on-failure -j 8 --timeout 300
fi
