// Rules on traces from other accelerators (issue 13): accelerator-neutral rules check them,
// rules that read CUDA-only names or properties say "not checked: device is X" through
// common::requireKnownDevice, and no rule makes a CUDA claim (missing CUDA activity, matmuls on
// the CPU, TF32) about an MTIA, ROCm or XPU trace.
#include <catch2/catch.hpp>

#include <set>
#include <string>

#include "../rule_test_util.h"
#include "accelerator_traces.h"
#include "common/rule_support.h"

using steplint::test::RuleRun;
using steplint::test::runRule;

namespace {

bool startsWith(const std::string& s, const std::string& prefix) { return s.rfind(prefix, 0) == 0; }

// Codes of every built-in rule, and what each says on `json`.
std::map<std::string, RuleRun> runAll(const std::string& json) {
  const steplint::trace::TraceModel model = steplint::test::importInline(json);
  steplint::analyzer::RuleRegistry registry;
  steplint::rules::registerBuiltinRules(registry);
  std::map<std::string, RuleRun> runs;
  for (const auto& rule : registry.rules()) {
    const std::string code(rule->info().code);
    runs[code] = runRule(code, model);
  }
  return runs;
}

// The rules that read names or properties only some accelerators have (docs/analyses.md).
const std::set<std::string> kCudaOnly = {"SL002", "SL201", "SL205", "SL303"};
const std::set<std::string> kCudaAndRocm = {"SL202", "SL203", "SL206", "SL304", "SL401",
                                            "SL402", "SL403", "SL502", "SL604"};

}  // namespace

TEST_CASE("MTIA trace: no missing-activity or matmul-on-CPU claim", "[rules][accelerator]") {
  const auto runs = runAll(steplint::test::mtiaTrace());
  for (const auto& [code, run] : runs) {
    INFO(code);
    CHECK(run.diagnostics.empty());
    CHECK(run.saving_all.per_step_ms < 0);  // no time saving claimed
  }
  // The rules of the issue: SL002 said "CUDA activity was not captured", SL604 "conv/matmul
  // ops compute on the CPU" with a 49 % saving.
  REQUIRE(runs.at("SL604").not_checked.size() == 1);
  CHECK(
      runs.at("SL604").not_checked[0] ==
      "device is MTIA: this rule reads CUDA/HIP runtime calls and device properties to tell that a GPU sat "
      "unused, which only CUDA and ROCm traces have");
  REQUIRE(runs.at("SL002").not_checked.size() == 1);
  CHECK(startsWith(runs.at("SL002").not_checked[0], "device is MTIA: this rule reads"));
  CHECK(runs.at("SL002").not_checked[0].find("which only CUDA traces have") != std::string::npos);
  for (const auto& code : kCudaOnly) {
    INFO(code);
    REQUIRE(runs.at(code).not_checked.size() == 1);
    CHECK(startsWith(runs.at(code).not_checked[0], "device is MTIA: "));
  }
  for (const auto& code : kCudaAndRocm) {
    INFO(code);
    REQUIRE(runs.at(code).not_checked.size() == 1);
    CHECK(startsWith(runs.at(code).not_checked[0], "device is MTIA: "));
    CHECK(runs.at(code).not_checked[0].find("which only CUDA and ROCm traces have") !=
          std::string::npos);
  }
  // Accelerator-neutral rules read the device work: utilization is 7 of 9 ms, above 50 %.
  CHECK(runs.at("SL301").not_checked.empty());
  CHECK(runs.at("SL302").not_checked.empty());
}

TEST_CASE("ROCm trace: no TF32 advice for an AMD GPU of 'compute capability' 9",
          "[rules][accelerator]") {
  const auto runs = runAll(steplint::test::rocmTrace());
  const RuleRun& sl303 = runs.at("SL303");
  CHECK(sl303.diagnostics.empty());
  REQUIRE(sl303.not_checked.size() == 1);
  CHECK(
      sl303.not_checked[0] ==
      "device is ROCm: this rule reads NVIDIA tensor-core kernel names and compute capabilities, which only "
      "CUDA traces have");
  for (const auto& code : kCudaOnly) {
    INFO(code);
    CHECK(runs.at(code).diagnostics.empty());
    REQUIRE(runs.at(code).not_checked.size() == 1);
    CHECK(startsWith(runs.at(code).not_checked[0], "device is ROCm: "));
  }
  // HIP's calls are known: the sync and memory rules still decide on ROCm.
  for (const auto& code : kCudaAndRocm) {
    INFO(code);
    for (const auto& reason : runs.at(code).not_checked)
      CHECK_FALSE(startsWith(reason, "device is"));
  }
}

TEST_CASE("XPU trace: copy directions are read, CUDA/HIP sync names are not",
          "[rules][accelerator]") {
  const auto runs = runAll(steplint::test::xpuTrace());
  for (const auto& [code, run] : runs) {
    INFO(code);
    CHECK(run.diagnostics.empty());
  }
  CHECK(runs.at("SL204").not_checked.empty());  // PTI's "Memcpy H2D" is a host-to-device copy
  REQUIRE(runs.at("SL202").not_checked.size() == 1);
  CHECK(startsWith(runs.at("SL202").not_checked[0],
                   "device is XPU: this rule reads CUDA/HIP synchronizing"));
}

TEST_CASE("requireKnownDevice: CUDA and CPU-only traces pass", "[rules][accelerator]") {
  using steplint::trace::Accelerator;
  for (Accelerator a : {Accelerator::kCuda, Accelerator::kNone, Accelerator::kRocm}) {
    steplint::trace::TraceModel model;
    model.metadata.accelerator = a;
    const steplint::analyzer::TraceSummary summary = steplint::analyzer::summarize(model);
    const steplint::analyzer::AnalysisContext context(model, summary);
    struct Sink final : steplint::analyzer::DiagnosticSink {
      std::vector<std::string> reasons;
      void report(steplint::analyzer::Diagnostic) override {}
      void notChecked(std::string reason) override { reasons.push_back(std::move(reason)); }
    } sink;
    const bool cuda_only = steplint::rules::common::requireKnownDevice(
        context, sink, steplint::rules::common::kCudaOnly, "cudaFree calls");
    CHECK(cuda_only == (a != Accelerator::kRocm));
    REQUIRE(sink.reasons.size() == (a == Accelerator::kRocm ? 1u : 0u));
    if (a == Accelerator::kRocm)
      CHECK(sink.reasons[0] ==
            "device is ROCm: this rule reads cudaFree calls, which only CUDA traces have");
  }
}
