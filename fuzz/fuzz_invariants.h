// What the fuzz targets hold steplint's results to (docs/fuzzing.md), shared by the targets that
// run the rules. Header-only with internal linkage: the robustness tests compile several targets
// into one executable (tests/robustness/CMakeLists.txt).
#pragma once

#include <cmath>

#include "steplint/analyzer/lint.h"

namespace steplint::fuzz {
namespace {

// A saving is a share of the step: known ones lie in [0, 1] and add up to at most the step;
// no figure is NaN (docs/savings.md).
inline bool badShare(double fraction) {
  return std::isnan(fraction) || (fraction >= 0 && fraction > 1 + 1e-9);
}

inline void checkSavings(const analyzer::LintResult& lint) {
  double sum = 0;
  for (const analyzer::Diagnostic& d : lint.diagnostics) {
    if (badShare(d.saving.fraction_of_step) || std::isnan(d.saving.per_step_ms)) __builtin_trap();
    if (d.saving.fraction_of_step > 0) sum += d.saving.fraction_of_step;
  }
  if (badShare(lint.saving_all.fraction_of_step) || sum > 1 + 1e-6) __builtin_trap();
}

}  // namespace
}  // namespace steplint::fuzz
