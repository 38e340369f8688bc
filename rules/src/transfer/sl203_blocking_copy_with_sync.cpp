#include "common/gpu_timeline.h"
#include "common/rule_support.h"
#include "common/shared_data.h"
#include "common/transfers.h"
#include "steplint/analyzer/rule_registry.h"

namespace steplint::rules {

using namespace common;  // rules/src/common helpers

using analyzer::Category;
using analyzer::Severity;
using trace::CopyKind;
using trace::MemoryKind;

namespace {

struct Options {
  double min_blocked_ms_per_step = 0.1;
};

/// SL203: a copy to the device that blocks the host (pageable source, a synchronize right
/// after the copy call, or a synchronous copy API), so the CPU cannot queue further work.
class BlockingCopyWithSyncRule final : public analyzer::RuleWith<Options> {
 public:
  using RuleWith::RuleWith;
  void check(const analyzer::AnalysisContext& context,
             analyzer::DiagnosticSink& sink) const override;
};

}  // namespace

void registerSl203(analyzer::RuleRegistry& registry) {
  registry.add<BlockingCopyWithSyncRule>(
      {"SL203", "blocking-copy-with-sync", Category::kTransfer, Severity::kWarning, true,
       "copies to the device block the host until they finish"},
      {
          analyzer::option("min-blocked-ms-per-step", &Options::min_blocked_ms_per_step,
                           "flag when blocking copies hold the host this many ms per step"),
      });
}

void BlockingCopyWithSyncRule::check(const analyzer::AnalysisContext& context,
                                     analyzer::DiagnosticSink& sink) const {
  if (!requireKnownDevice(context, sink, kCudaAndRocm, "CUDA/HIP synchronizing API names")) return;
  if (!requireGpuAndSteps(context, sink)) return;
  const auto& steps = context.steps().steps;
  const trace::TraceModel& model = context.model();
  const DeviceBusyTimeline& busy = deviceBusyTimeline(context);
  std::vector<int64_t> count(steps.size()), blocked(steps.size()), idle(steps.size());
  int64_t pageable = 0, synced = 0, sync_api = 0;
  EvidenceBuilder evidence(context);
  EffectBuilder effect;
  for (const Transfer& t : findTransfers(context)) {
    if (t.call == trace::kNoIndex || t.kind == CopyKind::kDtoH || t.kind == CopyKind::kAtoH)
      continue;
    const bool from_pageable = t.kind == CopyKind::kHtoD && t.src == MemoryKind::kPageable;
    const bool has_sync = t.sync != trace::kNoIndex;
    if (!(t.sync_api || (t.async_api && (from_pageable || has_sync)))) continue;
    ++count[t.step];
    blocked[t.step] += t.host_blocked_ns;
    effect.wait(t.call);
    effect.wait(t.sync);
    const trace::Event& call = model.events[t.call];
    const int64_t returned = has_sync ? model.events[t.sync].end_ns() : call.end_ns();
    idle[t.step] += busy.idleAfterSync(model.deviceOf(model.events[t.op]), call.start_ns, returned,
                                       idleLimit(context, t.step));
    pageable += from_pageable;
    synced += has_sync;
    sync_api += t.sync_api;
    evidence.step(t.step);
    evidence.eventWithRange(t.call);
    evidence.event(t.sync);
    evidence.event(t.issuer);
  }
  const double blocked_ms = perStepAverage(blocked) / 1e6;
  if (stepsWithAny(count) == 0 || blocked_ms < options().min_blocked_ms_per_step) return;
  const double per_step = perStepAverage(count);
  const double n_steps = static_cast<double>(steps.size());
  std::string how;
  auto add = [&how](const std::string& part) { how += (how.empty() ? "" : ", ") + part; };
  if (pageable > 0) add(formatCount(pageable / n_steps) + " from pageable memory");
  if (synced > 0)
    add(formatCount(synced / n_steps) + " followed by a stream synchronize in the same op");
  if (sync_api > 0) add(formatCount(sync_api / n_steps) + " through a synchronous copy API");
  evidence.metric("blocking_copies_per_step", per_step);
  const double idle_ms = perStepAverage(idle) / 1e6;
  evidence.metric("host_blocked_ms_per_step", blocked_ms);
  evidence.metric("gpu_idle_ms_per_step", idle_ms);

  analyzer::Diagnostic d = makeDiagnostic();
  const bool one = formatCount(per_step) == "1";
  d.message = strf(
      "%s %s to the device per step %s the host for %.2f ms/step (%s); the GPU then idles "
      "%.2f ms/step until the next launch",
      formatCount(per_step).c_str(), one ? "copy" : "copies", one ? "blocks" : "block", blocked_ms,
      how.c_str(), idle_ms);
  d.evidence = evidence.take();
  d.saving.method =
      "the copies no longer block the host (pinned memory, non_blocking): the host queues the next "
      "kernels while the copy runs";
  d.effect = effect.take(/*host_factor=*/1);
  d.fix = {
      "LibTorch: pin the source (tensor.pin_memory() or DataLoaderOptions with a pinned collate) and copy with "
      "tensor.to(device, /*non_blocking=*/true)",
      "Python: DataLoader(..., pin_memory=True) and batch.to(device, non_blocking=True); to hide the copy fully, "
      "prefetch the next batch on a side torch.cuda.Stream",
  };
  d.fingerprint_key = "blocking-copy-to-device";
  sink.report(std::move(d));
}

}  // namespace steplint::rules
