#include <catch2/catch.hpp>

#include <algorithm>

#include "../rule_fixtures.h"
#include "../rule_test_util.h"
#include "kineto_trace.h"

using steplint::test::forEachStep;
using steplint::test::KinetoTrace;

namespace {

// One 1 ms step: conv2d -> cudnn_convolution launches `conv_kernel` (600 µs); a relu launches a
// 200 µs kernel; AddmmBackward0 (modern name, TB-Q4) launches a 200 µs GEMM.
std::string convTrace(int major, const std::string& conv_kernel, bool with_props = true,
                      const std::string& autocast_enabled = "") {
  KinetoTrace t;
  if (with_props) t.device(0, major, 0, 34084028416, "Tesla V100-SXM2-32GB");
  if (!autocast_enabled.empty())
    t.metadata("autocast_enabled", autocast_enabled)
        .metadata("autocast_dtype", "\"torch.float16\"");
  t.step(1, 0, 1000);
  t.op("aten::conv2d", 10, 100);
  const int64_t conv = t.op("aten::cudnn_convolution", 20, 80).lastExternalId();
  t.launch(conv, 30, 5, conv_kernel, 40, 600);
  const int64_t relu = t.op("aten::relu_", 120, 20).lastExternalId();
  t.launch(relu, 125, 5, "vectorized_elementwise_kernel", 640, 200);
  const int64_t bwd = t.op("AddmmBackward0", 150, 20).lastExternalId();
  t.launch(bwd, 155, 5, "volta_sgemm_128x64_nn", 840, 100);
  return t.str();
}

/// Four steps whose host part takes 300 µs while their kernels (600 µs FP32 conv, 200 µs relu,
/// 100 µs FP32 GEMM) queue behind the previous step's: the GPU bounds every step at 900 µs.
std::string gpuBoundConvTrace() {
  KinetoTrace t;
  t.device(0, 7, 0, 34084028416, "Tesla V100-SXM2-32GB");
  double gpu_free = 0;
  forEachStep(t, 4, 300, [&](int, double b) {
    auto queue = [&](double launch_at, double dur) {
      const double start = std::max(gpu_free, launch_at + 10);
      gpu_free = start + dur;
      return start;
    };
    t.op("aten::conv2d", b + 10, 100);
    const int64_t conv = t.op("aten::cudnn_convolution", b + 20, 80).lastExternalId();
    t.launch(conv, b + 30, 5, "volta_scudnn_128x64_relu_interior_nn_v1", queue(b + 30, 600), 600);
    const int64_t relu = t.op("aten::relu_", b + 120, 20).lastExternalId();
    t.launch(relu, b + 125, 5, "vectorized_elementwise_kernel", queue(b + 125, 200), 200);
    const int64_t bwd = t.op("AddmmBackward0", b + 150, 20).lastExternalId();
    t.launch(bwd, b + 155, 5, "volta_sgemm_128x64_nn", queue(b + 155, 100), 100);
  });
  return t.str();
}

}  // namespace

TEST_CASE("SL303: when the GPU bounds the step, faster kernels save their time") {
  const auto run = steplint::test::runRuleOnJson("SL303", gpuBoundConvTrace());
  REQUIRE(run.diagnostics.size() == 1);
  const auto& d = run.diagnostics[0];
  // 700 µs of FP32 conv + GEMM at the assumed 2x: 350 µs less GPU work per step, and the 550 µs
  // left still exceed the host's 300 µs.
  CHECK(d.saving.per_step_ms == Approx(0.35).margin(0.005));
  // The low end assumes 1.5x: 700 / 1.5 = 467 µs, 233 µs saved.
  CHECK(d.saving.low_ms == Approx(0.233).margin(0.005));
  CHECK(run.saving_all.per_step_ms == Approx(d.saving.per_step_ms));
  CHECK(d.severity == steplint::analyzer::Severity::kWarning);  // it costs step time
}

TEST_CASE("SL303 flags FP32 conv/GEMM kernels on a tensor-core GPU") {
  const auto run = steplint::test::runRuleOnJson(
      "SL303", convTrace(7, "volta_scudnn_128x64_relu_interior_nn_v1"));
  REQUIRE(run.diagnostics.size() == 1);
  const auto& d = run.diagnostics[0];
  INFO(d.message);
  // eligible: 600 (conv) + 100 (AddmmBackward0) of 900 µs op-launched kernel time
  CHECK(d.message.find("77.8% of kernel time") != std::string::npos);
  CHECK(d.message.find("Tesla V100-SXM2-32GB (sm_70)") != std::string::npos);
  CHECK(d.evidence.metric("eligible_fp32_ms_per_step") == Approx(0.7));
  // The host's 1 ms step bounds it (the kernels end at 940 µs): faster kernels save nothing,
  // so the finding stays, as a note (docs/savings.md "Severity follows the saving").
  CHECK(d.saving.per_step_ms == Approx(0).margin(1e-6));
  CHECK(d.severity == steplint::analyzer::Severity::kNote);
  CHECK(
      d.saving.method.find("a note, not a warning: fixing it would save under 0.5% of the step") !=
      std::string::npos);
  CHECK(d.evidence.events.size() == 2);
}

TEST_CASE(
    "SL303 says when autocast was enabled and the kernels still ran FP32 (Python import hook)") {
  const std::string fp32 = "volta_scudnn_128x64_relu_interior_nn_v1";
  const auto on = steplint::test::runRuleOnJson("SL303", convTrace(7, fp32, true, "true"));
  REQUIRE(on.diagnostics.size() == 1);
  const auto& d = on.diagnostics[0];
  CHECK(d.message.find("0.7 ms per step, although autocast (torch.float16) was enabled") !=
        std::string::npos);
  CHECK(d.evidence.metric("autocast_enabled") == Approx(1));
  CHECK(d.fix.front().rfind("autocast is enabled but does not reach these ops", 0) == 0);
  const auto off = steplint::test::runRuleOnJson("SL303", convTrace(7, fp32, true, "false"));
  REQUIRE(off.diagnostics.size() == 1);
  CHECK(off.diagnostics[0].message.find("autocast") == std::string::npos);
  CHECK(off.diagnostics[0].evidence.metric("autocast_enabled", -1) == Approx(0));
  const auto unknown = steplint::test::runRuleOnJson("SL303", convTrace(7, fp32));
  REQUIRE(unknown.diagnostics.size() == 1);
  CHECK(unknown.diagnostics[0].evidence.metric("autocast_enabled", -1) ==
        Approx(-1));  // not in the trace
}

TEST_CASE("SL303 assumed-speedup scales the saving") {
  const auto run = steplint::test::runRuleOnJson("SL303", convTrace(8, "ampere_sgemm_128x64_nn"),
                                                 {{"assumed-speedup", 4.0}});
  REQUIRE(run.diagnostics.size() == 1);
  CHECK(run.diagnostics[0].saving.method.find(
            "4.0x faster on tensor cores (2.5x at the low end)") != std::string::npos);
  CHECK(run.diagnostics[0].fix.front().find("TF32") != std::string::npos);
}

TEST_CASE("SL303 is silent when the conv already runs on tensor cores, or on pre-Volta GPUs") {
  CHECK(steplint::test::runRuleOnJson("SL303",
                                      convTrace(8, "sm80_xmma_fprop_implicit_gemm_f16f16_f16f32"))
            .diagnostics.empty());
  CHECK(
      steplint::test::runRuleOnJson("SL303", convTrace(6, "maxwell_scudnn_128x64_relu_interior_nn"))
          .diagnostics.empty());
}

TEST_CASE("SL303 is not checked without deviceProperties") {
  const auto run =
      steplint::test::runRuleOnJson("SL303", convTrace(7, "volta_sgemm_64x64_nt", false));
  CHECK(run.diagnostics.empty());
  REQUIRE(run.not_checked.size() == 1);
  CHECK(run.not_checked[0].find("deviceProperties") != std::string::npos);
}

TEST_CASE(
    "SL303 fires on both ResNet-50 fixtures with about 68% eligible kernel time (tb_plugin R6)") {
  for (const char* f : {steplint::test::kResnetWorkers0, steplint::test::kResnetWorkers4}) {
    const auto model = steplint::test::loadFixture(f);
    const auto run = steplint::test::runRule("SL303", model);
    REQUIRE(run.diagnostics.size() == 1);
    const auto& d = run.diagnostics[0];
    INFO(f << ": " << d.message);
    CHECK(d.evidence.metric("eligible_fp32_share") * 100 == Approx(68).margin(3));
    CHECK(d.message.find("Tesla V100-DGXS-32GB (sm_70)") != std::string::npos);
    // As recorded the host bounds these steps (replayed host work 140-175 ms/step against
    // 103-105 ms of GPU work), so faster GEMMs save little step time.
    CHECK(d.saving.per_step_ms < 2);
  }
}

TEST_CASE("SL303 and SL305 say a run of copies has no kernels, not that links are missing") {
  // pytorch/benchmark's copy benchmarks: steps of host-device copies and no kernel.
  KinetoTrace t;
  t.device(0, 8, 0);
  forEachStep<0>(t, 3, 1000, [&](int, double base) {
    t.op("aten::copy_", base + 10, 400);
    t.copy("HtoD", "Pageable", "Device", base + 20, 380, base + 30, 360, 1 << 20);
  });
  for (const char* rule : {"SL303", "SL305"}) {
    INFO(rule);
    const auto run = steplint::test::runRuleOnJson(rule, t.str());
    CHECK(run.diagnostics.empty());
    REQUIRE(run.not_checked.size() == 1);
    CHECK(run.not_checked[0] == "no kernel time in the steps (the GPU work is copies or memsets)");
  }
}

TEST_CASE("SL303 is not checked on a CPU-only trace") {
  const auto model = steplint::test::loadFixture(steplint::test::kCpuOnly);
  CHECK(steplint::test::runRule("SL303", model).not_checked.size() == 1);
}

namespace {
// torch.compile(mode="reduce-overhead"): one step whose work is a CUDA graph replayed by one
// cudaGraphLaunch inside the compiled region's op; `kernels` run back to back from 100 µs.
std::string graphTrace(const std::vector<std::pair<std::string, double>>& kernels) {
  KinetoTrace t;
  t.device(0, 8, 6, 12878086144, "NVIDIA GeForce RTX 3060");
  t.step(1, 0, 2000);
  const int64_t region = t.op("Torch-Compiled Region: 0/0", 10, 100).lastExternalId();
  std::vector<KinetoTrace::GraphKernel> replayed;
  double at = 100;
  for (const auto& [name, dur] : kernels) replayed.push_back({name, at, dur}), at += dur;
  t.graphLaunch(region, 20, 30, replayed);
  return t.str();
}
}  // namespace

TEST_CASE("SL303 judges the kernels a CUDA graph replays by their names") {
  // The op around cudaGraphLaunch is the replay, not a conv/matmul: by op, nothing would be
  // eligible and an all-FP32-GEMM compiled model would get no finding.
  const auto run = steplint::test::runRuleOnJson(
      "SL303",
      graphTrace({{"ampere_sgemm_128x64_tn", 600},
                  {"triton_poi_fused_relu_0", 200},
                  {"void cutlass::Kernel2<cutlass_80_simt_sgemm_128x32_8x5_nt_align1>", 100},
                  {"ampere_s16816gemm_bf16_128x128_ldg8_f2f_nn", 100}}));
  REQUIRE(run.diagnostics.size() == 1);
  const auto& d = run.diagnostics[0];
  INFO(d.message);
  CHECK(d.evidence.metric("eligible_fp32_share") == Approx(0.7));  // 700 of 1000 µs
  CHECK(d.evidence.metric("tensor_core_share_of_eligible") == Approx(0.125));
  CHECK(d.evidence.metric("graph_replayed_fp32_ms_per_step") == Approx(0.7));
  CHECK(d.message.find("(0.7 ms of it replayed by CUDA graphs, judged by kernel name)") !=
        std::string::npos);

  // A graph of elementwise kernels holds nothing eligible.
  const auto elementwise = steplint::test::runRuleOnJson(
      "SL303", graphTrace({{"triton_poi_fused_relu_0", 600}, {"triton_red_fused_sum_1", 400}}));
  CHECK(elementwise.diagnostics.empty());
  CHECK(elementwise.not_checked.empty());
}

namespace {
// One 1 ms step on an A100: aten::mm (with `args`) launches `kernel` (800 µs), a relu 200 µs.
std::string mmTrace(const std::string& kernel, const std::string& args = "") {
  KinetoTrace t;
  t.device(0, 8, 0, 85899345920, "NVIDIA A100-SXM4-80GB");
  t.step(1, 0, 1000);
  const int64_t mm = t.opWithArgs("aten::mm", 10, 100, args).lastExternalId();
  t.launch(mm, 20, 5, kernel, 30, 800);
  const int64_t relu = t.op("aten::relu_", 120, 20).lastExternalId();
  t.launch(relu, 125, 5, "vectorized_elementwise_kernel", 830, 200);
  return t.str();
}
}  // namespace

TEST_CASE("SL303: a 16-bit matmul kernel without tensor cores is not FP32") {
  // A bf16 GEMV runs on the FMA pipeline: no tensor core, but not FP32 either, so neither TF32
  // nor autocast would change it. By name, or by the op's recorded dtype when the name is mute.
  CHECK(steplint::test::runRuleOnJson(
            "SL303", mmTrace("void gemv2T_kernel_val<int, int, __nv_bfloat16, __nv_bfloat16, "
                             "float, 128, 16, 4, 4, false, false>"))
            .diagnostics.empty());
  CHECK(steplint::test::runRuleOnJson(
            "SL303",
            mmTrace("gemvx_kernel", "\"Input type\": [\"c10::BFloat16\", \"c10::BFloat16\"]"))
            .diagnostics.empty());
  CHECK(steplint::test::runRuleOnJson(
            "SL303", mmTrace("gemvx_kernel", "\"Input type\": [\"float\", \"float\"]"))
            .diagnostics.size() == 1);
}
