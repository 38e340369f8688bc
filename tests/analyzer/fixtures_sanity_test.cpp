// Every shared real-world trace (CUDA, ROCm, CPU-only, Triton, ns-resolution, NCCL) must give
// a summary whose numbers are consistent, and that says what it could not compute.
#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <numeric>
#include <sstream>

#include "fixture_trace.h"
#include "steplint/analyzer/summary.h"

using namespace steplint;
using analyzer::StepCategory;

namespace {

struct Fixture {
  trace::TraceModel model;
  analyzer::TraceSummary summary;
  std::string text;
};

void load(const std::string& relative, Fixture& f) {
  test::importFixture(relative, f.model);
  f.summary = analyzer::summarize(f.model);
  std::ostringstream out;
  analyzer::printSummaryText(out, f.summary, f.model);
  f.text = out.str();
}

bool inUnitRange(double v) { return v >= 0.0 && v <= 1.0 + 1e-9; }

void checkSteps(const analyzer::TraceSummary& s) {
  for (size_t i = 0; i < s.steps.steps.size(); ++i) {
    const analyzer::Step& step = s.steps.steps[i];
    CHECK(step.end_ns >= step.start_ns);
    CHECK(step.start_ns >= step.host_start_ns);
    if (i > 0) CHECK(step.start_ns >= s.steps.steps[i - 1].end_ns);  // steps never overlap
  }
  REQUIRE(s.breakdown.per_step.size() == s.steps.steps.size());
  double fractions = 0;
  for (const analyzer::StepBreakdown& row : s.breakdown.per_step) {
    CHECK(std::accumulate(row.ns.begin(), row.ns.end(), int64_t{0}) == row.total_ns);
    for (int64_t v : row.ns) CHECK(v >= 0);
  }
  for (int c = 0; c < analyzer::kStepCategoryCount; ++c) {
    const double f = s.breakdown.averageFraction(static_cast<StepCategory>(c));
    CHECK(inUnitRange(f));
    fractions += f;
  }
  if (!s.breakdown.per_step.empty() && s.breakdown.average_total_ns > 0)
    CHECK(fractions == Approx(1.0));
}

void checkGpus(const analyzer::TraceSummary& s) {
  for (const analyzer::GpuSummary& g : s.gpus) {
    INFO("GPU " << g.device);
    CHECK(g.device >= 0);
    CHECK(inUnitRange(g.utilization));
    CHECK((g.sm_efficiency == -1 || inUnitRange(g.sm_efficiency)));
    CHECK(
        (g.achieved_occupancy == -1 || (g.achieved_occupancy >= 0 && g.achieved_occupancy <= 100)));
    CHECK((g.tensor_core_share == -1 || inUnitRange(g.tensor_core_share)));
  }
  for (const analyzer::StreamIdle& i : s.idle) {
    CHECK(i.host_wait_ns >= 0);
    CHECK(i.kernel_wait_ns >= 0);
    CHECK(i.other_ns >= 0);
    CHECK(i.busy_ns <= i.span_ns);
    CHECK(i.idle_ns() <= i.span_ns);
  }
}

void checkConsistent(const Fixture& f) {
  checkSteps(f.summary);
  checkGpus(f.summary);
  CHECK(f.text.find("steplint summary") != std::string::npos);
  const nlohmann::json j = analyzer::summaryToJson(f.summary, f.model);
  CHECK(j["schema"] == "steplint.summary/1");
  CHECK_NOTHROW(j.dump());  // strings from the trace must be valid UTF-8 for JSON
}

double averageShare(const analyzer::TraceSummary& s, StepCategory c) {
  return s.breakdown.averageFraction(c);
}

}  // namespace

TEST_CASE("every fixture trace gives a consistent summary", "[fixtures][slow]") {
  namespace fs = std::filesystem;
  const fs::path root = test::requireFixture("README.md");
  std::vector<std::string> traces;
  for (const auto& entry : fs::recursive_directory_iterator(root.parent_path())) {
    const std::string name = entry.path().filename().string();
    if (entry.is_regular_file() && name.size() > 8 && name.substr(name.size() - 8) == ".json.gz")
      traces.push_back(fs::relative(entry.path(), root.parent_path()).string());
  }
  std::sort(traces.begin(), traces.end());
  CHECK(traces.size() >= 10);
  for (const std::string& relative : traces) {
    INFO(relative);
    Fixture f;
    load(relative, f);
    checkConsistent(f);
  }
}

TEST_CASE("CPU-only trace: steps and communication, no GPU summary", "[fixtures]") {
  Fixture f;
  load("hta/cpu_only/rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz", f);
  const auto& s = f.summary;
  REQUIRE(s.steps.steps.size() == 1);
  CHECK(s.steps.steps[0].number == 551);
  CHECK(s.gpus.empty());
  CHECK(s.idle.empty());
  CHECK(averageShare(s, StepCategory::kCommunication) > 0.5);  // gloo:all_reduce on helper threads
  CHECK(f.text.find("no GPU activity in this trace") != std::string::npos);
}

TEST_CASE("ROCm trace: the GPU-side ProfilerStep is not a step (TB-Q9)", "[fixtures]") {
  Fixture f;
  load("hta/amd_trace/mi250_minitoy_train_ROCm6_2_kineto.json.gz", f);
  const auto& s = f.summary;
  // Two CPU steps (#1, #2); #2 launched no GPU work and is dropped as an incomplete tail.
  CHECK(s.steps.steps.size() + static_cast<size_t>(s.steps.dropped_tail_steps) == 2);
  REQUIRE_FALSE(s.steps.steps.empty());
  CHECK(s.steps.steps[0].number == 1);
  REQUIRE_FALSE(s.gpus.empty());
  CHECK(s.gpus[0].utilization > 0);
  CHECK(s.gpus[0].kernel_count == 14);
  CHECK(s.gpus[0].sm_efficiency == -1);      // ROCm kernels carry no "blocks per SM"
  CHECK(s.gpus[0].tensor_core_share > 0.0);  // Tensile MFMA GEMMs (Cijk_..._MI16x16x1_...)
  checkConsistent(f);
}

TEST_CASE("Triton trace: the driver-launched kernel belongs to its step (TB-Q10)", "[fixtures]") {
  Fixture f;
  load("hta/triton_example/triton_example.json.gz", f);
  const auto& s = f.summary;
  REQUIRE(s.steps.steps.size() == 1);
  CHECK(s.steps.steps[0].device_op_count == 1);
  REQUIRE(s.top_kernels.size() == 1);
  CHECK(s.top_kernels[0].name == "triton_poi_fused_add_cos_sin_0");
  REQUIRE(s.gpus.size() == 1);
  CHECK(s.gpus[0].tensor_core_share == 0.0);  // launched (by cuLaunchKernel), not a TC kernel
}

TEST_CASE("nanosecond-resolution trace: steps, kernels and sub-µs precision", "[fixtures]") {
  Fixture f;
  load("hta/ns_resolution_trace/rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz", f);
  const auto& s = f.summary;
  CHECK(s.steps.source == analyzer::StepSource::kProfilerStep);
  CHECK(s.steps.steps.size() >= 4);
  CHECK(s.steps.steps.front().number == 101);
  REQUIRE(s.gpus.size() == 1);
  CHECK(s.gpus[0].utilization > 0.9);  // a GPU-bound ResNet
  // Fractional-µs timestamps survive import: some event does not start on a whole µs.
  CHECK(std::any_of(f.model.events.begin(), f.model.events.end(),
                    [](const trace::Event& e) { return e.start_ns % 1000 != 0; }));
}

TEST_CASE("NCCL trace: communication kernels and ranges are Communication", "[fixtures]") {
  Fixture f;
  load("hta/nccl_parser_config/nccl_data.json.gz", f);
  const auto& s = f.summary;
  CHECK(s.steps.steps.size() >= 2);
  CHECK(averageShare(s, StepCategory::kCommunication) > 0.01);
  REQUIRE(s.gpus.size() == 1);
  CHECK(s.gpus[0].tensor_core_share > 0.0);  // TF32 xmma / cutlass tensorop kernels
  CHECK(f.model.metadata.distributed.present);
}

TEST_CASE("traces without ProfilerStep use the whole trace as one step", "[fixtures]") {
  for (const char* relative :
       {"hta/critical_path/alexnet/benchmark_result_2869224_1695835535_trace.json.gz",
        "hta/critical_path/cuda_event_sync_multi_stream/event_sync_trace.json.gz"}) {
    INFO(relative);
    Fixture f;
    load(relative, f);
    CHECK(f.summary.steps.source == analyzer::StepSource::kWholeTrace);
    CHECK(f.summary.steps.steps.size() == 1);
    CHECK(f.text.find("no ProfilerStep#N ranges") != std::string::npos);
  }
}
