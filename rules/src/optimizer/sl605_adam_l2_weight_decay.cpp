// SL605 adam-l2-weight-decay: torch.optim.Adam with weight_decay != 0 adds weight_decay * param
// to the gradient, so the decay is then divided by Adam's adaptive denominator (coupled L2).
// AdamW decays the weights directly (Loshchilov & Hutter, "Decoupled Weight Decay
// Regularization", ICLR 2019), which most recipes intend. A note about the recipe, not the
// speed: it fires only when an Adam step in the kept window proves the coupled add
// (sl605_adam_step_scan.cpp) and says "not checked" when no Adam step can be decided.
#include <algorithm>

#include "common/kernel_util.h"
#include "common/optimizer_ranges.h"
#include "common/shared_data.h"
#include "optimizer/sl605_adam_step_scan.h"
#include "steplint/analyzer/name_memo.h"
#include "steplint/analyzer/rule_registry.h"

namespace steplint::rules {

using analyzer::AnalysisContext;
using analyzer::DiagnosticSink;

namespace {

struct Options {};

/// SL605: torch.optim.Adam applies weight_decay as coupled L2 on the gradients; AdamW decouples it.
class AdamL2WeightDecayRule final : public analyzer::RuleWith<Options> {
 public:
  using RuleWith::RuleWith;
  void check(const analyzer::AnalysisContext& context,
             analyzer::DiagnosticSink& sink) const override;
};

}  // namespace

void registerSl605(analyzer::RuleRegistry& registry) {
  registry.add<AdamL2WeightDecayRule>(
      {"SL605", "adam-l2-weight-decay", analyzer::Category::kOptimizer, analyzer::Severity::kNote,
       true, "Adam applies weight_decay as L2 on the gradients; AdamW decouples it"});
}

namespace {

// The record_function torch.optim.Adam's step runs in. The name is the instance's class, so
// AdamW (a subclass of Adam in recent PyTorch) never matches.
constexpr std::string_view kAdamStep = "Optimizer.step#Adam.step";

struct L2Step {
  uint32_t range;
  AdamStepScan scan;
};

// "0.01", or "0.001–0.01" when the parameter groups differ.
std::string weightDecayText(double low, double high) {
  return low == high ? strf("%g", high) : strf("%g–%g", low, high);
}

// Which op shows the coupled add, for the message: the first proven step's implementation.
std::string evidenceText(const trace::TraceModel& model, const std::vector<L2Step>& steps,
                         double low, double high, bool known) {
  const AdamPath path = steps.front().scan.path;
  const std::string_view op = model.name(model.events[steps.front().scan.evidence.front()]);
  size_t ops = 0, same_path = 0;
  for (const L2Step& s : steps)
    if (s.scan.path == path) ops += s.scan.evidence.size(), ++same_path;
  const std::string alpha = known ? ", alpha=" + weightDecayText(low, high) : "";
  if (path == AdamPath::kFused)
    return "aten::_fused_adam_ weight_decay=" + weightDecayText(low, high);
  if (path == AdamPath::kForeach)
    return std::string(op) + "(grads, params" + alpha + ")";  // in place in 1.13
  return strf(
      "per-parameter aten::add(grad, param%s) ×%s per step", alpha.c_str(),
      common::formatCount(static_cast<double>(ops) / static_cast<double>(same_path)).c_str());
}

// Host time of the L2 add ops and GPU time of the device ops they launched, in ns.
std::pair<int64_t, int64_t> addCost(const AnalysisContext& context,
                                    const std::vector<L2Step>& steps) {
  const trace::TraceModel& model = context.model();
  const common::LaunchIndex* launches =
      context.hasGpuActivity() ? &common::launchIndex(context) : nullptr;
  int64_t host = 0, gpu = 0;
  for (const L2Step& s : steps) {
    if (s.scan.path == AdamPath::kFused) continue;  // inside the fused kernel: not separable
    for (uint32_t op : s.scan.evidence) {
      host += model.events[op].dur_ns;
      if (!launches) continue;
      common::forEachNested(model, op, [&](uint32_t i) {
        const uint32_t device_op = launches->deviceOpOf(i);
        if (device_op != trace::kNoIndex) gpu += model.events[device_op].dur_ns;
        return true;
      });
    }
  }
  return {host, gpu};
}

}  // namespace

void AdamL2WeightDecayRule::check(const AnalysisContext& context, DiagnosticSink& sink) const {
  const trace::TraceModel& model = context.model();
  const StepWindow window = keptStepWindow(context);
  if (window.empty()) return sink.notChecked("no training steps");
  analyzer::NameMemo is_adam(model, [](std::string_view n) { return n == kAdamStep; });
  const std::vector<uint32_t> adam = common::outermostRangesInWindow(model, window, is_adam);
  if (adam.empty()) {
    analyzer::NameMemo is_step(
        model, [](std::string_view n) { return startsWith(n, common::kOptimizerStepPrefix); });
    if (common::outermostRangesInWindow(model, window, is_step).empty())
      sink.notChecked(
          "no Optimizer.step#... annotation in the steps: the optimizer class is not visible (LibTorch C++ "
          "optimizers do not label their step: wrap optimizer.step() in "
          "RECORD_USER_SCOPE(\"Optimizer.step#Adam.step\"))");
    return;  // another optimizer
  }
  AdamStepScanner scanner(model);
  std::vector<L2Step> l2;
  size_t decided_no = 0;
  AdamUndecided undecided = AdamUndecided::kNone;
  for (uint32_t range : adam) {
    AdamStepScan scan = scanner.scan(range);
    if (scan.l2)
      l2.push_back({range, std::move(scan)});
    else if (scan.undecided == AdamUndecided::kNone)
      ++decided_no;
    else if (undecided == AdamUndecided::kNone)
      undecided = scan.undecided;
  }
  if (l2.empty()) {
    if (decided_no == 0) sink.notChecked(adamUndecidedReason(undecided, model.metadata));
    return;
  }
  bool known = false;
  double low = 0, high = 0;
  for (const L2Step& s : l2) {
    if (!s.scan.weight_decay_known) continue;
    low = known ? std::min(low, s.scan.min_weight_decay) : s.scan.min_weight_decay;
    high = known ? std::max(high, s.scan.max_weight_decay) : s.scan.max_weight_decay;
    known = true;
  }
  const bool fused = l2.front().scan.path == AdamPath::kFused;
  analyzer::Diagnostic d = makeDiagnostic();
  d.message = strf(
      "Adam applies weight_decay as L2 on the gradients in %zu of %zu optimizer steps (%s); AdamW "
      "decouples it",
      l2.size(), adam.size(), evidenceText(model, l2, low, high, known).c_str());
  common::EvidenceBuilder evidence(context);
  std::vector<uint32_t> positions(l2.size());
  for (uint32_t i = 0; i < positions.size(); ++i) {
    positions[i] = i;
    evidence.step(common::hostStepAt(context, model.events[l2[i].range].start_ns));
  }
  for (uint32_t i : sampleEvents(positions, common::kMaxEvidenceEvents / 2)) {
    evidence.eventWithRange(l2[i].range);
    evidence.event(l2[i].scan.evidence.front());
  }
  const double l2_steps = static_cast<double>(l2.size());
  evidence.metric("adam_steps", static_cast<double>(adam.size()));
  evidence.metric("l2_steps", l2_steps);
  if (known) evidence.metric("weight_decay", high);
  if (!fused) {
    const auto [host_ns, gpu_ns] = addCost(context, l2);
    evidence.metric("l2_add_host_ms_per_step", static_cast<double>(host_ns) / l2_steps / 1e6);
    if (gpu_ns > 0)
      evidence.metric("l2_add_gpu_ms_per_step", static_cast<double>(gpu_ns) / l2_steps / 1e6);
  }
  d.evidence = evidence.take();
  // The fused kernel and 1.13's _foreach_add_ add in place: no temporary to drop there.
  const bool out_of_place =
      !fused && !endsWith(model.name(model.events[l2.front().scan.evidence.front()]), "_");
  d.saving.method =
      out_of_place ? "none claimed: AdamW changes the regularization, not the speed; it drops the "
                     "out-of-place add and its gradient-sized temporary each step"
                   : "none claimed: AdamW changes the regularization, not the speed";
  d.fix = {
      "LibTorch: torch::optim::AdamW(params, torch::optim::AdamWOptions(lr).weight_decay(wd))",
      "Python: torch.optim.AdamW(params, lr=..., weight_decay=...) (decoupled; retune weight_decay: AdamW's value "
      "is multiplied by lr, typical 0.01-0.1, while Adam's L2 coefficient is divided by the adaptive denominator)",
      "if coupled L2 regularization is intended, keep Adam and ignore SL605 in steplint.toml"};
  d.fingerprint_key = "adam-l2";
  sink.report(std::move(d));
}

}  // namespace steplint::rules
