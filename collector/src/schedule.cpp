#include "schedule.h"

namespace steplint::collector {

Schedule::Schedule(const ScheduleConfig& config)
    : config_(config), phase_(config.enabled ? SchedulePhase::kWait : SchedulePhase::kActive) {}

SchedulePhase Schedule::phaseOf(int64_t k) const noexcept {
  if (!config_.enabled) return SchedulePhase::kActive;
  const int64_t active = config_.active < 1 ? 1 : config_.active;
  const int64_t cycle = config_.wait + config_.warmup + active;
  if (config_.repeat > 0 && k / cycle >= config_.repeat) return SchedulePhase::kDone;
  const int64_t pos = k % cycle;
  if (pos < config_.wait) return SchedulePhase::kWait;
  if (pos < config_.wait + config_.warmup) return SchedulePhase::kWarmup;
  return SchedulePhase::kActive;
}

SchedulePhase Schedule::onStepBegin() noexcept {
  phase_ = phaseOf(steps_);
  ++steps_;
  return phase_;
}

const char* schedulePhaseName(SchedulePhase phase) noexcept {
  switch (phase) {
    case SchedulePhase::kWait:
      return "wait";
    case SchedulePhase::kWarmup:
      return "warmup";
    case SchedulePhase::kActive:
      return "active";
    case SchedulePhase::kDone:
      return "done";
  }
  return "?";
}

}  // namespace steplint::collector
