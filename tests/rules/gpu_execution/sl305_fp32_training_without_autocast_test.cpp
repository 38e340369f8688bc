#include <catch2/catch.hpp>

#include <algorithm>

#include "../rule_fixtures.h"
#include "../rule_test_util.h"
#include "gpu_execution/kernel_precision.h"
#include "kineto_trace.h"

using steplint::test::KinetoTrace;

namespace {

constexpr const char* kTf32Conv =
    "sm80_xmma_fprop_implicit_gemm_tf32f32_tf32f32_f32_nhwckrsc_nchw_tilesize128x128x16_stage4_warpsize2x2x1_g1_"
    "tensor16x8x8_kernel_cudnn";
constexpr const char* kFp32Conv = "ampere_scudnn_128x64_relu_interior_nn_v1";
constexpr const char* kFp32Gemm = "ampere_sgemm_128x64_nn";
constexpr const char* kBf16Conv =
    "sm80_xmma_fprop_implicit_gemm_bf16bf16_bf16f32_f32_nhwckrsc_nhwc_tilesize128x128x32";

struct Scenario {
  int major = 8;
  std::string conv_kernel = kTf32Conv;
  std::string gemm_kernel = kFp32Gemm;
  std::string gemm_types;        // raw "Input type" of AddmmBackward0 (empty: none recorded)
  double host_us = 300;          // each step's host part; the GPU's work is 900 µs per step
  bool autocast_frame = false;   // torch.autocast's __enter__ frame in each step
  std::string autocast_enabled;  // the Python import hook's autocast_enabled ("" = not written)
};

/// Four steps. Each step's host part launches a 600 µs conv (aten::conv2d > cudnn_convolution),
/// a 200 µs relu and a 100 µs GEMM (AddmmBackward0); the kernels queue behind the previous
/// step's. With host_us 300 the GPU bounds every step at 900 µs; with 1000 the host does.
std::string fourSteps(const Scenario& s) {
  KinetoTrace t;
  t.device(0, s.major, 0, 42505273344,
           s.major >= 8 ? "NVIDIA A100-SXM4-40GB" : "Tesla V100-SXM2-32GB");
  if (!s.autocast_enabled.empty()) t.metadata("autocast_enabled", s.autocast_enabled);
  if (s.autocast_enabled == "true") t.metadata("autocast_dtype", "\"torch.bfloat16\"");
  steplint::test::StreamQueue stream(10);
  for (int i = 0; i < 4; ++i) {
    const double b = s.host_us * i;
    t.step(i + 1, b, s.host_us);
    if (s.autocast_frame) t.python("torch/amp/autocast_mode.py(327): __enter__", b + 2, 5);
    t.op("aten::conv2d", b + 10, 100);
    const int64_t conv = t.op("aten::cudnn_convolution", b + 20, 80).lastExternalId();
    t.launch(conv, b + 30, 5, s.conv_kernel, stream.at(b + 30, 600), 600);
    const int64_t relu = t.op("aten::relu_", b + 120, 20).lastExternalId();
    t.launch(relu, b + 125, 5, "vectorized_elementwise_kernel", stream.at(b + 125, 200), 200);
    t.opWithArgs("AddmmBackward0", b + 150, 20,
                 s.gemm_types.empty() ? "" : "\"Input type\": " + s.gemm_types);
    const int64_t bwd = t.lastExternalId();
    t.launch(bwd, b + 155, 5, s.gemm_kernel, stream.at(b + 155, 100), 100);
  }
  return t.str();
}

/// SL303 and SL305 together, as `steplint check` runs them: one replay over both findings.
steplint::test::RuleRun runBoth(const std::string& json) {
  const auto model = steplint::test::importInline(json);
  steplint::test::RuleRun both;
  for (const char* code : {"SL303", "SL305"}) {
    auto run = steplint::test::runRule(code, model);
    for (auto& d : run.diagnostics) both.diagnostics.push_back(std::move(d));
  }
  const auto summary = steplint::analyzer::summarize(model);
  const steplint::analyzer::AnalysisContext context(model, summary);
  both.saving_all = steplint::analyzer::attributeSavings(context, both.diagnostics);
  return both;
}

}  // namespace

TEST_CASE(
    "SL305: TF32 convolutions without autocast on an A100, GPU-bound: the kernels' gain is the saving") {
  const auto run = steplint::test::runRuleOnJson("SL305", fourSteps({}));
  REQUIRE(run.diagnostics.size() == 1);
  const auto& d = run.diagnostics[0];
  CHECK(
      d.message ==
      "77.8% of kernel time is conv/matmul in 32-bit precision with no autocast on NVIDIA A100-SXM4-40GB "
      "(sm_80): 0.7 ms per step, 0.6 ms of it TF32 on tensor cores and 0.1 ms FP32 without");
  CHECK(d.evidence.metric("tf32_ms_per_step") == Approx(0.6));
  CHECK(d.evidence.metric("fp32_ms_per_step") == Approx(0.1));
  CHECK(d.evidence.events.size() == 8);  // the conv and the GEMM of four steps
  // 700 µs of conv + GEMM at the assumed 2x: 350 µs less GPU work per step; the 550 µs left
  // still exceed the host's 300 µs. The low end (1.5x): 700 / 1.5 = 467 µs, 233 µs saved.
  CHECK(d.saving.per_step_ms == Approx(0.35).margin(0.005));
  CHECK(d.saving.low_ms == Approx(0.233).margin(0.005));
  CHECK(d.saving.method.find("2.0x faster in bfloat16 (1.5x at the low end)") != std::string::npos);
  CHECK(d.fix.front().find("kBFloat16") != std::string::npos);
}

TEST_CASE(
    "SL305: issue 13's case is SL305's alone: TF32 already puts the convolutions on tensor cores") {
  // 600 of the 700 µs of eligible time run on tensor cores: SL303 stays silent.
  CHECK(steplint::test::runRuleOnJson("SL303", fourSteps({})).diagnostics.empty());
}

TEST_CASE("SL305: host-bound steps save nothing from faster kernels") {
  Scenario s;
  s.host_us = 1000;
  const auto run = steplint::test::runRuleOnJson("SL305", fourSteps(s));
  REQUIRE(run.diagnostics.size() == 1);
  CHECK(run.diagnostics[0].saving.per_step_ms == Approx(0).margin(1e-6));
}

TEST_CASE(
    "SL305 and SL303 on the same FP32 kernels: the gains chain, each share is half of the total") {
  Scenario s;
  s.conv_kernel = kFp32Conv;
  const auto run = runBoth(fourSteps(s));
  REQUIRE(run.diagnostics.size() == 2);
  // Onto tensor cores (SL303, 2x) and then to bfloat16 (SL305, 2x): 700 µs -> 175 µs, and the
  // GPU's 375 µs still bound the step: 525 of the replayed 900 µs saved, split evenly by
  // symmetry. (The ms figures scale these fractions to the breakdown's 910 µs average step.)
  CHECK(run.saving_all.fraction_of_step == Approx(525.0 / 900).margin(0.002));
  for (const auto& d : run.diagnostics) {
    INFO(d.code);
    CHECK(d.saving.fraction_of_step == Approx(262.5 / 900).margin(0.002));
    // Alone, each is one 2x: 350 µs of the 900.
    CHECK(d.saving.alone_ms == Approx(d.saving.per_step_ms * 350 / 262.5).epsilon(0.01));
  }
}

TEST_CASE("SL305 is silent under autocast, for bf16 kernels and on Volta") {
  Scenario autocast;
  autocast.autocast_frame = true;
  CHECK(steplint::test::runRuleOnJson("SL305", fourSteps(autocast)).diagnostics.empty());
  Scenario bf16;
  bf16.conv_kernel = kBf16Conv;
  CHECK(steplint::test::runRuleOnJson("SL305", fourSteps(bf16)).diagnostics.empty());
  // Volta has neither TF32 nor bf16: FP32 there is SL303's finding, with fp16 autocast as its fix.
  Scenario volta;
  volta.major = 7;
  volta.conv_kernel = "volta_scudnn_128x64_relu_interior_nn_v1";
  CHECK(steplint::test::runRuleOnJson("SL305", fourSteps(volta)).diagnostics.empty());
  CHECK(steplint::test::runRuleOnJson("SL303", fourSteps(volta)).diagnostics.size() == 1);
}

TEST_CASE("SL305: autocast enabled (Python import hook) yet the convolutions still TF32: said so") {
  Scenario s;
  s.autocast_enabled = "true";
  s.autocast_frame = true;  // the hook's record wins over the frame that would silence the rule
  const auto run = steplint::test::runRuleOnJson("SL305", fourSteps(s));
  REQUIRE(run.diagnostics.size() == 1);
  const auto& d = run.diagnostics[0];
  CHECK(
      d.message ==
      "77.8% of kernel time is conv/matmul in 32-bit precision although autocast (torch.bfloat16) was enabled, on "
      "NVIDIA A100-SXM4-40GB (sm_80): 0.7 ms per step, 0.6 ms of it TF32 on tensor cores and 0.1 ms FP32 without");
  CHECK(d.evidence.metric("autocast_enabled") == Approx(1));
  CHECK(d.fix.front().rfind("autocast changes only the ops that run inside its region", 0) == 0);
  CHECK(d.saving.per_step_ms == Approx(0.35).margin(0.005));  // the same kernels, the same gain
  // With the kernels in bfloat16, autocast did its job: nothing to say.
  s.conv_kernel = kBf16Conv;
  CHECK(steplint::test::runRuleOnJson("SL305", fourSteps(s)).diagnostics.empty());
}

TEST_CASE("SL305: the import hook saw no autocast: said so as evidence") {
  Scenario s;
  s.autocast_enabled = "false";
  const auto run = steplint::test::runRuleOnJson("SL305", fourSteps(s));
  REQUIRE(run.diagnostics.size() == 1);
  const auto& d = run.diagnostics[0];
  CHECK(d.message.find("with no autocast on NVIDIA A100-SXM4-40GB") != std::string::npos);
  CHECK(d.message.find("(the Python import hook saw no enabled torch.autocast)") !=
        std::string::npos);
  CHECK(d.evidence.metric("autocast_enabled", -1) == Approx(0));
  CHECK(d.fix.front().find("kBFloat16") != std::string::npos);
}

TEST_CASE(
    "SL305 reads the dtype from Input type when the kernel name does not say (cuBLAS 12 nvjet)") {
  Scenario s;
  s.conv_kernel = kBf16Conv;
  s.gemm_kernel = "nvjet_tst_128x256_64x6_2x1_v_bz_TNT";
  s.gemm_types = "[\"float\", \"float\", \"float\"]";
  // 600 µs bf16 conv, 100 µs float GEMM: 1/7 of the known time is 32-bit, 6/7 is 16-bit.
  CHECK(steplint::test::runRuleOnJson("SL305", fourSteps(s)).diagnostics.empty());
  s.conv_kernel = kTf32Conv;
  const auto run = steplint::test::runRuleOnJson("SL305", fourSteps(s));
  REQUIRE(run.diagnostics.size() == 1);
  CHECK(run.diagnostics[0].evidence.metric("tf32_ms_per_step") ==
        Approx(0.7));  // the nvjet GEMM is TF32
  s.gemm_types = "[\"c10::BFloat16\", \"c10::BFloat16\", \"c10::BFloat16\"]";
  const auto bf16 = steplint::test::runRuleOnJson("SL305", fourSteps(s));
  REQUIRE(bf16.diagnostics.size() == 1);
  CHECK(bf16.diagnostics[0].evidence.metric("reduced_share_of_known") == Approx(100.0 / 700));
}

TEST_CASE("SL305 is not checked without deviceProperties") {
  KinetoTrace t;
  t.step(1, 0, 1000);
  const int64_t mm = t.op("aten::mm", 10, 50).lastExternalId();
  t.launch(mm, 20, 5, kFp32Gemm, 40, 500);
  const auto run = steplint::test::runRuleOnJson("SL305", t.str());
  CHECK(run.diagnostics.empty());
  REQUIRE(run.not_checked.size() == 1);
  CHECK(run.not_checked[0].find("deviceProperties") != std::string::npos);
}

TEST_CASE("kernel precision from names: cuBLAS, cuDNN, CUTLASS, flash attention") {
  using steplint::rules::KernelPrecision;
  using steplint::rules::kernelPrecisionFromName;
  CHECK(kernelPrecisionFromName(kTf32Conv) == KernelPrecision::kTf32);
  CHECK(kernelPrecisionFromName("ampere_tf32_s1688gemm_tf32_256x128_16x3_nn") ==
        KernelPrecision::kTf32);
  CHECK(kernelPrecisionFromName("cutlass_80_tensorop_s1688gemm_64x64_32x6_tn_align4") ==
        KernelPrecision::kTf32);
  CHECK(kernelPrecisionFromName(kFp32Gemm) == KernelPrecision::kFp32);
  CHECK(kernelPrecisionFromName(kFp32Conv) == KernelPrecision::kFp32);
  CHECK(kernelPrecisionFromName(
            "void gemv2T_kernel_val<int, int, float, float, float, float, 128, 16, 4, 4, false>") ==
        KernelPrecision::kFp32);
  CHECK(kernelPrecisionFromName(
            "sm80_xmma_gemm_f32f32_f32f32_f32_nn_n_tilesize32x32x8_stage3_ffma") ==
        KernelPrecision::kFp32);
  CHECK(kernelPrecisionFromName(kBf16Conv) == KernelPrecision::kReduced);
  CHECK(kernelPrecisionFromName("ampere_fp16_s16816gemm_fp16_128x128_ldg8_f2f_stages_32x5_nn") ==
        KernelPrecision::kReduced);
  CHECK(kernelPrecisionFromName("volta_h884gemm_64x64_ldg8_nn") == KernelPrecision::kReduced);
  CHECK(kernelPrecisionFromName(
            "void cutlass::Kernel<cutlass_80_tensorop_bf16_s16816gemm_relu_bf16_64x64_64x4_tn>") ==
        KernelPrecision::kReduced);
  CHECK(kernelPrecisionFromName("flash_fwd_kernel") == KernelPrecision::kReduced);
  CHECK(kernelPrecisionFromName("nvjet_tst_128x256_64x6_2x1_v_bz_TNT") ==
        KernelPrecision::kUnknown);
  CHECK(kernelPrecisionFromName("triton_tem_fused_mm_0") == KernelPrecision::kUnknown);
  CHECK(kernelPrecisionFromName(
            "void at::native::vectorized_elementwise_kernel<4, at::native::BFloat16>") ==
        KernelPrecision::kReduced);
}

TEST_CASE("SL305 on HTA's DDP trace (A100): TF32 convolutions and FP32 GEMMs, SL303 silent") {
  const auto model = steplint::test::loadFixture(steplint::test::kNcclDdp);
  CHECK(steplint::test::runRule("SL303", model)
            .diagnostics.empty());  // most eligible time is on tensor cores
  const auto run = steplint::test::runRule("SL305", model);
  REQUIRE(run.diagnostics.size() == 1);
  const auto& d = run.diagnostics[0];
  INFO(d.message);
  CHECK(d.message.find("no autocast on NVIDIA A100-PG509-200 (sm_80)") != std::string::npos);
  CHECK(d.evidence.metric("fp32_tf32_share") == Approx(0.326).margin(0.001));
  CHECK(d.evidence.metric("tf32_ms_per_step") == Approx(11.8).margin(0.05));
  CHECK(d.evidence.metric("fp32_ms_per_step") == Approx(5.9).margin(0.05));
  CHECK(d.evidence.metric("reduced_share_of_known") == Approx(0));
}

TEST_CASE("SL305 is silent on the V100 ResNet-50 fixtures: FP32 there is SL303's") {
  const auto model = steplint::test::loadFixture(steplint::test::kResnetWorkers0);
  const auto run = steplint::test::runRule("SL305", model);
  CHECK(run.diagnostics.empty());
  CHECK(run.not_checked.empty());
}
