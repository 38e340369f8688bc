#include <map>

#include "common/host_sync.h"
#include "common/rule_support.h"
#include "steplint/analyzer/rule_registry.h"

namespace steplint::rules {

using namespace common;  // rules/src/common helpers

using analyzer::Category;
using analyzer::Severity;

namespace {

struct Options {
  double max_syncs_per_step = 2.0;
};

/// SL206: many synchronize API calls per step (cudaStreamSynchronize, cudaDeviceSynchronize,
/// cudaEventSynchronize), whatever issued them: the nsys `cuda_api_sync` view per step.
class ExcessiveSynchronizeRule final : public analyzer::RuleWith<Options> {
 public:
  using RuleWith::RuleWith;
  void check(const analyzer::AnalysisContext& context,
             analyzer::DiagnosticSink& sink) const override;
};

}  // namespace

void registerSl206(analyzer::RuleRegistry& registry) {
  registry.add<ExcessiveSynchronizeRule>(
      {"SL206", "excessive-synchronize", Category::kTransfer, Severity::kWarning, true,
       "many stream/device/event synchronize calls per step"},
      {
          analyzer::option("max-syncs-per-step", &Options::max_syncs_per_step,
                           "flag when synchronize calls per step exceed this on average"),
      });
}

void ExcessiveSynchronizeRule::check(const analyzer::AnalysisContext& context,
                                     analyzer::DiagnosticSink& sink) const {
  if (!requireKnownDevice(context, sink, kCudaAndRocm, "CUDA/HIP synchronizing API names")) return;
  if (!requireGpuAndSteps(context, sink)) return;
  const auto& steps = context.steps().steps;
  const trace::TraceModel& model = context.model();
  std::vector<int64_t> count(steps.size()), blocked(steps.size()), idle(steps.size()),
      idle_loader(steps.size()), explicit_calls(steps.size()), backend_calls(steps.size());
  std::map<std::string, int64_t> by_api;
  EvidenceBuilder evidence(context);
  EffectBuilder effect;
  for (const HostSync& s : findHostSyncs(context)) {
    if (s.api == SyncApi::kSyncCopy) continue;                  // copies are SL203 / SL202
    if (s.cause == SyncCause::kExplicit) effect.wait(s.event);  // the ones the fix removes
    ++count[s.step];
    blocked[s.step] += s.end_ns - s.start_ns;
    idle[s.step] += s.gpu_idle_ns;
    idle_loader[s.step] += s.gpu_idle_loader_ns;
    explicit_calls[s.step] += s.cause == SyncCause::kExplicit;
    backend_calls[s.step] += s.cause == SyncCause::kCollective;
    ++by_api[std::string(model.name(model.events[s.event]))];
    evidence.step(s.step);
    evidence.eventWithRange(s.event);
  }
  const double per_step = perStepAverage(count);
  if (per_step <= options().max_syncs_per_step) return;
  const double n_steps = static_cast<double>(steps.size());
  std::string apis;
  for (const auto& [name, n] : by_api)
    apis += (apis.empty() ? "" : ", ") + formatCount(static_cast<double>(n) / n_steps) + " " + name;
  const double blocked_ms = perStepAverage(blocked) / 1e6, idle_ms = perStepAverage(idle) / 1e6;
  const double loader_ms = perStepAverage(idle_loader) / 1e6;
  evidence.metric("syncs_per_step", per_step);
  evidence.metric("explicit_syncs_per_step", perStepAverage(explicit_calls));
  evidence.metric("backend_syncs_per_step", perStepAverage(backend_calls));
  evidence.metric("host_blocked_ms_per_step", blocked_ms);
  evidence.metric("gpu_idle_ms_per_step", idle_ms);
  evidence.metric("gpu_idle_dataloader_ms_per_step", loader_ms);
  evidence.metric("threshold", options().max_syncs_per_step);

  analyzer::Diagnostic d = makeDiagnostic();
  // Syncs that cost no measurable GPU time (under 1% of the step) are reported as a note.
  const double step_ms = context.averageStepMs();
  if (step_ms > 0 && idle_ms < 0.01 * step_ms) d.severity = Severity::kNote;
  d.message = strf(
      "%s synchronize calls per step (%s; %s explicit) block the host %.2f ms/step and leave the GPU "
      "idle %.2f ms/step",
      formatCount(per_step).c_str(), apis.c_str(),
      formatCount(perStepAverage(explicit_calls)).c_str(), blocked_ms, idle_ms);
  d.message += loaderShare(idle_ms, loader_ms);
  if (const double backend = perStepAverage(backend_calls); backend > 0)
    d.message += strf("; %s of them the communication backend's own (gloo on GPU tensors: SL502)",
                      formatCount(backend).c_str());
  d.evidence = evidence.take();
  // Without an explicit call there is nothing this fix removes: the syncs come from torch's own
  // calls (reads of a value, blocking copies), whose findings carry the saving.
  d.saving.method =
      perStepAverage(explicit_calls) > 0
          ? "the explicit synchronize calls removed (syncs that read a value are SL202's)"
          : "no separate saving: none of these syncs is an explicit synchronize call; the ones torch "
            "makes itself are removed by fixing what triggers them (SL202, SL203)";
  d.effect = effect.take(/*host_factor=*/1);
  d.fix = {
      "LibTorch: drop torch::cuda::synchronize() / stream.synchronize() from the step; order work across streams "
      "with at::cuda::CUDAEvent::record() + block() (cudaStreamWaitEvent) instead of host waits",
      "Python: remove torch.cuda.synchronize() from the loop (profile with torch.profiler instead of wall-clock "
      "timing); use event.wait(stream) / stream.wait_stream() to order streams without blocking the host",
  };
  d.fingerprint_key = "synchronize-calls";
  sink.report(std::move(d));
}

}  // namespace steplint::rules
