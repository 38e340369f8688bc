#include "sample_options.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace steplint::samples {
namespace {

void printUsage(const char* program) {
  std::fprintf(
      stderr,
      "usage: %s [--device cpu|cuda] [--steps N] [--steplint-steps]\n"
      "          [--legacy-profile FILE] [--kineto-profile FILE] [--exit-code N]\n"
      "          [--sleep-after-step-ms N] [--hold-mb-per-step N] [--workers N]\n"
      "          [--mistakes all|none|NAME[,NAME...]] [--fix NAME[,NAME...]]  (slow_trainer)\n"
      "  mistake names: %s\n",
      program, mistakeNamesForUsage().c_str());
}

// --mistakes and --fix: an unknown name is named before the usage text, which lists them all.
bool parseMistakes(const char* program, const char* flag, const char* value, MistakeSet* out) {
  std::string bad;
  if (MistakeSet::parse(value, out, &bad)) return true;
  std::fprintf(stderr, "%s: unknown mistake '%s' in %s\n", program, bad.c_str(), flag);
  return false;
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
  MistakeSet fixed = MistakeSet::none();
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
    } else if (std::strcmp(arg, "--mistakes") == 0) {
      ok = parseMistakes(argv[0], arg, value, &options->mistakes);
      options->mistakes_given = true;
    } else if (std::strcmp(arg, "--fix") == 0) {
      MistakeSet more = MistakeSet::none();
      ok = parseMistakes(argv[0], arg, value, &more);
      fixed = fixed.with(more);
      options->mistakes_given = true;
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
  // --fix applies after --mistakes whatever their order: "all but these".
  options->mistakes = options->mistakes.minus(fixed);
  return true;
}

void printMistakes(const char* name, const MistakeSet& mistakes, int64_t batch) {
  std::printf("%s: mistakes %s (batch %lld)\n", name, mistakes.names().c_str(),
              static_cast<long long>(batch));
  std::fflush(stdout);
}

void printStepTime(const char* name, int64_t steps, double mean_step_ms) {
  std::printf("%s: %lld steps, mean step %.4f ms (after warm-up)\n", name,
              static_cast<long long>(steps), mean_step_ms);
  std::fflush(stdout);
}

}  // namespace steplint::samples
