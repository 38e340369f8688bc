// What fixing one finding would change in the trace: the input of the step replay
// (replay.h), which turns it into that finding's saving (docs/savings.md).
#pragma once

#include <cstdint>
#include <vector>

#include "steplint/analyzer/intervals.h"

namespace steplint::analyzer {

/// What fixing one finding changes, in terms of the trace. A rule fills it from the evidence it
/// already collected; the replay turns it into a saving.
struct FixEffect {
  /// Host time that shrinks: the union of the CPU ranges the fix removes or speeds up (e.g. the
  /// DataLoader waits, the optimizer step, the zeroing of gradients).
  IntervalSet host_time;
  /// What remains of that host time after the fix: 0 = removed, 0.25 = four times faster.
  double host_factor = 1;
  /// GPU ops (event indices) whose duration shrinks, and what remains of it.
  std::vector<uint32_t> device_ops;
  double device_factor = 1;
  /// Host calls (event indices of sync API calls or blocking copy calls) that stop blocking.
  std::vector<uint32_t> waits;
  /// The factors at the pessimistic end of what the trace allows (e.g. the lower of two
  /// published speed-ups), for the low end of the saving's range; < 0: the same as above.
  double host_factor_worst = -1;
  double device_factor_worst = -1;

  bool empty() const { return host_time.empty() && device_ops.empty() && waits.empty(); }
};

}  // namespace steplint::analyzer
