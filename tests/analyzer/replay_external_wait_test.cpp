// The replay's waits that the trace does not explain (replay_external_wait.h): pinned to their
// place in the step in a single process, a latency after the launch in a job with peers.
#include <catch2/catch.hpp>

#include "steplint/analyzer/fix_effect.h"
#include "steplint/analyzer/replay.h"
#include "steplint/analyzer/steps.h"
#include "test_model.h"

using steplint::analyzer::StepReplay;
using steplint::test::TestTrace;
using steplint::trace::EventKind;

namespace {

/// Six 70 ms steps: a launch at 1 ms whose kernel starts at 60 ms (59 ms after its call
/// returned, on a free queue, no other op before it: a wait the trace does not show), a stream
/// sync from 1.1 ms until the kernel ends at 65 ms, then 5 ms of host work.
TestTrace externalWaitThenSync() {
  TestTrace t;
  for (int s = 0; s < 6; ++s) {
    const double at = 70'000.0 * s;
    t.step(s + 1, at, 70'000);
    t.launch(at + 1000, 10, at + 60'000, 5000);
    t.event(EventKind::kRuntime, "cudaStreamSynchronize", at + 1100, 63'900);
    t.op("aten::after", at + 65'000, 5000);
  }
  t.finalize();
  return t;
}

double syncRemovalSaving(const TestTrace& t) {
  const auto steps = steplint::analyzer::computeSteps(t.model);
  steplint::analyzer::FixEffect sync;
  for (uint32_t i = 0; i < t.model.events.size(); ++i)
    if (t.model.name(t.model.events[i]) == "cudaStreamSynchronize") sync.waits.push_back(i);
  const StepReplay replay(t.model, steps, {sync});
  CHECK(replay.replayWindowNs(0) == Approx(6 * 70e6).epsilon(1e-6));  // the recording, unchanged
  return replay.replayStepNs(0) - replay.replayStepNs(1);
}

}  // namespace

TEST_CASE("replay: a wait the trace does not explain keeps its place in a single process") {
  // Alone, the process waited for something outside it (another process's event, a server's
  // scheduler): removing the sync does not make that come sooner.
  TestTrace alone = externalWaitThenSync();
  CHECK(syncRemovalSaving(alone) < 2e6);
  // In a job of several ranks the wait is for peers that run the same program and take the same
  // fix: it stays a latency after the launch, the host runs ahead, the GPU's 5 ms bound the step.
  TestTrace job = externalWaitThenSync();
  job.model.metadata.distributed.world_size = 2;
  CHECK(syncRemovalSaving(job) == Approx(70e6 - 6.1e6).margin(1.5e6));
}
