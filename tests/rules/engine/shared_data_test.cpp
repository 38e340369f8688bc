// The per-trace indices the rules share through AnalysisContext::shared()
// (rules/src/common/shared_data.h): per-kind event lists, launch call -> device op, and that
// each is built once per context.
#include <catch2/catch.hpp>

#include "../rule_test_util.h"
#include "common/shared_data.h"
#include "kineto_trace.h"

namespace {

using steplint::trace::EventKind;
using steplint::trace::kNoIndex;
namespace common = steplint::rules::common;

steplint::trace::TraceModel smallTrace() {
  steplint::test::KinetoTrace t;
  t.device(0).step(1, 0, 1000).op("aten::mm", 10, 200);
  t.kernel(20, 10, 100, 50);
  t.copy("HtoD", "Pageable", "Device", 60, 10, 300, 20, 4096);
  t.runtime("cudaStreamSynchronize", 80, 30);
  return steplint::test::importInline(t.str());
}

}  // namespace

TEST_CASE("KindIndex lists each kind's events in event order", "[shared-data]") {
  const auto model = smallTrace();
  const steplint::analyzer::TraceSummary summary = steplint::analyzer::summarize(model);
  const steplint::analyzer::AnalysisContext context(model, summary);
  const common::KindIndex& kinds = common::kindIndex(context);
  CHECK(&kinds == &common::kindIndex(context));  // built once, then shared
  size_t total = 0;
  for (int k = 0; k < steplint::trace::kEventKindCount; ++k) {
    const auto& list = kinds.of(static_cast<EventKind>(k));
    total += list.size();
    for (size_t i = 0; i < list.size(); ++i) {
      CHECK(model.events[list[i]].kind == static_cast<EventKind>(k));
      if (i > 0) CHECK(list[i - 1] < list[i]);
    }
  }
  CHECK(total == model.events.size());
  REQUIRE(kinds.of(EventKind::kKernel).size() == 1);
  REQUIRE(kinds.of(EventKind::kMemcpy).size() == 1);
  CHECK(kinds.device_ops.size() == 2);
  CHECK(kinds.of(EventKind::kRuntime).size() == 3);
}

TEST_CASE("LaunchIndex maps each launch call to its device op", "[shared-data]") {
  const auto model = smallTrace();
  const steplint::analyzer::TraceSummary summary = steplint::analyzer::summarize(model);
  const steplint::analyzer::AnalysisContext context(model, summary);
  const common::LaunchIndex& launches = common::launchIndex(context);
  CHECK(&launches == &common::launchIndex(context));
  for (uint32_t i = 0; i < model.events.size(); ++i) {
    const auto& e = model.events[i];
    if (e.kind != EventKind::kRuntime) {
      CHECK(launches.deviceOpOf(i) == kNoIndex);
      continue;
    }
    const std::string_view name = model.name(e);
    if (name == "cudaStreamSynchronize") CHECK(launches.deviceOpOf(i) == kNoIndex);
    if (name == "cudaLaunchKernel")
      CHECK(model.events[launches.deviceOpOf(i)].kind == EventKind::kKernel);
    if (name == "cudaMemcpyAsync")
      CHECK(model.events[launches.deviceOpOf(i)].kind == EventKind::kMemcpy);
  }
  CHECK(launches.deviceOpOf(static_cast<uint32_t>(model.events.size()) + 5) == kNoIndex);
}
