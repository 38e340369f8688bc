#include <algorithm>
#include <array>
#include <map>
#include <string_view>

#include "common/host_sync.h"
#include "common/rule_support.h"
#include "steplint/analyzer/rule_registry.h"

namespace steplint::rules {

using namespace common;  // rules/src/common helpers

using analyzer::Category;
using analyzer::Severity;

namespace {

struct Options {
  double min_syncs_per_step = 1.0;
  double warning_syncs_per_step = 2.0;
  double min_gpu_idle_ms_per_step = 0.05;
};

/// SL202: the CPU thread waits for the GPU inside the step (.item(), .cpu(), synchronize ...),
/// draining the GPU queue.
class HostSyncInStepRule final : public analyzer::RuleWith<Options> {
 public:
  using RuleWith::RuleWith;
  void check(const analyzer::AnalysisContext& context,
             analyzer::DiagnosticSink& sink) const override;
};

// Where the sync was called, for "most from X": the op around it, else the innermost range; a
// call made in the step itself names no op (its ProfilerStep#N differs from step to step, and
// "most from ProfilerStep#10" read as one step's doing).
std::string_view syncSource(const analyzer::AnalysisContext& context, const HostSync& s) {
  const trace::TraceModel& model = context.model();
  if (s.op != trace::kNoIndex) return model.name(model.events[s.op]);
  if (s.range == trace::kNoIndex) return model.name(model.events[s.event]);
  if (s.step >= 0 && context.steps().steps[static_cast<size_t>(s.step)].event == s.range)
    return "the step itself, outside any op";
  return model.name(model.events[s.range]);
}

}  // namespace

void registerSl202(analyzer::RuleRegistry& registry) {
  registry.add<HostSyncInStepRule>(
      {"SL202", "host-sync-in-step", Category::kTransfer, Severity::kWarning, true,
       "the CPU waits for the GPU inside the step (.item(), .cpu(), synchronize)"},
      {
          analyzer::option("min-syncs-per-step", &Options::min_syncs_per_step,
                           "flag when the average number of host syncs per step reaches this"),
          analyzer::option(
              "warning-syncs-per-step", &Options::warning_syncs_per_step,
              "from this many syncs per step the finding is a warning; below it, a note"),
          analyzer::option(
              "min-gpu-idle-ms-per-step", &Options::min_gpu_idle_ms_per_step,
              "flag only when the syncs leave the GPU idle at least this long per step"),
      });
}

void HostSyncInStepRule::check(const analyzer::AnalysisContext& context,
                               analyzer::DiagnosticSink& sink) const {
  if (!requireKnownDevice(context, sink, kCudaAndRocm, "CUDA/HIP synchronizing API names")) return;
  if (!requireGpuAndSteps(context, sink)) return;
  const auto& steps = context.steps().steps;
  const trace::TraceModel& model = context.model();
  std::vector<int64_t> count(steps.size()), idle(steps.size()), idle_loader(steps.size());
  std::array<int64_t, kSyncCauseCount> by_cause{};
  std::map<std::string_view, int64_t> by_op;
  EvidenceBuilder evidence(context);
  EffectBuilder effect;
  for (const HostSync& s : findHostSyncs(context)) {
    if (s.cause == SyncCause::kCopyToDevice) continue;  // blocking copies to the device: SL203
    // The backend's own waits (gloo on GPU tensors) go with a faster backend: SL502/SL503.
    if (s.cause == SyncCause::kCollective) continue;
    effect.wait(s.event);
    // A copy to the host blocks in its own call first (pageable memory): that wait goes too.
    if (s.copy != trace::kNoIndex) effect.wait(model.events[s.copy].link);
    ++count[s.step];
    idle[s.step] += s.gpu_idle_ns;
    idle_loader[s.step] += s.gpu_idle_loader_ns;
    ++by_cause[static_cast<size_t>(s.cause)];
    ++by_op[syncSource(context, s)];
    evidence.step(s.step);
    evidence.eventWithRange(s.event);
    evidence.event(s.op);
  }
  const double per_step = perStepAverage(count);
  if (stepsWithAny(count) == 0 || per_step < options().min_syncs_per_step) return;
  const double idle_ms = perStepAverage(idle) / 1e6;
  const double loader_ms = perStepAverage(idle_loader) / 1e6;
  if (idle_ms < options().min_gpu_idle_ms_per_step)
    return;  // the syncs found the GPU idle or nothing waiting: no measured cost

  std::string causes;
  for (size_t c = 0; c < by_cause.size(); ++c) {
    if (by_cause[c] == 0) continue;
    const double avg = static_cast<double>(by_cause[c]) / static_cast<double>(steps.size());
    causes += (causes.empty() ? "" : ", ") + formatCount(avg) + " " +
              std::string(syncCauseName(static_cast<SyncCause>(c)));
    evidence.metric("syncs_per_step_" + std::string(syncCauseName(static_cast<SyncCause>(c))), avg);
  }
  const auto top = std::max_element(
      by_op.begin(), by_op.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
  evidence.metric("syncs_per_step", per_step);
  evidence.metric("gpu_idle_ms_per_step", idle_ms);
  evidence.metric("gpu_idle_dataloader_ms_per_step", loader_ms);

  analyzer::Diagnostic d = makeDiagnostic();
  d.severity = per_step >= options().warning_syncs_per_step ? Severity::kWarning : Severity::kNote;
  const bool one = formatCount(per_step) == "1";
  d.message = strf("%s host %s per step (%s; most from %.*s) %s the GPU idle %.2f ms/step",
                   formatCount(per_step).c_str(), one ? "sync" : "syncs", causes.c_str(),
                   static_cast<int>(top->first.size()), top->first.data(), one ? "leaves" : "leave",
                   idle_ms);
  d.message += loaderShare(idle_ms, loader_ms);
  d.evidence = evidence.take();
  d.saving.method =
      "the syncs no longer block: the host queues the next work (the next step's, for a sync at "
      "the end of a step) while the GPU finishes";
  d.effect = effect.take(/*host_factor=*/1);
  d.fix = {
      "LibTorch: keep values on the device inside the step (accumulate loss as a tensor; call .item<float>() "
      "or .to(torch::kCPU) every N steps); drop torch::cuda::synchronize() from the loop",
      "Python: running_loss += loss.detach() and log running_loss.item() every N steps; avoid .cpu()/.tolist()/"
      "print(tensor) and torch.cuda.synchronize() per step; time with torch.cuda.Event(enable_timing=True)",
      "data-dependent shapes (nonzero, masked_select, boolean indexing) read sizes back: prefer torch.where or "
      "fixed-size masks",
  };
  d.fingerprint_key = "host-sync";
  sink.report(std::move(d));
}

}  // namespace steplint::rules
