#include "sample_options.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace steplint::samples {
namespace {

void printUsage(const char* program) {
  std::fprintf(stderr,
               "usage: %s [--device cpu|cuda] [--steps N] [--steplint-steps]\n"
               "          [--legacy-profile FILE] [--kineto-profile FILE] [--exit-code N]\n"
               "          [--sleep-after-step-ms N] [--hold-mb-per-step N] [--workers N]\n",
               program);
}

bool parseInt(const char* text, int64_t min, int64_t* out) {
  char* end = nullptr;
  const long long v = std::strtoll(text, &end, 10);
  if (end == text || *end != '\0' || v < min) return false;
  *out = v;
  return true;
}

}  // namespace

bool parseSampleOptions(int argc, char** argv, SampleOptions* options) {
  for (int i = 1; i < argc; ++i) {
    const char* arg = argv[i];
    const char* value = i + 1 < argc ? argv[i + 1] : nullptr;
    int64_t number = 0;
    bool ok = true;
    if (std::strcmp(arg, "--steplint-steps") == 0) {
      options->steplint_steps = true;
      continue;
    }
    if (value == nullptr) {
      ok = false;
    } else if (std::strcmp(arg, "--device") == 0) {
      options->device = value;
      ok = options->device == "cpu" || options->device == "cuda";
    } else if (std::strcmp(arg, "--steps") == 0) {
      ok = parseInt(value, 1, &options->steps);
    } else if (std::strcmp(arg, "--legacy-profile") == 0) {
      options->legacy_profile = value;
    } else if (std::strcmp(arg, "--kineto-profile") == 0) {
      options->kineto_profile = value;
    } else if (std::strcmp(arg, "--exit-code") == 0) {
      ok = parseInt(value, 0, &number) && number < 256;
      options->exit_code = static_cast<int>(number);
    } else if (std::strcmp(arg, "--sleep-after-step-ms") == 0) {
      ok = parseInt(value, 0, &options->sleep_after_ms);
    } else if (std::strcmp(arg, "--workers") == 0) {
      ok = parseInt(value, 0, &options->workers) && options->workers <= 256;
    } else if (std::strcmp(arg, "--hold-mb-per-step") == 0) {
      ok = parseInt(value, 0, &options->hold_mb_per_step) && options->hold_mb_per_step <= 1024;
    } else {
      ok = false;
    }
    if (!ok) {
      std::fprintf(stderr, "%s: bad argument '%s'\n", argv[0], arg);
      printUsage(argv[0]);
      return false;
    }
    ++i;
  }
  return true;
}

void printStepTime(const char* name, int64_t steps, double mean_step_ms) {
  std::printf("%s: %lld steps, mean step %.4f ms (after warm-up)\n", name,
              static_cast<long long>(steps), mean_step_ms);
  std::fflush(stdout);
}

}  // namespace steplint::samples
