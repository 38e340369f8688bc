#include <catch2/catch.hpp>

#include "../rule_fixtures.h"
#include "kineto_trace.h"

namespace steplint::test {
namespace {

TEST_CASE("SL002: GPUs and CUDA calls but no device activity", "[rules][SL002]") {
  KinetoTrace t;
  t.device(0).device(1);
  t.step(1, 0, 1000)
      .op("aten::mm", 10, 100)
      .runtime("cudaLaunchKernel", 20, 10)
      .runtime("cudaLaunchKernel", 40, 10);
  const RuleRun run = runRuleOnJson("SL002", t.str());
  REQUIRE(run.diagnostics.size() == 1);
  const auto& d = run.diagnostics[0];
  CHECK(d.severity == analyzer::Severity::kWarning);
  CHECK(d.message ==
        "deviceProperties lists 2 GPUs and the trace has 2 CUDA API calls (2 launches, copies or "
        "memsets), but no GPU kernels, memcpys or memsets were recorded: CUDA activity was not "
        "captured");
  CHECK(d.evidence.events.size() == 2);
  CHECK(d.fingerprint_key == "no-device-activity");
}

TEST_CASE("SL002: device properties alone are enough", "[rules][SL002]") {
  KinetoTrace t;
  t.device(0).step(1, 0, 1000).op("aten::mm", 10, 100);
  const RuleRun run = runRuleOnJson("SL002", t.str());
  REQUIRE(run.diagnostics.size() == 1);
  CHECK(run.diagnostics[0].message.rfind("deviceProperties lists 1 GPU, but no GPU kernels", 0) ==
        0);
  CHECK(run.diagnostics[0].message.find("or the run did not use the GPU") != std::string::npos);
}

TEST_CASE("SL002: CUDA allocations without CUDA activity (ProfilerActivity.CPU only)",
          "[rules][SL002]") {
  // No deviceProperties and no CUDA call: the allocator's events still say tensors lived on a
  // GPU (Device Type 1), so kernels ran that the trace does not hold.
  const std::string json = R"({"traceEvents": [
    {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1", "pid": 1, "tid": 1, "ts": 0, "dur": 1000},
    {"ph": "X", "cat": "cpu_op", "name": "aten::cudnn_convolution", "pid": 1, "tid": 1, "ts": 10, "dur": 100},
    {"ph": "i", "cat": "cpu_instant_event", "s": "t", "name": "[memory]", "pid": 1, "tid": 1, "ts": 20,
     "args": {"Total Reserved": 2097152, "Total Allocated": 512, "Bytes": 512, "Addr": 1, "Device Id": 0, "Device Type": 1}},
    {"ph": "i", "cat": "cpu_instant_event", "s": "t", "name": "[memory]", "pid": 1, "tid": 1, "ts": 30,
     "args": {"Total Reserved": 2097152, "Total Allocated": 0, "Bytes": -512, "Addr": 1, "Device Id": 0, "Device Type": 1}},
    {"ph": "i", "cat": "cpu_instant_event", "s": "t", "name": "[memory]", "pid": 1, "tid": 1, "ts": 40,
     "args": {"Total Reserved": 0, "Total Allocated": 64, "Bytes": 64, "Addr": 2, "Device Id": -1, "Device Type": 0}}]})";
  const RuleRun run = runRuleOnJson("SL002", json);
  REQUIRE(run.diagnostics.size() == 1);
  CHECK(run.diagnostics[0].message ==
        "the allocator put 1 tensors on a CUDA device, but no GPU kernels, memcpys or memsets were "
        "recorded: CUDA activity was not captured");
  CHECK(run.diagnostics[0].evidence.metric("cuda_allocations") == Approx(1));
}

TEST_CASE("SL002: device queries and a synchronize put no work on the GPU: no finding",
          "[rules][SL002]") {
  // A CPU training run that initialised CUDA: CUPTI recorded the calls, nothing ran on the GPU.
  KinetoTrace t;
  t.device(0);
  t.step(1, 0, 1000)
      .op("aten::mm", 10, 100)
      .runtime("cudaGetDeviceCount", 120, 5)
      .runtime("cudaStreamIsCapturing", 130, 1)
      .runtime("cudaDeviceSynchronize", 140, 3);
  CHECK(runRuleOnJson("SL002", t.str()).diagnostics.empty());
}

// torch 1.13's export_chrome_trace of a use_cuda run without Kineto (tests/data/torch113,
// record.py): each of its 133 ranges linked to CUDA work, no kernel written.
TEST_CASE("SL002: the legacy export of a CUDA run names the format, and GPU rules say why",
          "[rules][SL002][torch113]") {
  const RuleRun run = runRuleOnTorch113("SL002", "cuda_links_no_kernels");
  REQUIRE(run.diagnostics.size() == 1);
  const auto& d = run.diagnostics[0];
  CHECK(d.message ==
        "the legacy profiler's export links 133 ops to CUDA work (cpu_to_cuda) but does not write "
        "GPU kernels, memcpys or memsets: the GPU side of this run is not in the trace");
  CHECK(d.evidence.metric("legacy_cuda_links") == Approx(133));
  REQUIRE_FALSE(d.fix.empty());
  CHECK(d.fix[0].find("on a torch built with Kineto") != std::string::npos);

  const std::string why =
      "no GPU kernels in this trace (the legacy profiler's export links 133 ops to CUDA work but "
      "writes no kernels)";
  for (const char* code : {"SL301", "SL303", "SL401", "SL502"}) {
    const RuleRun gpu_rule = runRuleOnTorch113(code, "cuda_links_no_kernels");
    INFO(code);
    CHECK(gpu_rule.diagnostics.empty());
    CHECK(gpu_rule.not_checked == std::vector<std::string>{why});
  }
  CHECK(runRuleOnTorch113("SL604", "cuda_links_no_kernels").not_checked ==
        std::vector<std::string>{why +
                                 ": the ops ran CUDA work, so the GPU did not sit unused (SL002)"});
}

TEST_CASE("SL002: traces with kernels, and CPU-only runs, have no finding", "[rules][SL002]") {
  KinetoTrace gpu;
  gpu.device(0).step(1, 0, 1000).op("aten::mm", 10, 100).kernel(20, 10, 50, 100);
  CHECK(runRuleOnJson("SL002", gpu.str()).diagnostics.empty());
  KinetoTrace cpu;
  cpu.step(1, 0, 1000).op("aten::mm", 10, 100);
  CHECK(runRuleOnJson("SL002", cpu.str()).diagnostics.empty());
}

TEST_CASE("SL002: fixtures", "[rules][SL002][fixture]") {
  CHECK(runRuleOnFixture("SL002", kResnetWorkers0).diagnostics.empty());
  CHECK(runRuleOnFixture("SL002", kCpuOnly)
            .diagnostics.empty());  // empty deviceProperties, no CUDA calls
}

}  // namespace
}  // namespace steplint::test
