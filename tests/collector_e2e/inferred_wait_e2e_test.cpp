// SL101 on LibTorch trainers recorded without step or DataLoader markers (#16): the inferred
// input wait (docs/analyses.md §2b) against the DataLoader wait a marked run measures.
#include <catch2/catch.hpp>

#include <fstream>
#include <map>
#include <utility>

#include "e2e_support.h"
#include "steplint/analyzer/breakdown.h"

namespace steplint::e2e {
namespace {

double measuredWaitMs(const LintedTrace& t) {
  return t.summary.breakdown.average_ns[static_cast<size_t>(analyzer::StepCategory::kDataLoader)] /
         1e6;
}

/// The mean inferred input wait of `stripped` and the mean measured DataLoader wait of
/// `marked` over the step numbers both runs kept.
std::pair<double, double> commonStepWaitsMs(const LintedTrace& stripped,
                                            const LintedTrace& marked) {
  std::map<int64_t, double> measured;
  const auto& marked_steps = marked.summary.steps.steps;
  for (size_t i = 0; i < marked_steps.size(); ++i)
    measured[marked_steps[i].number] =
        static_cast<double>(marked.summary.breakdown.per_step[i]
                                .ns[static_cast<size_t>(analyzer::StepCategory::kDataLoader)]);
  double inferred_sum = 0, measured_sum = 0;
  int common = 0;
  const auto& steps = stripped.summary.steps.steps;
  const auto& per_step = stripped.summary.input_wait.per_step_ns;
  for (size_t i = 0; i < steps.size() && i < per_step.size(); ++i) {
    const auto it = measured.find(steps[i].number);
    if (it == measured.end()) continue;
    inferred_sum += static_cast<double>(per_step[i]);
    measured_sum += it->second;
    ++common;
  }
  REQUIRE(common >= 5);
  return {inferred_sum / common / 1e6, measured_sum / common / 1e6};
}

bool isMarker(const std::string& name) {
  return name.rfind("ProfilerStep#", 0) == 0 || name.rfind("enumerate(DataLoader)#", 0) == 0;
}

/// The marked recording `marked` with its ProfilerStep and DataLoader ranges removed: the same
/// run as `steplint record` would have written it without markers (steps are then detected).
const LintedTrace& withoutMarkers(const LintedTrace& marked, const std::string& name,
                                  LintedTrace& out) {
  nlohmann::json json = marked.json;
  nlohmann::json kept = nlohmann::json::array();
  for (const nlohmann::json& e : json["traceEvents"])
    if (!isMarker(e.value("name", ""))) kept.push_back(e);
  json["traceEvents"] = std::move(kept);
  const std::string path = scratchPath(name);
  std::ofstream(path) << json.dump();
  std::string error;
  if (!lintTrace(path, out, &error)) FAIL(error);
  return out;
}

}  // namespace

TEST_CASE("slow_trainer without markers: SL101 infers the DataLoader wait the marked run measures",
          "[torch]") {
  const LintedTrace& marked =
      recordSample("loader_marked.json", {SLOW_TRAINER, "--steps", "12", "--steplint-steps"});
  const analyzer::Diagnostic* measured = marked.finding("SL101");
  REQUIRE(measured != nullptr);
  CHECK(measured->evidence.metric("dataloader_inferred", 0) == 0);

  // The same run without its markers. Measured on 20-step runs: +2.2 % (the fetch's last ops
  // before zero_grad, and the idle end of the marked run's first step that detection gives
  // to the second); 15 % allows for that on 12 steps.
  LintedTrace stripped_run;
  const LintedTrace& stripped = withoutMarkers(marked, "loader_stripped.json", stripped_run);
  REQUIRE(stripped.summary.steps.source == analyzer::StepSource::kDetected);
  const analyzer::Diagnostic* inferred = stripped.finding("SL101");
  REQUIRE(inferred != nullptr);
  INFO(inferred->message << "\n" << inferred->saving.method);
  CHECK(inferred->evidence.metric("dataloader_inferred") == 1);
  CHECK(inferred->message.find("inferred: no DataLoader ranges") != std::string::npos);
  CHECK(inferred->evidence.metric("dataloader_ms_per_step") ==
        Approx(measuredWaitMs(marked)).epsilon(0.15));
  CHECK(inferred->saving.per_step_ms > 0.5 * measured->saving.per_step_ms);

  // A recording that never had markers: another run, so the machine's noise is in the
  // difference (46 % inferred against 51 % measured on a 2-core machine).
  const LintedTrace& unmarked =
      recordSample("loader_unmarked.json", {SLOW_TRAINER, "--steps", "12"});
  const analyzer::Diagnostic* own = unmarked.finding("SL101");
  REQUIRE(own != nullptr);
  INFO(own->message);
  CHECK(own->evidence.metric("dataloader_inferred") == 1);
  CHECK(own->evidence.metric("dataloader_fraction") ==
        Approx(measured->evidence.metric("dataloader_fraction")).margin(0.15));
}

TEST_CASE("slow_trainer with loader workers: the inferred wait matches the marked run's",
          "[torch]") {
  const LintedTrace& marked = recordSample(
      "workers_marked.json", {SLOW_TRAINER, "--steps", "12", "--workers", "2", "--steplint-steps"});
  LintedTrace stripped_run;
  const LintedTrace& stripped = withoutMarkers(marked, "workers_stripped.json", stripped_run);
  INFO(stripped.summary.input_wait.reason);
  REQUIRE(stripped.summary.input_wait.inferred);
  INFO(stripped.summary.input_wait.method());
  // Over the steps both keep: the start-up step may be dropped as warm-up in one and not the
  // other (on a loaded machine its 25 ms wait then decided the comparison). Measured on 20
  // steps: 1.936 ms inferred, 1.876 measured. Small waits: an absolute margin.
  const auto [inferred_ms, measured_ms] = commonStepWaitsMs(stripped, marked);
  CHECK(inferred_ms == Approx(measured_ms).margin(1.0));
}

TEST_CASE("fast_trainer without markers: no inferred DataLoader wait", "[torch]") {
  const LintedTrace& fast = recordSample("fast_unmarked.json", {FAST_TRAINER, "--steps", "12"});
  CHECK(fast.summary.input_wait.inferred);
  CHECK_FALSE(fast.notChecked("SL101"));
  CHECK(fast.finding("SL101") == nullptr);
}

}  // namespace steplint::e2e
