// torch.profiler.schedule(wait, warmup, active, repeat) as a state machine over step begins.
//
// Steps are counted by onStepBegin() (the k-th call is step k, whatever number the trainer
// gives it). With cycle = wait + warmup + active, step k is in cycle k / cycle and at position
// k % cycle: position < wait → kWait, < wait + warmup → kWarmup, else kActive; after `repeat`
// cycles (repeat > 0) every step is kDone. Example wait=1 warmup=1 active=2 repeat=1:
//   step:  0     1       2       3       4     5 ...
//   phase: wait  warmup  active  active  done  done
// Before the first step begins the phase is kWait (kActive without a schedule: record all).
#pragma once

#include <cstdint>

#include "config.h"

namespace steplint::collector {

enum class SchedulePhase : uint8_t { kWait, kWarmup, kActive, kDone };

class Schedule {
 public:
  explicit Schedule(const ScheduleConfig& config = {});
  /// Advances to the next step and returns its phase.
  SchedulePhase onStepBegin() noexcept;
  SchedulePhase phase() const noexcept { return phase_; }
  /// Events are kept only in kActive.
  bool capturing() const noexcept { return phase_ == SchedulePhase::kActive; }
  /// Whether a schedule was asked for at all (else every step is kActive).
  bool scheduled() const noexcept { return config_.enabled; }
  /// Steps begun so far.
  int64_t stepsSeen() const noexcept { return steps_; }

 private:
  SchedulePhase phaseOf(int64_t k) const noexcept;

  ScheduleConfig config_;
  int64_t steps_ = 0;
  SchedulePhase phase_;
};

const char* schedulePhaseName(SchedulePhase phase) noexcept;

}  // namespace steplint::collector
