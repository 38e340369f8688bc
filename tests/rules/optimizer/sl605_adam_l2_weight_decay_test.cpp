#include <catch2/catch.hpp>

#include <functional>

#include "../rule_test_util.h"
#include "fixtures.h"
#include "kineto_trace.h"

using steplint::test::forEachStep;
using steplint::test::KinetoTrace;

namespace {

// Adds the ops of one optimizer step, starting at `ts` (µs), nested by time in its range.
using Body = std::function<void(KinetoTrace&, double ts)>;

// Two 10 ms steps; each has an aten::mm and a `step_name` range [5000, 9000) holding `body`.
// No step name: no optimizer range. No GPU: a CPU-only trace.
std::string trace(const std::string& step_name, const Body& body, bool gpu = true) {
  KinetoTrace t;
  if (gpu) t.device(0, 8, 0);
  forEachStep<0>(t, 2, 10000, [&](int, double base) {
    const int64_t mm = t.op("aten::mm", base + 10, 20).lastExternalId();
    if (gpu) t.launch(mm, base + 12, 5, "sm80_xmma_gemm_bf16", base + 20, 3000);
    if (!step_name.empty()) t.annotation(step_name, base + 5000, 4000);
    body(t, base + 5010);
  });
  return t.str();
}

constexpr const char* kAdam = "Optimizer.step#Adam.step";
const std::string kTwoLists = R"("Input type": ["TensorList", "TensorList", "Scalar"])";
const std::string kListScalar = R"("Input type": ["TensorList", "Scalar"])";
const std::string kWeightDecayAdd = kTwoLists + R"(, "Concrete Inputs": ["", "", "0.01"])";

// PyTorch 2.x foreach Adam: `l2_args` are the args of the out-of-place
// _foreach_add(grads, params, alpha=weight_decay), which launches a 50 µs kernel (no add when
// empty).
Body foreachStep(const std::string& l2_args) {
  return [l2_args](KinetoTrace& t, double ts) {
    t.opWithArgs("aten::_foreach_add_", ts, 20, kListScalar);  // step counters
    if (!l2_args.empty()) {
      const int64_t add = t.opWithArgs("aten::_foreach_add", ts + 30, 40, l2_args).lastExternalId();
      t.launch(add, ts + 40, 5, "multi_tensor_apply_kernel", ts + 3000, 50);
    }
    t.opWithArgs("aten::_foreach_lerp_", ts + 80, 20, "");
    t.opWithArgs("aten::_foreach_addcmul_", ts + 110, 20, "");
    t.opWithArgs("aten::_foreach_sqrt", ts + 140, 20, "");
    t.opWithArgs("aten::_foreach_add_", ts + 170, 20, kListScalar);  // + eps, in place
    t.opWithArgs("aten::_foreach_addcdiv_", ts + 200, 20, "");
  };
}

// PyTorch 1.13 foreach Adam (as recorded in tests/data/torch113): weight decay added in place
// before the moment updates, exp_avgs updated by an in-place list+list add after them, eps added
// out of place. `typed`: with "Input type" and "Concrete Inputs" (record_shapes=True, Kineto).
Body foreachStep113(bool weight_decay, bool typed) {
  return [=](KinetoTrace& t, double ts) {
    auto args = [typed](const std::string& a) { return typed ? a : std::string(); };
    t.opWithArgs("aten::_foreach_add_", ts, 20, args(kListScalar));  // step counters
    if (weight_decay) t.opWithArgs("aten::_foreach_add_", ts + 30, 20, args(kWeightDecayAdd));
    t.opWithArgs("aten::_foreach_mul_", ts + 60, 20, "");
    t.opWithArgs("aten::_foreach_add_", ts + 90, 20,
                 args(kTwoLists));  // exp_avgs += (1 - beta1) * grads
    t.opWithArgs("aten::_foreach_mul_", ts + 120, 20, "");
    t.opWithArgs("aten::_foreach_addcmul_", ts + 150, 20, "");
    t.opWithArgs("aten::_foreach_sqrt", ts + 180, 20, "");
    t.opWithArgs("aten::_foreach_add", ts + 210, 20, args(kListScalar));  // denom = sqrt + eps
    t.opWithArgs("aten::_foreach_addcdiv_", ts + 240, 20, "");
  };
}

// Single-tensor Adam over 3 parameters; `add_args` are the args of grad.add(param, alpha=...),
// no add when empty.
Body singleTensorStep(const std::string& add_args) {
  return [add_args](KinetoTrace& t, double ts) {
    for (int p = 0; p < 3; ++p) {
      const double at = ts + 300.0 * p;
      t.opWithArgs("aten::add_", at, 10,
                   R"("Input type": ["float", "Scalar", "Scalar"])");  // step_t += 1
      if (!add_args.empty()) t.opWithArgs("aten::add", at + 20, 10, add_args);
      t.opWithArgs("aten::lerp_", at + 40, 10, "");
      t.opWithArgs("aten::addcmul_", at + 60, 10, "");
      t.opWithArgs("aten::sqrt", at + 80, 10, "");
      t.opWithArgs("aten::add_", at + 100, 10,
                   R"("Input type": ["float", "Scalar", "Scalar"])");  // + eps
      t.opWithArgs("aten::addcdiv_", at + 120, 10, "");
    }
  };
}

// Fused Adam: the step counters, then aten::_fused_adam_ with these args.
Body fusedStep(const std::string& fused_args, const std::string& name = "aten::_fused_adam_") {
  return [fused_args, name](KinetoTrace& t, double ts) {
    t.opWithArgs("aten::_foreach_add_", ts, 20, kListScalar);
    const int64_t op = t.opWithArgs(name, ts + 30, 40, fused_args).lastExternalId();
    t.launch(op, ts + 40, 5, "multi_tensor_apply_kernel", ts + 3000, 80);
  };
}

std::string fusedConcrete(const std::string& weight_decay) {
  return R"("Concrete Inputs": ["", "", "", "", "", "", "0.001", "0.9", "0.999", ")" +
         weight_decay + R"(", "1e-08", "False", "False", "", ""])";
}

const std::string kParamAdd =
    R"("Input type": ["float", "float", "Scalar"], "Concrete Inputs": ["", "", "0.01"])";

std::string recordShapesReason() {
  return "Adam's foreach step records no \"Input type\": in this PyTorch version (or with maximize=True) weight "
         "decay would be an in-place aten::_foreach_add_(grads, params), which only the input types tell from the "
         "step-counter add; record with record_shapes=True";
}

steplint::test::RuleRun runOnTestData(const std::string& name) {
  steplint::trace::TraceModel model;
  const auto status =
      steplint::trace::importTraceFile(steplint::test::testDataPath("torch113/" + name), model);
  INFO(status.message);
  REQUIRE(status.ok());
  return steplint::test::runRule("SL605", model);
}

}  // namespace

TEST_CASE("SL605 fires on foreach Adam's out-of-place add of params to grads") {
  const auto run =
      steplint::test::runRuleOnJson("SL605", trace(kAdam, foreachStep(kWeightDecayAdd)));
  REQUIRE(run.diagnostics.size() == 1);
  const auto& d = run.diagnostics[0];
  CHECK(d.message ==
        "Adam applies weight_decay as L2 on the gradients in 2 of 2 optimizer steps "
        "(aten::_foreach_add(grads, params, alpha=0.01)); AdamW decouples it");
  CHECK(d.severity == steplint::analyzer::Severity::kNote);
  CHECK(d.evidence.steps == std::vector<int64_t>{0, 1});
  CHECK(d.evidence.events.size() == 4);  // per step: the Adam range and the add
  CHECK(d.evidence.metric("adam_steps") == 2);
  CHECK(d.evidence.metric("l2_steps") == 2);
  CHECK(d.evidence.metric("weight_decay") == Approx(0.01));
  CHECK(d.evidence.metric("l2_add_host_ms_per_step") == Approx(0.04));
  CHECK(d.evidence.metric("l2_add_gpu_ms_per_step") == Approx(0.05));
  CHECK_FALSE(d.saving.known());
  CHECK_FALSE(d.saving.method.empty());
  CHECK(d.fingerprint_key == "adam-l2");
  CHECK(run.not_checked.empty());
}

TEST_CASE("SL605 foreach: an out-of-place add before the moment updates fires even without types") {
  for (const std::string& args :
       {kTwoLists, std::string(R"("Sequence number": 7)")}) {  // no alpha; no types
    const auto run = steplint::test::runRuleOnJson("SL605", trace(kAdam, foreachStep(args)));
    REQUIRE(run.diagnostics.size() == 1);
    CHECK(run.diagnostics[0].message.find("(aten::_foreach_add(grads, params))") !=
          std::string::npos);
    CHECK(run.diagnostics[0].evidence.metric("weight_decay", -1) == -1);
  }
}

TEST_CASE("SL605 foreach 1.13: in-place weight decay before the moment updates fires") {
  const auto run = steplint::test::runRuleOnJson("SL605", trace(kAdam, foreachStep113(true, true)));
  REQUIRE(run.diagnostics.size() == 1);
  CHECK(run.diagnostics[0].message ==
        "Adam applies weight_decay as L2 on the gradients in 2 of 2 optimizer steps "
        "(aten::_foreach_add_(grads, params, alpha=0.01)); AdamW decouples it");
}

TEST_CASE(
    "SL605 is silent for Adam's eps add and later list+list adds (PyTorch 1.13, no weight decay)") {
  const auto run =
      steplint::test::runRuleOnJson("SL605", trace(kAdam, foreachStep113(false, true)));
  CHECK(run.diagnostics.empty());
  CHECK(run.not_checked.empty());
  // 2.x without weight decay: no out-of-place add at all, decided even without input types.
  for (const std::string& args : {kListScalar, std::string()}) {
    const Body body = [args](KinetoTrace& t, double ts) {
      t.opWithArgs("aten::_foreach_add_", ts, 20, args);
      t.opWithArgs("aten::_foreach_lerp_", ts + 30, 20, "");
      t.opWithArgs("aten::_foreach_addcmul_", ts + 60, 20, "");
      t.opWithArgs("aten::_foreach_add_", ts + 90, 20, args);  // + eps
      t.opWithArgs("aten::_foreach_addcdiv_", ts + 120, 20, "");
    };
    const auto plain = steplint::test::runRuleOnJson("SL605", trace(kAdam, body));
    CHECK(plain.diagnostics.empty());
    CHECK(plain.not_checked.empty());
  }
}

TEST_CASE("SL605 is silent for the capturable denominator add (list+list, out of place, <= 2.0)") {
  const Body body = [](KinetoTrace& t, double ts) {
    t.opWithArgs("aten::_foreach_add_", ts, 20, kListScalar);
    t.opWithArgs("aten::_foreach_mul_", ts + 30, 20, "");
    t.opWithArgs("aten::_foreach_add_", ts + 60, 20, kTwoLists);
    t.opWithArgs("aten::_foreach_addcmul_", ts + 90, 20, "");
    t.opWithArgs("aten::_foreach_reciprocal_", ts + 120, 20, "");
    t.opWithArgs("aten::_foreach_add", ts + 150, 20, kTwoLists);  // denom = sqrt + eps / step_size
    t.opWithArgs("aten::_foreach_addcdiv_", ts + 180, 20, "");
  };
  const auto run = steplint::test::runRuleOnJson("SL605", trace(kAdam, body));
  CHECK(run.diagnostics.empty());
  CHECK(run.not_checked.empty());
}

TEST_CASE("SL605 cannot tell in-place foreach adds apart without input types") {
  for (const bool weight_decay : {false, true}) {
    const auto run =
        steplint::test::runRuleOnJson("SL605", trace(kAdam, foreachStep113(weight_decay, false)));
    CHECK(run.diagnostics.empty());
    CHECK(run.not_checked == std::vector<std::string>{recordShapesReason()});
  }
}

TEST_CASE("SL605 with maximize=True: the in-place add decides with types, not without") {
  auto body = [](bool typed) {
    return Body([typed](KinetoTrace& t, double ts) {
      t.opWithArgs("aten::_foreach_neg", ts, 20, "");
      t.opWithArgs("aten::_foreach_add_", ts + 30, 20, typed ? kListScalar : "");
      t.opWithArgs("aten::_foreach_add_", ts + 60, 20,
                   typed ? kWeightDecayAdd : "");  // in place with maximize
      t.opWithArgs("aten::_foreach_lerp_", ts + 90, 20, "");
      t.opWithArgs("aten::_foreach_addcmul_", ts + 120, 20, "");
      t.opWithArgs("aten::_foreach_addcdiv_", ts + 150, 20, "");
    });
  };
  const auto typed = steplint::test::runRuleOnJson("SL605", trace(kAdam, body(true)));
  CHECK(typed.diagnostics.size() == 1);
  const auto untyped = steplint::test::runRuleOnJson("SL605", trace(kAdam, body(false)));
  CHECK(untyped.diagnostics.empty());
  CHECK(untyped.not_checked == std::vector<std::string>{recordShapesReason()});
}

TEST_CASE("SL605 fires on the single-tensor per-parameter aten::add, also on a CPU-only trace") {
  for (const bool gpu : {true, false}) {
    const auto run =
        steplint::test::runRuleOnJson("SL605", trace(kAdam, singleTensorStep(kParamAdd), gpu));
    REQUIRE(run.diagnostics.size() == 1);
    const auto& d = run.diagnostics[0];
    CHECK(d.message ==
          "Adam applies weight_decay as L2 on the gradients in 2 of 2 optimizer steps "
          "(per-parameter aten::add(grad, param, alpha=0.01) ×3 per step); AdamW decouples it");
    CHECK(d.evidence.metric("l2_add_host_ms_per_step") == Approx(0.03));
    CHECK(run.not_checked.empty());
  }
  // Without input types an out-of-place add still proves it: the single-tensor step has no other.
  CHECK(steplint::test::runRuleOnJson("SL605",
                                      trace(kAdam, singleTensorStep(R"("Sequence number": 1)")))
            .diagnostics.size() == 1);
}

TEST_CASE("SL605 single-tensor Adam without weight decay, or adding a scalar, is silent") {
  for (const std::string& args :
       {std::string(), std::string(R"("Input type": ["float", "Scalar", "Scalar"])")}) {
    const auto run = steplint::test::runRuleOnJson("SL605", trace(kAdam, singleTensorStep(args)));
    CHECK(run.diagnostics.empty());
    CHECK(run.not_checked.empty());
  }
}

TEST_CASE("SL605 ignores per-tensor aten::add inside a foreach op (the CPU fallback)") {
  auto body = [](const std::string& types) {
    return Body([types](KinetoTrace& t, double ts) {
      t.opWithArgs("aten::_foreach_add_", ts, 20, types);
      t.opWithArgs("aten::_foreach_mul_", ts + 30, 20, "");
      t.opWithArgs("aten::_foreach_addcmul_", ts + 60, 20, "");
      t.opWithArgs("aten::_foreach_add", ts + 90, 100,
                   types);  // the eps add, falling back per tensor
      for (int p = 0; p < 3; ++p) t.opWithArgs("aten::add", ts + 100 + 30.0 * p, 20, kParamAdd);
      t.opWithArgs("aten::_foreach_addcdiv_", ts + 200, 20, "");
    });
  };
  const auto typed = steplint::test::runRuleOnJson("SL605", trace(kAdam, body(kListScalar), false));
  CHECK(typed.diagnostics.empty());
  CHECK(typed.not_checked.empty());
  const auto untyped = steplint::test::runRuleOnJson("SL605", trace(kAdam, body(""), false));
  CHECK(untyped.diagnostics.empty());
  CHECK(untyped.not_checked == std::vector<std::string>{recordShapesReason()});
}

TEST_CASE("SL605 does not guess on an unknown implementation or an empty step") {
  const Body other = [](KinetoTrace& t, double ts) { t.opWithArgs("aten::copy_", ts, 20, ""); };
  const auto run = steplint::test::runRuleOnJson("SL605", trace(kAdam, other));
  CHECK(run.diagnostics.empty());
  REQUIRE(run.not_checked.size() == 1);
  CHECK(run.not_checked[0].find("match none of torch.optim.Adam's implementations") !=
        std::string::npos);
  const auto empty =
      steplint::test::runRuleOnJson("SL605", trace(kAdam, [](KinetoTrace&, double) {}));
  CHECK(empty.not_checked ==
        std::vector<std::string>{"the Adam steps contain no recorded aten ops"});
}

TEST_CASE("SL605 reads fused Adam's weight_decay from Concrete Inputs") {
  const std::string args = kTwoLists + ", " + fusedConcrete("0.01");
  const auto run = steplint::test::runRuleOnJson("SL605", trace(kAdam, fusedStep(args)));
  REQUIRE(run.diagnostics.size() == 1);
  const auto& d = run.diagnostics[0];
  CHECK(d.message ==
        "Adam applies weight_decay as L2 on the gradients in 2 of 2 optimizer steps "
        "(aten::_fused_adam_ weight_decay=0.01); AdamW decouples it");
  CHECK(d.evidence.metric("weight_decay") == Approx(0.01));
  CHECK(d.evidence.metric("l2_add_host_ms_per_step", -1) == -1);  // inside the fused kernel

  for (const char* zero : {"0", "0.", "0.0"}) {
    const auto none =
        steplint::test::runRuleOnJson("SL605", trace(kAdam, fusedStep(fusedConcrete(zero))));
    CHECK(none.diagnostics.empty());
    CHECK(none.not_checked.empty());
  }
  const auto unknown = steplint::test::runRuleOnJson("SL605", trace(kAdam, fusedStep(kTwoLists)));
  CHECK(unknown.diagnostics.empty());
  REQUIRE(unknown.not_checked.size() == 1);
  CHECK(unknown.not_checked[0].find("Concrete Inputs") != std::string::npos);
}

TEST_CASE("SL605 never flags AdamW") {
  for (const Body& body : {foreachStep(kWeightDecayAdd), singleTensorStep(kParamAdd)}) {
    const auto run =
        steplint::test::runRuleOnJson("SL605", trace("Optimizer.step#AdamW.step", body));
    CHECK(run.diagnostics.empty());
    CHECK(run.not_checked.empty());
  }
  // Adam(decoupled_weight_decay=True, fused=True) runs the AdamW kernel inside Adam's range.
  const auto decoupled = steplint::test::runRuleOnJson(
      "SL605", trace(kAdam, fusedStep(fusedConcrete("0.01"), "aten::_fused_adamw_")));
  CHECK(decoupled.diagnostics.empty());
  CHECK(decoupled.not_checked.empty());
}

TEST_CASE("SL605 without an optimizer range is not checked, with another optimizer it is silent") {
  const auto none = steplint::test::runRuleOnJson("SL605", trace("", singleTensorStep(kParamAdd)));
  CHECK(none.diagnostics.empty());
  REQUIRE(none.not_checked.size() == 1);
  CHECK(none.not_checked[0].find("no Optimizer.step#") == 0);

  const auto sgd = steplint::test::runRuleOnJson(
      "SL605", trace("Optimizer.step#SGD.step", singleTensorStep(kParamAdd)));
  CHECK(sgd.diagnostics.empty());
  CHECK(sgd.not_checked.empty());
}

TEST_CASE("SL605 on PyTorch 1.13 CPU traces (legacy format, no args)") {
  const auto single = runOnTestData("adam_l2_single_from_numpy.json.gz");
  REQUIRE(single.diagnostics.size() == 1);
  CHECK(single.diagnostics[0].message ==
        "Adam applies weight_decay as L2 on the gradients in 4 of 4 optimizer steps "
        "(per-parameter aten::add(grad, param) ×4 per step); AdamW decouples it");
  for (const char* clean : {"adam_single_no_wd.json.gz", "adamw_single_from_numpy.json.gz"}) {
    const auto run = runOnTestData(clean);
    CHECK(run.diagnostics.empty());
    CHECK(run.not_checked.empty());
  }
  // 1.13 adds weight decay in place; without "Input type" the rule cannot tell. Recorded with
  // record_shapes=True: the reason names the format, which never has types, not the flag.
  const auto foreach = runOnTestData("adam_l2_foreach_tensor_copy.json.gz");
  CHECK(foreach.diagnostics.empty());
  const std::string reason = recordShapesReason();
  CHECK(foreach.not_checked ==
        std::vector<std::string>{
            reason.substr(0, reason.rfind("record with record_shapes=True")) +
            "the trace is the legacy profiler's export (torch without Kineto, or "
            "use_kineto=False), whose format carries no input types whatever record_shapes says: "
            "record with steplint record --shapes, or torch.profiler on a torch built with "
            "Kineto"});
}
