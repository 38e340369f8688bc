#!/usr/bin/env bash
# CI's second half, after scripts/test.sh passed (.ci/run): the formatting of the lines the
# change touches (scripts/check-format.sh), the importer-facing tests under ASan + UBSan, then
# short libFuzzer runs of the four targets over their seed corpora (docs/fuzzing.md). Exits non-zero on a
# formatting violation, any test failure, sanitizer report, or fuzzer crash, leak, timeout or
# OOM.
# Prints how long each step took; CI has 90 minutes on 2 cores for everything.
#
#   bash scripts/ci-extra.sh                        # all three steps
#   STEPLINT_CI_EXTRA=asan bash scripts/ci-extra.sh # only some: format, asan, fuzz
#   STEPLINT_FUZZ_SECONDS=600 bash scripts/ci-extra.sh   # seconds per fuzz target
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

steps=${STEPLINT_CI_EXTRA:-format asan fuzz}
jobs=${STEPLINT_JOBS:-2}
fuzz_seconds=${STEPLINT_FUZZ_SECONDS:-60}
# Only the executables that read untrusted traces and compute on them: the importer (trace,
# robustness), the analyzer and the rules. The collector, CLI and GUI tests need LibTorch,
# subprocesses or a display and gain little from a sanitizer rebuild in CI's time.
asan_targets=(steplint_trace_tests steplint_analyzer_tests steplint_rules_tests steplint_robustness_tests)
asan_tests='^steplint_(trace|analyzer|rules|robustness)_tests:'

timings=()
timed() {
  local name=$1
  shift
  local start=$SECONDS
  echo "ci-extra: ${name}"
  "$@"
  timings+=("$(printf '%-28s %5d s' "$name" $((SECONDS - start)))")
}

print_timings() {
  echo "ci-extra: timings (wall)"
  local line
  for line in "${timings[@]}"; do echo "  $line"; done
  echo "ci-extra: CPU time of this script, then of its children (user, system):"
  times
}
trap print_timings EXIT

bash scripts/install-deps.sh  # clang, libclang-rt-14-dev (libFuzzer), clang-format are in its list

if [[ " $steps " == *" format "* ]]; then
  timed "format (changed lines)" bash scripts/check-format.sh
fi

if [[ " $steps " == *" asan "* ]]; then
  timed "asan configure" cmake --preset asan -B build-asan
  timed "asan build (4 test targets)" cmake --build build-asan -j "$jobs" --target "${asan_targets[@]}"
  # CTest's asan preset sets ASAN_OPTIONS (leak detection, abort on error) and UBSAN_OPTIONS.
  timed "asan tests" ctest --preset asan -R "$asan_tests" -j "$jobs" --timeout 900
fi

if [[ " $steps " == *" fuzz "* ]]; then
  # libFuzzer needs clang for the whole tree; only the fuzzers and the libraries they test are
  # built: the importer, then the analyses and rules on what it accepts, then the job side, then
  # the config and baseline files with the rules they set.
  # Line tables only (-g1), as the ci and asan presets: enough for the sanitizers' reports.
  timed "fuzz configure (clang)" env CC=clang CXX=clang++ cmake -S . -B build-fuzz -G Ninja \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSTEPLINT_BUILD_FUZZ=ON -DSTEPLINT_SANITIZE=ON \
    "-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O2 -g1 -DNDEBUG" "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -g1 -DNDEBUG" \
    -DSTEPLINT_BUILD_TESTS=OFF -DSTEPLINT_BUILD_BENCH=OFF -DSTEPLINT_BUILD_SAMPLES=OFF -DSTEPLINT_BUILD_GUI=OFF \
    -DSTEPLINT_WITH_TORCH=OFF -DSTEPLINT_WITH_CUPTI=OFF -DSTEPLINT_WITH_NVTX=OFF
  timed "fuzz build" cmake --build build-fuzz -j "$jobs" \
    --target kineto_import_fuzzer analysis_fuzzer job_fuzzer config_fuzzer
  # New inputs go to the first directory (build-fuzz/corpus-<target>), so the seeds in git stay
  # as they are. Findings land in build-fuzz/artifacts/ as <target>-crash-*, -leak-*, -timeout-*
  # or -oom-*: libFuzzer then exits non-zero, and so does this script. -timeout: no seed takes
  # 1 s even under ASan.
  fuzz_run() {  # target seed-dir dictionary
    mkdir -p "build-fuzz/corpus-$1" build-fuzz/artifacts
    timed "fuzz run $1 (${fuzz_seconds} s)" "build-fuzz/fuzz/$1" -dict="$3" \
      -max_total_time="$fuzz_seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
      -artifact_prefix="build-fuzz/artifacts/$1-" "build-fuzz/corpus-$1" "$2"
  }
  fuzz_run kineto_import_fuzzer fuzz/corpus fuzz/dict
  fuzz_run analysis_fuzzer fuzz/corpus_analysis fuzz/dict
  fuzz_run job_fuzzer fuzz/corpus_job fuzz/job.dict
  fuzz_run config_fuzzer fuzz/corpus_config fuzz/config.dict
fi
echo "ci-extra: passed"
