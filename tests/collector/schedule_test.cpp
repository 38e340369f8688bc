// The wait/warmup/active/repeat state machine (torch.profiler.schedule semantics).
#include <catch2/catch.hpp>

#include <string>

#include "schedule.h"

using steplint::collector::Schedule;
using steplint::collector::ScheduleConfig;
using steplint::collector::schedulePhaseName;

namespace {
std::string run(const ScheduleConfig& config, int steps) {
  Schedule s(config);
  std::string out = schedulePhaseName(s.phase());
  for (int i = 0; i < steps; ++i) out += std::string(" ") + schedulePhaseName(s.onStepBegin());
  return out;
}
ScheduleConfig make(int64_t wait, int64_t warmup, int64_t active, int64_t repeat) {
  ScheduleConfig c;
  c.enabled = true;
  c.wait = wait;
  c.warmup = warmup;
  c.active = active;
  c.repeat = repeat;
  return c;
}
}  // namespace

TEST_CASE("schedule: without a schedule everything is captured") {
  Schedule s;
  CHECK(s.capturing());
  for (int i = 0; i < 5; ++i) CHECK(s.onStepBegin() == steplint::collector::SchedulePhase::kActive);
}

TEST_CASE("schedule: one cycle then done") {
  CHECK(run(make(1, 1, 2, 1), 6) == "wait wait warmup active active done done");
}

TEST_CASE("schedule: repeat 2 runs two cycles") {
  CHECK(run(make(1, 0, 1, 2), 6) == "wait wait active wait active done done");
}

TEST_CASE("schedule: repeat 0 cycles forever") {
  CHECK(run(make(0, 1, 1, 0), 7) == "wait warmup active warmup active warmup active warmup");
}

TEST_CASE("schedule: capturing only in active steps, step count advances") {
  Schedule s(make(2, 0, 1, 1));
  CHECK_FALSE(s.capturing());
  s.onStepBegin();
  s.onStepBegin();
  CHECK_FALSE(s.capturing());
  s.onStepBegin();
  CHECK(s.capturing());
  CHECK(s.stepsSeen() == 3);
  s.onStepBegin();
  CHECK_FALSE(s.capturing());
}
