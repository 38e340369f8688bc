// SL603 torch-tensor-copy: torch.tensor(x) always copies x. When x is already a NumPy array or
// a tensor, torch.as_tensor / torch.from_numpy share its memory instead (PyTorch tuning guide).
//
// The call leaves a fixed op sequence in every PyTorch version (torch/csrc/utils/tensor_new.cpp:
// tensor_ctor -> internal_new_from_data, then `detach_()` on the result):
//   array or tensor   -> aten::to > aten::_to_copy > aten::copy_  (copy=True), then aten::detach_
//   Python sequence   -> aten::empty, a no-op aten::to, aten::lift_fresh, then aten::detach_
// (1.13 also puts an aten::lift_fresh before the array's aten::to). So an `aten::to` that copies
// on the host and is followed directly by `aten::detach_` is torch.tensor() (or
// Tensor.new_tensor()) of existing data. A sequence is converted element by element by as_tensor
// too, and a copy to another device (a memcpy launched inside aten::to) happens with as_tensor as
// well: neither is flagged. Python frames are not needed; with_stack traces wrap both ops in the
// `<built-in method tensor ...>` frame, which keeps them siblings.
#include <algorithm>
#include <cmath>

#include "common/rule_support.h"
#include "common/shared_data.h"
#include "common/trace_tree.h"
#include "steplint/analyzer/name_memo.h"
#include "steplint/analyzer/rule_registry.h"

namespace steplint::rules {

using namespace common;  // rules/src/common helpers

using trace::Event;
using trace::kNoIndex;

namespace {

bool isDetachInPlace(std::string_view name) { return name == "aten::detach_"; }

/// The `aten::to` just before `detach` when it copied on the host, else kNoIndex.
uint32_t hostCopyBefore(const trace::TraceModel& model, uint32_t detach) {
  const uint32_t to = previousSibling(model, detach);
  if (to == kNoIndex) return kNoIndex;
  const Event& e = model.events[to];
  if (e.kind != trace::EventKind::kCpuOp || model.name(e) != "aten::to") return kNoIndex;
  // Called from Python (a step range or a Python frame around it), not inside another aten op.
  // The kind cannot tell: legacy traces have no categories, so their steps are cpu ops too.
  if (e.parent != kNoIndex && startsWith(model.name(model.events[e.parent]), "aten::"))
    return kNoIndex;
  bool copied = false, launched = false;
  forEachNested(model, to, [&](uint32_t j) {
    const Event& c = model.events[j];
    launched |= trace::isLaunchApi(c.kind);
    if (c.kind != trace::EventKind::kCpuOp) return true;
    copied |= model.name(c) == "aten::_to_copy" || model.name(c) == "aten::copy_";
    return true;
  });
  return copied && !launched ? to : kNoIndex;
}

}  // namespace

namespace {

struct Options {
  double min_step_fraction = 0.5;
  double min_share = 0.01;
};

/// SL603: torch.tensor() copies an existing array or tensor every step, where torch.as_tensor /
/// torch.from_numpy would share its memory (PyTorch tuning guide).
class TorchTensorCopyRule final : public analyzer::RuleWith<Options> {
 public:
  using RuleWith::RuleWith;
  void check(const analyzer::AnalysisContext& context,
             analyzer::DiagnosticSink& sink) const override;
};

}  // namespace

void registerSl603(analyzer::RuleRegistry& registry) {
  registry.add<TorchTensorCopyRule>(
      {"SL603", "torch-tensor-copy", analyzer::Category::kOptimizer, analyzer::Severity::kWarning,
       true, "torch.tensor() copies an existing array or tensor every step"},
      {
          analyzer::option("min-step-fraction", &Options::min_step_fraction,
                           "flag when the copies occur in at least this share of the kept steps",
                           analyzer::kShareBounds),
          analyzer::option("min-share", &Options::min_share,
                           "... and take at least this share of the average step on the host",
                           analyzer::kShareBounds),
      });
}

void TorchTensorCopyRule::check(const analyzer::AnalysisContext& context,
                                analyzer::DiagnosticSink& sink) const {
  const trace::TraceModel& model = context.model();
  const auto& steps = context.steps().steps;
  if (steps.empty()) return sink.notChecked("no training steps");
  if (!context.steps().stepsAreIterations())
    return sink.notChecked(
        "no ProfilerStep#N ranges and no iterations detected: a per-step pattern cannot be told "
        "from one-time setup");
  std::vector<int64_t> count(steps.size()), copy_ns(steps.size());
  EvidenceBuilder evidence(context);
  EffectBuilder effect;
  analyzer::NameMemo detach_name(model, isDetachInPlace);
  for (const uint32_t detach : kindIndex(context).of(trace::EventKind::kCpuOp)) {
    if (!detach_name(model.events[detach].name)) continue;
    const uint32_t to = hostCopyBefore(model, detach);
    if (to == kNoIndex) continue;
    const Event& op = model.events[to];
    const int step = hostStepAt(context, op.start_ns);
    if (step < 0) continue;
    ++count[step];
    copy_ns[step] += op.dur_ns;
    effect.hostEvent(model, to);
    evidence.step(step);
    evidence.eventWithRange(to);
    evidence.event(detach);
  }
  const size_t hit_steps = stepsWithAny(count);
  const size_t needed = std::max<size_t>(
      1, static_cast<size_t>(std::ceil(options().min_step_fraction * steps.size())));
  const double copy_ms = perStepAverage(copy_ns) / 1e6;
  const double step_ms = context.averageStepMs();
  const double share = step_ms > 0 ? copy_ms / step_ms : 0;
  if (hit_steps == 0 || hit_steps < needed || share < options().min_share) return;
  const double per_step = perStepAverage(count);
  evidence.metric("copies_per_step", per_step);
  evidence.metric("copy_ms_per_step", copy_ms);
  evidence.metric("steps_with_pattern", static_cast<double>(hit_steps));

  analyzer::Diagnostic d = makeDiagnostic();
  d.message = strf(
      "torch.tensor() copies an existing array or tensor %s %s per step (%.2f ms/step on the host, "
      "%.1f%% of the step)",
      formatCount(per_step).c_str(), formatCount(per_step) == "1" ? "time" : "times", copy_ms,
      100.0 * share);
  d.evidence = evidence.take();
  d.saving.method =
      "the copy ops' host time removed: torch.as_tensor / torch.from_numpy share the memory when "
      "dtype and device already match";
  d.effect = effect.take(/*host_factor=*/0);
  d.fix = {
      "LibTorch: torch::from_blob(data, sizes, options) wraps existing memory without a copy (keep the buffer "
      "alive for the tensor's lifetime; clone() only the tensors that must outlive it)",
      "Python: torch.as_tensor(x) or torch.from_numpy(array) instead of torch.tensor(x): no copy when the dtype "
      "and device match (a tensor x needs no conversion at all; use x.detach() if it must not track gradients)",
      "in a Dataset's __getitem__ run in the main process (num_workers=0) the copy sits on the step's critical "
      "path: convert without copying, or let DataLoader workers do it",
  };
  d.fingerprint_key = "torch-tensor-copy";
  sink.report(std::move(d));
}

}  // namespace steplint::rules
