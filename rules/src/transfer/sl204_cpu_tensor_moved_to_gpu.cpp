#include <algorithm>
#include <cmath>
#include <map>

#include "common/rule_support.h"
#include "common/trace_tree.h"
#include "common/transfers.h"
#include "steplint/analyzer/breakdown.h"
#include "steplint/analyzer/rule_registry.h"

namespace steplint::rules {

using namespace common;  // rules/src/common helpers

using analyzer::Category;
using analyzer::Severity;
using trace::Event;
using trace::kNoIndex;

namespace {

bool isFactoryName(std::string_view name, bool allow_empty) {
  static constexpr std::string_view kFactories[] = {
      "aten::zeros",      "aten::ones",       "aten::full",       "aten::rand",
      "aten::randn",      "aten::randint",    "aten::randperm",   "aten::arange",
      "aten::linspace",   "aten::eye",        "aten::tensor",     "aten::scalar_tensor",
      "aten::lift_fresh", "aten::zeros_like", "aten::ones_like",  "aten::full_like",
      "aten::rand_like",  "aten::randn_like", "aten::normal_",    "aten::uniform_",
      "aten::fill_",      "aten::zero_",      "aten::bernoulli_", "aten::random_"};
  if (allow_empty && (name == "aten::empty" || name == "aten::empty_like")) return true;
  return std::find(std::begin(kFactories), std::end(kFactories), name) != std::end(kFactories);
}

/// TorchTidy's test: the sibling, or its last child, or that one's last child ..., is a CPU
/// factory op that launched nothing on the GPU. Returns the factory op or kNoIndex.
uint32_t cpuFactoryIn(const trace::TraceModel& model, uint32_t sibling, bool allow_empty) {
  for (uint32_t node = sibling; node != kNoIndex;) {
    const Event& e = model.events[node];
    const std::string_view name = model.name(e);
    if (analyzer::isDataLoaderName(name) ||
        name.find("torch/utils/data/") != std::string_view::npos)
      return kNoIndex;  // the input batch: SL201/SL203
    bool launches = false;
    uint32_t last_child = kNoIndex;
    forEachNested(model, node, [&](uint32_t j) {
      const Event& c = model.events[j];
      launches |= trace::isLaunchApi(c.kind);
      if (c.parent == node && trace::isCpuRange(c.kind)) last_child = j;
      return true;
    });
    if (isFactoryName(name, allow_empty)) return launches ? kNoIndex : node;
    node = last_child;
  }
  return kNoIndex;
}

}  // namespace

namespace {

struct Options {
  double min_step_fraction = 0.5;
};

/// SL204: a tensor is created on the CPU by a factory op and copied to the GPU right after,
/// every step, instead of being created on the GPU.
class CpuTensorMovedToGpuRule final : public analyzer::RuleWith<Options> {
 public:
  using RuleWith::RuleWith;
  void check(const analyzer::AnalysisContext& context,
             analyzer::DiagnosticSink& sink) const override;
};

}  // namespace

void registerSl204(analyzer::RuleRegistry& registry) {
  registry.add<CpuTensorMovedToGpuRule>(
      {"SL204", "cpu-tensor-moved-to-gpu", Category::kTransfer, Severity::kWarning, true,
       "a tensor is created on the CPU and copied to the GPU every step"},
      {
          analyzer::option("min-step-fraction", &Options::min_step_fraction,
                           "flag when the pattern occurs in at least this share of the steps",
                           analyzer::kShareBounds),
      });
}

void CpuTensorMovedToGpuRule::check(const analyzer::AnalysisContext& context,
                                    analyzer::DiagnosticSink& sink) const {
  if (!requireKnownDevice(context, sink, kCudaRocmXpu,
                          "the copy direction in memcpy names (Memcpy HtoD)"))
    return;
  if (!requireGpuAndSteps(context, sink)) return;
  const auto& steps = context.steps().steps;
  if (!context.steps().stepsAreIterations()) {
    sink.notChecked(
        "no ProfilerStep#N ranges and no iterations detected: a per-step pattern cannot be told from one-time setup");
    return;
  }
  const trace::TraceModel& model = context.model();
  std::vector<int64_t> count(steps.size()), cost(steps.size()), bytes(steps.size());
  std::map<std::string_view, int64_t> factories;
  EvidenceBuilder evidence(context);
  EffectBuilder effect;
  for (const Transfer& t : findTransfers(context)) {
    if (t.kind != trace::CopyKind::kHtoD || t.issuer == kNoIndex) continue;
    const Event& mover = model.events[t.issuer];
    const std::string_view mover_name = model.name(mover);
    if (mover_name != "aten::to" && mover_name != "aten::_to_copy" && mover_name != "aten::copy_")
      continue;
    if (findAncestor(model, t.issuer, [&](const Event& e) {
          return analyzer::isDataLoaderName(model.name(e));
        }) != kNoIndex)
      continue;
    // With Python stacks, `.to()` sits inside its own frame ("<built-in method to ...>"): the
    // factory is the previous sibling of that frame (TorchTidy: "the parent's previous sibling").
    uint32_t anchor = t.issuer, sibling = previousSibling(model, anchor);
    while (sibling == kNoIndex && model.events[anchor].parent != kNoIndex &&
           model.events[model.events[anchor].parent].kind == trace::EventKind::kPythonFunction) {
      anchor = model.events[anchor].parent;
      sibling = previousSibling(model, anchor);
    }
    // The factory must be in the same step's host range (the ProfilerStep itself): the step's
    // start pushed to its GPU work's (step extension) can fall after the step's first ops.
    if (sibling == kNoIndex || model.events[sibling].start_ns < steps[t.step].host_start_ns)
      continue;
    const uint32_t factory = cpuFactoryIn(model, sibling, mover_name != "aten::copy_");
    if (factory == kNoIndex) continue;
    ++count[t.step];
    cost[t.step] += std::max(t.host_blocked_ns, t.copy_ns);
    effect.hostEvent(model, factory);
    effect.hostEvent(model, t.issuer);  // the copy call and its synchronize are inside it
    effect.deviceOp(t.op);
    bytes[t.step] += t.bytes;
    ++factories[model.name(model.events[factory])];
    evidence.step(t.step);
    evidence.event(factory);
    evidence.eventWithRange(t.issuer);
    evidence.event(t.op);
  }
  const size_t hit_steps = stepsWithAny(count);
  const size_t needed = std::max<size_t>(
      1, static_cast<size_t>(std::ceil(options().min_step_fraction * steps.size())));
  if (hit_steps == 0 || hit_steps < needed) return;
  const double per_step = perStepAverage(count);
  const double cost_ms = perStepAverage(cost) / 1e6;
  const auto top =
      std::max_element(factories.begin(), factories.end(),
                       [](const auto& a, const auto& b) { return a.second < b.second; });
  evidence.metric("moves_per_step", per_step);
  evidence.metric("bytes_per_step", perStepAverage(bytes));
  evidence.metric("steps_with_pattern", static_cast<double>(hit_steps));

  analyzer::Diagnostic d = makeDiagnostic();
  const double avg_bytes = perStepAverage(bytes);
  const std::string size = avg_bytes > 0 ? formatBytes(avg_bytes) + "/step, " : std::string();
  d.message =
      strf("%s %s per step created on the CPU (%.*s) then copied to the GPU (%s%.2f ms/step)",
           formatCount(per_step).c_str(), formatCount(per_step) == "1" ? "tensor" : "tensors",
           static_cast<int>(top->first.size()), top->first.data(), size.c_str(), cost_ms);
  d.evidence = evidence.take();
  d.saving.method =
      "the CPU factory, the copy call (with its synchronize) and the device copy removed: created "
      "on the GPU, a fill kernel of a few µs replaces them";
  d.effect = effect.take(/*host_factor=*/0, /*device_factor=*/0);
  d.fix = {
      "LibTorch: create it on the device: torch::zeros(sizes, torch::TensorOptions().device(torch::kCUDA)) "
      "(same for ones/full/arange/randn)",
      "Python: torch.zeros(..., device=\"cuda\") instead of torch.zeros(...).to(\"cuda\"); see "
      "https://pytorch.org/tutorials/recipes/recipes/tuning_guide.html#create-tensors-directly-on-the-target-device",
      "if the values are constant, create the tensor once outside the loop and reuse it",
  };
  d.fingerprint_key = "cpu-factory-to-gpu";
  sink.report(std::move(d));
}

}  // namespace steplint::rules
