// Command line and timing report shared by the sample trainers (no torch headers here, so the
// samples keep one torch TU each).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "sample_mistakes.h"

namespace steplint::samples {

struct SampleOptions {
  std::string device = "cpu";   // --device cpu|cuda
  int64_t steps = 30;           // --steps N
  bool steplint_steps = false;  // --steplint-steps: mark steps with the linked API
  std::string legacy_profile;   // --legacy-profile FILE: torch's legacy profiler (benchmark)
  std::string kineto_profile;  // --kineto-profile FILE: Kineto, torch.profiler's engine (torch 2.x)
  int exit_code = 0;           // --exit-code N: exit status after training (tests)
  int64_t sleep_after_ms = 0;  // --sleep-after-step-ms N: stretch each step (SIGINT tests)
  int64_t hold_mb_per_step = 0;  // --hold-mb-per-step N: keep N MiB more every step (SL404 tests)
  int64_t workers = -1;  // --workers N: DataLoader worker threads (-1: the sample's own choice)
  // --mistakes all|none|NAME,... minus --fix NAME,...: slow_trainer's mistakes that are on.
  MistakeSet mistakes = MistakeSet::all();
  bool mistakes_given = false;  // either switch was on the command line (fast_trainer refuses)
};

/// The sample's worker count unless --workers overrides it.
inline size_t loaderWorkers(const SampleOptions& options, size_t sample_default) {
  return options.workers >= 0 ? static_cast<size_t>(options.workers) : sample_default;
}

/// Parses argv; on a bad or unknown argument prints usage to stderr and returns false.
bool parseSampleOptions(int argc, char** argv, SampleOptions* options);

/// Prints "<name>: mistakes <names> (batch <batch>)" — the startup line bench/savings reads.
void printMistakes(const char* name, const MistakeSet& mistakes, int64_t batch);

/// Prints "<name>: <steps> steps, mean step <ms> ms (after warm-up)" — the line the overhead
/// benchmark parses.
void printStepTime(const char* name, int64_t steps, double mean_step_ms);

}  // namespace steplint::samples
