// The synthetic trace generator (bench/tracegen) and the importer keep each other honest: the
// benchmark's numbers only mean something if the generated trace imports without repairs,
// drops or broken links.
#include <string>

#include <catch2/catch.hpp>

#include "robustness_support.h"
#include "steplint/trace/importer.h"
#include "tracegen/step_synth.h"

namespace {

using steplint::trace::EventKind;
using steplint::trace::Stat;
using steplint::trace::StatSeverity;
using steplint::trace::TraceModel;

std::string generate(int steps, uint64_t seed) {
  steplint::bench::SynthOptions options;
  options.seed = seed;
  steplint::bench::StepSynthesizer synth(options, steplint::bench::TraceLayout{});
  std::string out;
  synth.begin(out);
  for (int n = 1; n <= steps; ++n) synth.step(n, out);
  synth.end(out, "generated.pt.trace.json");
  return out;
}

size_t countKind(const TraceModel& model, EventKind kind) {
  size_t n = 0;
  for (const auto& e : model.events) n += e.kind == kind ? 1 : 0;
  return n;
}

}  // namespace

TEST_CASE("generated trace: imports with nothing repaired, dropped or unlinked",
          "[robustness][generator]") {
  constexpr int kSteps = 4;
  const std::string text = generate(kSteps, 1);
  TraceModel model;
  auto status = steplint::trace::importTraceBytes(text, model);
  INFO(status.message);
  REQUIRE(status.ok());
  CHECK(model.stats.total(StatSeverity::kError) == 0);
  CHECK(model.stats.total(StatSeverity::kDataLoss) == 0);
  CHECK(model.stats.get(Stat::overlapping_siblings) == 0);
  CHECK(model.stats.get(Stat::device_op_without_launch) == 0);
  CHECK(model.stats.get(Stat::launch_without_op) == 0);
  CHECK(model.stats.get(Stat::external_id_mismatch) == 0);

  // Default options: 53 conv/bn/relu layers -> 379 kernels, 3 copies and 4 memsets per step.
  CHECK(countKind(model, EventKind::kKernel) == kSteps * 379);
  CHECK(countKind(model, EventKind::kMemcpy) == kSteps * 3);
  CHECK(countKind(model, EventKind::kMemset) == kSteps * 4);
  CHECK(countKind(model, EventKind::kUserAnnotation) ==
        kSteps * 4);  // step, DataLoader, zero_grad, step()
  CHECK(model.memory_events.size() == kSteps * 216);
  CHECK(model.metadata.has_base_time);
  CHECK(model.metadata.devices.size() == 1);
  CHECK(model.metadata.distributed.rank == 0);
  CHECK(model.metadata.trace_name == "generated.pt.trace.json");
}

TEST_CASE("generated trace: same seed gives the same bytes", "[robustness][generator]") {
  CHECK(generate(2, 7) == generate(2, 7));
  CHECK(generate(2, 7) != generate(2, 8));
}
