#include <catch2/catch.hpp>

#include "../rule_fixtures.h"
#include "kineto_trace.h"

namespace steplint::test {
namespace {

// Each step: `syncs` rounds of (kernel of 1 ms, cudaStreamSynchronize that waits for it,
// next launch 200 µs after the kernel ended), then a final kernel.
std::string syncSteps(int syncs, int steps = 3) {
  KinetoTrace t;
  t.device(0);
  forEachStep(t, steps, 20000, [&](int, double b) {
    double at = b + 100;
    for (int i = 0; i < syncs; ++i) {
      t.op("aten::mm", at, 50).kernel(at + 10, 10, at + 100, 1000);  // kernel [at+100, at+1100)
      t.runtime("cudaStreamSynchronize", at + 200, 910);             // returns at at+1110
      at += 1300;                                                    // next kernel at (at+1300)+100
    }
    t.op("aten::add", at, 50).kernel(at + 10, 10, at + 100, 100);
  });
  return t.str();
}

TEST_CASE("SL206: three synchronize calls per step exceed the default of two", "[rules][SL206]") {
  const RuleRun run = runRuleOnJson("SL206", syncSteps(3));
  REQUIRE(run.diagnostics.size() == 1);
  const auto& d = run.diagnostics[0];
  CHECK(
      d.message ==
      "3 synchronize calls per step (3 cudaStreamSynchronize; 3 explicit) block the host 2.73 ms/step "
      "and leave the GPU idle 0.90 ms/step");
  CHECK(d.severity == analyzer::Severity::kWarning);
  // Replayed: each synchronize [at+200, at+1110) stops waiting for its kernel; 3 x 900 µs of the
  // host's 20 ms step (the GPU needs 3.1 ms of it).
  CHECK(d.saving.per_step_ms == Approx(2.7).margin(1e-6));
  CHECK(d.evidence.metric("syncs_per_step") == Approx(3));
  CHECK(d.fingerprint_key == "synchronize-calls");
}

TEST_CASE("SL206: the syncs shown are the first in time, whatever order the file lists its threads",
          "[rules][SL206]") {
  // 24 syncs on two threads, more than the 20 a finding shows: the model numbers its tracks as
  // the file first names them, and the evidence once followed that numbering.
  KinetoTrace t;
  t.device(0);
  forEachStep(t, 8, 20000, [&](int, double b) {
    for (int i = 0; i < 3; ++i) {
      const double at = b + 100 + 1300 * i;
      t.op("aten::mm", at, 50).kernel(at + 10, 10, at + 100, 1000);
      t.runtime("cudaStreamSynchronize", at + 200, 910, 1 + i % 2);
    }
  });
  const std::string json = t.str();
  // The same events listed backwards.
  const size_t open = json.find("[\n") + 2, close = json.rfind("\n]");
  std::vector<std::string> events;
  for (size_t at = open; at < close;) {
    const size_t end = std::min(json.find(",\n", at), close);
    events.push_back(json.substr(at, end - at));
    at = end + 2;
  }
  std::string backwards = json.substr(0, open);
  for (size_t i = events.size(); i-- > 0;) backwards += events[i] + (i ? ",\n" : "");
  backwards += json.substr(close);
  const RuleRun run = runRuleOnJson("SL206", json, {{"max-syncs-per-step", 1.0}});
  const RuleRun reversed = runRuleOnJson("SL206", backwards, {{"max-syncs-per-step", 1.0}});
  REQUIRE(run.diagnostics.size() == 1);
  REQUIRE(reversed.diagnostics.size() == 1);
  const auto& ranges = run.diagnostics[0].evidence.ranges;
  REQUIRE(ranges.size() == 20);
  for (size_t i = 1; i < ranges.size(); ++i) CHECK(ranges[i - 1].start_ns < ranges[i].start_ns);
  const auto& other = reversed.diagnostics[0].evidence.ranges;
  REQUIRE(other.size() == 20);
  for (size_t i = 0; i < ranges.size(); ++i) CHECK(other[i].start_ns == ranges[i].start_ns);
}

TEST_CASE("SL206: two per step is within the default, the option lowers it", "[rules][SL206]") {
  CHECK(runRuleOnJson("SL206", syncSteps(2)).diagnostics.empty());
  CHECK(runRuleOnJson("SL206", syncSteps(2), {{"max-syncs-per-step", 1.0}}).diagnostics.size() ==
        1);
}

TEST_CASE("SL206: ResNet-50 has exactly two synchronizes per step (the input copies)",
          "[rules][SL206][fixture]") {
  CHECK(runRuleOnFixture("SL206", kResnetWorkers0).diagnostics.empty());
  const RuleRun strict = runRuleOnFixture("SL206", kResnetWorkers0, {{"max-syncs-per-step", 1.0}});
  REQUIRE(strict.diagnostics.size() == 1);
  // The profiler's own cudaDeviceSynchronize after the last ProfilerStep does not count.
  CHECK(strict.diagnostics[0].message.rfind(
            "2 synchronize calls per step (2 cudaStreamSynchronize; 0 explicit)", 0) == 0);
  // None is explicit: nothing for this fix to remove, and the finding says so instead of a
  // number, as a note.
  CHECK(strict.diagnostics[0].saving.per_step_ms < 0);
  CHECK(strict.diagnostics[0].severity == analyzer::Severity::kNote);
  CHECK(strict.diagnostics[0].saving.method.rfind("no separate saving: none of these syncs", 0) ==
        0);
}

TEST_CASE("SL206: the CPU-only HTA trace is not checked", "[rules][SL206][fixture]") {
  CHECK(runRuleOnFixture("SL206", kCpuOnly).not_checked ==
        std::vector<std::string>{"no GPU activity in this trace"});
}

// DDP over gloo on GPU tensors, per 20 ms step: DDP's forward first waits for the previous
// step's all-reduce (an event sync before the model's first op), the model runs, a user's own
// torch.cuda.synchronize() follows its first op, and the backend's all-reduce syncs twice on
// its own thread inside gloo:all_reduce. Each sync waits for a 1 ms kernel.
std::string ddpOverGloo() {
  KinetoTrace t;
  t.device(0);
  forEachStep(t, 3, 20000, [&](int, double b) {
    t.annotation("DistributedDataParallel.forward", b + 100, 6000);
    t.runtime("cudaEventSynchronize", b + 110, 50);
    t.op("aten::linear", b + 200, 100).kernel(b + 210, 10, b + 300, 1000);
    t.runtime("cudaDeviceSynchronize", b + 400, 910);  // the user's, inside the model
    t.op("aten::relu", b + 1400, 50).kernel(b + 1410, 10, b + 1500, 1000);
    t.annotation("gloo:all_reduce", b + 8000, 3000, 2);
    t.runtime("cudaStreamSynchronize", b + 8100, 100, 2);
    t.runtime("cudaStreamSynchronize", b + 9100, 100, 2);
  });
  return t.str();
}

TEST_CASE("SL206 and SL202: the communication backend's own syncs are told apart (#14)",
          "[rules][SL206][SL202]") {
  const RuleRun run = runRuleOnJson("SL206", ddpOverGloo());
  REQUIRE(run.diagnostics.size() == 1);
  const auto& d = run.diagnostics[0];
  INFO(d.message);
  CHECK(d.evidence.metric("syncs_per_step") == Approx(4));
  CHECK(d.evidence.metric("explicit_syncs_per_step") == Approx(1));  // the user's only
  CHECK(d.evidence.metric("backend_syncs_per_step") == Approx(3));
  CHECK(
      d.message.find("; 3 of them the communication backend's own (gloo on GPU tensors: SL502)") !=
      std::string::npos);
  // SL202 counts the user's synchronize, not the backend's: those go with a faster backend.
  const RuleRun sl202 = runRuleOnJson("SL202", ddpOverGloo());
  REQUIRE(sl202.diagnostics.size() == 1);
  CHECK(sl202.diagnostics[0].evidence.metric("syncs_per_step") == Approx(1));
  CHECK(sl202.diagnostics[0].evidence.metric("syncs_per_step_communication backend") == 0);
}

}  // namespace
}  // namespace steplint::test
