// SL503 exposed-communication: tb_plugin R4 (Communication > 10 % of the step). The breakdown's
// Communication category is already what no kernel, copy or memset covers (priority
// subtraction, docs/reference/peer-tools.md §1.4), i.e. the exposed part; HTA's comm/comp overlap
// (§2.6) is reported next to it.
#include "common/kernel_util.h"
#include "distributed/comm_util.h"
#include "steplint/analyzer/intervals.h"
#include "steplint/analyzer/name_memo.h"
#include "steplint/analyzer/rule_registry.h"

namespace steplint::rules {

using analyzer::AnalysisContext;
using analyzer::DiagnosticSink;
using analyzer::Interval;
using analyzer::IntervalSet;

namespace {

struct Options {
  double max_share = 0.1;
};

/// SL503: communication not hidden by computation takes a large share of the step (tb_plugin R4).
class ExposedCommunicationRule final : public analyzer::RuleWith<Options> {
 public:
  using RuleWith::RuleWith;
  void check(const analyzer::AnalysisContext& context,
             analyzer::DiagnosticSink& sink) const override;
};

}  // namespace

void registerSl503(analyzer::RuleRegistry& registry) {
  registry.add<ExposedCommunicationRule>(
      {"SL503", "exposed-communication", analyzer::Category::kDistributed,
       analyzer::Severity::kWarning, true,
       "communication not hidden by computation takes a large share of the step"},
      {
          analyzer::option(
              "max-share", &Options::max_share,
              "flag when exposed communication exceeds this share of the step (tb_plugin R4)",
              analyzer::kShareBounds),
      });
}

void ExposedCommunicationRule::check(const AnalysisContext& context, DiagnosticSink& sink) const {
  const trace::TraceModel& model = context.model();
  const StepWindow window = keptStepWindow(context);
  if (window.empty()) return sink.notChecked("no training steps");
  const double share = context.breakdown().averageFraction(analyzer::StepCategory::kCommunication);
  if (share <= options().max_share) return;
  // HTA overlap: |comm kernels ∩ compute kernels| / |comm kernels|, inside the kept steps.
  std::vector<Interval> comm, compute;
  std::vector<uint32_t> comm_kernels;
  analyzer::NameMemo comm_name(model, isCommKernelName);
  for (const trace::Event& k : model.events) {
    if (k.kind != trace::EventKind::kKernel || !window.contains(k.start_ns)) continue;
    if (comm_name(k.name)) {
      comm.push_back({k.start_ns, k.end_ns()});
      comm_kernels.push_back(model.indexOf(k));
    } else {
      compute.push_back({k.start_ns, k.end_ns()});
    }
  }
  const IntervalSet c = IntervalSet::fromUnsorted(std::move(comm));
  const IntervalSet p = IntervalSet::fromUnsorted(std::move(compute));
  const double overlap = c.empty() ? -1 : static_cast<double>(c.intersect(p).length()) / c.length();
  const DistributedFacts& facts = distributedFacts(context);
  const double comm_ns =
      context.breakdown().average_ns[static_cast<int>(analyzer::StepCategory::kCommunication)];
  analyzer::Diagnostic d = makeDiagnostic();
  d.message = strf(
      "communication not overlapped with computation takes %.1f%% of the step (%.1f ms of %.1f ms)",
      100 * share, comm_ns / 1e6, context.averageStepMs());
  if (overlap >= 0)
    d.message +=
        strf("; %.1f%% of communication-kernel time overlaps compute kernels", 100 * overlap);
  const int64_t world_size = model.metadata.distributed.world_size;
  if (world_size > 1) d.message += oneRankCaveat(world_size);
  d.evidence.steps = keptStepNumbers(context);
  d.evidence.ranges.push_back({window.start_ns, window.end_ns});
  std::vector<uint32_t> events = comm_kernels;
  if (events.empty()) events = facts.nccl_ops.empty() ? facts.gloo_ops : facts.nccl_ops;
  d.evidence.events = sampleEvents(events);
  d.evidence.metrics = {{"communication_share", share},
                        {"exposed_communication_ms_per_step", comm_ns / 1e6}};
  if (overlap >= 0) d.evidence.metrics.emplace_back("comm_compute_overlap", overlap);
  common::EffectBuilder effect;
  for (uint32_t k : comm_kernels) effect.deviceOp(k);
  if (comm_kernels.empty())
    for (uint32_t i : facts.nccl_ops.empty() ? facts.gloo_ops : facts.nccl_ops)
      effect.hostEvent(model, i);
  d.saving.method = "the collectives fully hidden under computation (half of them at the low end)";
  d.effect = effect.take(/*host_factor=*/0, /*device_factor=*/0, /*host_factor_worst=*/0.5,
                         /*device_factor_worst=*/0.5);
  d.fix = {
      "overlap gradient all-reduce with backward: DDP buckets do this (tune bucket_cap_mb); in LibTorch "
      "launch the c10d all-reduce per bucket from gradient hooks (param.register_hook) and wait only before "
      "optimizer.step()",
      "communicate less often: gradient accumulation with DDP no_sync() on the micro-steps, or a larger batch",
      "compress gradients (DDP comm hooks: fp16/bf16 compression or PowerSGD)"};
  d.fingerprint_key = "communication";
  sink.report(std::move(d));
}

}  // namespace steplint::rules
