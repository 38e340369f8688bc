// SL501 dataparallel-on-multi-gpu: tb_plugin R2 (`DataParallel.forward` present and more than
// one device ran device ops). DataParallel replicates the module every step and funnels
// outputs, loss and gradient reduction through GPU 0, all driven by one Python thread.
#include <algorithm>

#include "common/kernel_util.h"
#include "distributed/comm_util.h"
#include "steplint/analyzer/rule_registry.h"

namespace steplint::rules {

using analyzer::AnalysisContext;
using analyzer::DiagnosticSink;

namespace {

struct Options {
  int64_t min_devices = 2;
};

/// SL501: nn.DataParallel drives more than one GPU (tb_plugin R2).
class DataparallelOnMultiGpuRule final : public analyzer::RuleWith<Options> {
 public:
  using RuleWith::RuleWith;
  void check(const analyzer::AnalysisContext& context,
             analyzer::DiagnosticSink& sink) const override;

 private:
  // DataParallel over one GPU is not the pattern: at least 2.
  int64_t min_devices() const { return std::max<int64_t>(2, options().min_devices); }
};

}  // namespace

void registerSl501(analyzer::RuleRegistry& registry) {
  registry.add<DataparallelOnMultiGpuRule>(
      {"SL501", "dataparallel-on-multi-gpu", analyzer::Category::kDistributed,
       analyzer::Severity::kWarning, true, "nn.DataParallel drives several GPUs from one process"},
      {
          analyzer::option(
              "min-devices", &Options::min_devices,
              "flag when DataParallel.forward runs and at least this many GPUs are used", 2.0),
      });
}

void DataparallelOnMultiGpuRule::check(const AnalysisContext& context, DiagnosticSink& sink) const {
  if (!common::requireGpuActivity(context, sink)) return;
  const DistributedFacts& facts = distributedFacts(context);
  if (facts.dp_forward.empty() || static_cast<int64_t>(facts.devices.size()) < min_devices())
    return;
  // DDP balances the work DataParallel concentrates on the first GPU: measure that imbalance.
  const auto& gpus = context.summary().gpus;
  const size_t steps = std::max<size_t>(1, context.steps().steps.size());
  double first_busy = 0, others_busy = 0;
  size_t others = 0;
  int32_t first_device = -1;
  for (const analyzer::GpuSummary& g : gpus) {
    if (first_device < 0) {
      first_device = g.device;
      first_busy = static_cast<double>(g.kernel_busy_ns);
    } else {
      others_busy += static_cast<double>(g.kernel_busy_ns);
      ++others;
    }
  }
  const double extra_ns = others ? std::max(0.0, first_busy - others_busy / others) / steps : 0.0;
  analyzer::Diagnostic d = makeDiagnostic();
  d.message = strf(
      "DataParallel.forward drives %zu GPUs from one process (%zu calls); GPU %d is busy %.1f ms per "
      "step more than the average of the others",
      facts.devices.size(), facts.dp_forward.size(), first_device, extra_ns / 1e6);
  d.evidence.steps = keptStepNumbers(context);
  d.evidence.events = sampleEvents(facts.dp_forward);
  for (uint32_t i : d.evidence.events)
    d.evidence.ranges.push_back(
        {context.model().events[i].start_ns, context.model().events[i].end_ns()});
  d.evidence.metrics = {
      {"devices", static_cast<double>(facts.devices.size())},
      {"dataparallel_forward_calls", static_cast<double>(facts.dp_forward.size())},
      {"first_gpu_extra_busy_ms_per_step", extra_ns / 1e6}};
  common::EffectBuilder effect;
  const trace::TraceModel& model = context.model();
  if (first_busy > 0 && others > 0) {
    for (uint32_t i = 0; i < model.events.size(); ++i)
      if (trace::isDeviceOp(model.events[i].kind) &&
          model.deviceOf(model.events[i]) == first_device)
        effect.deviceOp(i);
  }
  d.saving.method =
      "GPU 0's work cut to the mean of the other GPUs (the output gather, loss and gradient reduction "
      "DataParallel concentrates on it); module replication and the single-thread launch overhead "
      "are not counted, so the real gain is usually larger";
  d.effect = effect.take(/*host_factor=*/1,
                         first_busy > 0 && others > 0 ? others_busy / others / first_busy : 1);
  d.fix = {
      "Python: torch.nn.parallel.DistributedDataParallel with one process per GPU (torchrun "
      "--nproc_per_node=N), backend \"nccl\"",
      "LibTorch: one process per GPU with c10d::ProcessGroupNCCL; all-reduce the gradients (bucketed, "
      "asynchronously during backward) instead of torch::nn::parallel::data_parallel"};
  d.fingerprint_key = "dataparallel";
  sink.report(std::move(d));
}

}  // namespace steplint::rules
