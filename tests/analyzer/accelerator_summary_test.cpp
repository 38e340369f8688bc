// The summary counts every accelerator's device work (breakdown, device table, idle, kernels)
// and names the accelerator instead of calling everything a CUDA GPU (issue 13).
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <sstream>

#include "accelerator_traces.h"
#include "steplint/analyzer/summary.h"
#include "steplint/trace/importer.h"

using namespace steplint;
using analyzer::StepCategory;

namespace {

struct Summarized {
  trace::TraceModel model;
  analyzer::TraceSummary summary;
  std::string text;
  nlohmann::json json;
};

Summarized summarizeJson(const std::string& json) {
  Summarized s;
  const trace::ImportStatus status = trace::importTraceBytes(json, s.model, {}, "inline.json");
  INFO(status.message);
  REQUIRE(status.ok());
  s.summary = analyzer::summarize(s.model);
  std::ostringstream out;
  analyzer::printSummaryText(out, s.summary, s.model);
  s.text = out.str();
  s.json = analyzer::summaryToJson(s.summary, s.model);
  return s;
}

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// The shared trace: per 9 ms step, 6.8 ms of kernels and 0.2 ms of copies on device 0.
void checkDeviceWorkCounted(const Summarized& s) {
  const analyzer::TraceSummary& sum = s.summary;
  REQUIRE_FALSE(sum.steps.steps.empty());
  CHECK(sum.breakdown.average_total_ns == Approx(9e6));
  CHECK(sum.breakdown.averageFraction(StepCategory::kKernel) == Approx(6.8 / 9.0));
  CHECK(sum.breakdown.averageFraction(StepCategory::kMemcpy) == Approx(0.2 / 9.0));
  REQUIRE(sum.gpus.size() == 1);
  CHECK(sum.gpus[0].device == 0);
  CHECK(sum.gpus[0].kernel_count == 4 * static_cast<int64_t>(sum.steps.steps.size()));
  CHECK(sum.gpus[0].utilization > 0.5);
  REQUIRE(sum.idle.size() == 1);
  CHECK(sum.idle[0].busy_ns == 4 * (4 * 1700000 + 200000));
  REQUIRE(sum.top_kernels.size() == 1);
  CHECK(sum.top_kernels[0].count == 16);
  CHECK_FALSE(has(s.text, "no GPU activity"));
}

}  // namespace

TEST_CASE("MTIA trace: device work in the breakdown, the device table and idle time",
          "[summary][accelerator]") {
  const Summarized s = summarizeJson(test::mtiaTrace());
  checkDeviceWorkCounted(s);
  CHECK(has(s.text, "accelerator: MTIA"));
  CHECK(has(s.text, "MTIA summary (kernels over the kept steps"));
  CHECK(has(s.text, "MTIA idle time per stream"));
  CHECK_FALSE(has(s.text, "GPU summary"));
  CHECK(s.json["trace"]["accelerator"] == "MTIA");
  // Tensor-core kernel names are NVIDIA's and ROCm's: unknown here, not 0 %.
  CHECK(s.summary.gpus[0].tensor_core_share == -1);
  CHECK(s.json["gpus"][0]["tensor_core_share"].is_null());
  CHECK_FALSE(s.summary.top_kernels[0].tensor_core);
}

TEST_CASE("ROCm and XPU traces: device work counted, accelerator named", "[summary][accelerator]") {
  const Summarized rocm = summarizeJson(test::rocmTrace());
  checkDeviceWorkCounted(rocm);
  CHECK(has(rocm.text, "accelerator: ROCm"));
  CHECK(has(rocm.text, "GPU 0: AMD Instinct MI250X"));
  CHECK(rocm.json["trace"]["accelerator"] == "ROCm");
  CHECK(rocm.summary.gpus[0].tensor_core_share == 0.0);  // Tensile names are known; no MI tile here

  const Summarized xpu = summarizeJson(test::xpuTrace());
  checkDeviceWorkCounted(xpu);
  CHECK(has(xpu.text, "accelerator: XPU"));
  CHECK(xpu.json["trace"]["accelerator"] == "XPU");
}

TEST_CASE("CPU-only trace: no accelerator", "[summary][accelerator]") {
  const Summarized s = summarizeJson(
      R"({"traceEvents":[{"ph":"X","cat":"cpu_op","name":"aten::mm","pid":1,"tid":1,"ts":1,"dur":5}]})");
  CHECK(s.json["trace"]["accelerator"].is_null());
  CHECK_FALSE(has(s.text, "accelerator:"));
}
