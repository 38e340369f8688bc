// SL502 ddp-without-nccl: tb_plugin R3 (DDP used, no NCCL communication, a GPU of compute
// capability >= 3.5). NCCL is also recognised from its kernels and from distributedInfo.backend,
// which tb_plugin ignores.
#include <algorithm>

#include "common/kernel_util.h"
#include "distributed/comm_util.h"
#include "steplint/analyzer/rule_registry.h"

namespace steplint::rules {

using analyzer::AnalysisContext;
using analyzer::DiagnosticSink;

namespace {

struct Options {
  double assumed_speedup = 2.0;
};

/// SL502: DistributedDataParallel on GPUs without the NCCL backend (tb_plugin R3).
class DdpWithoutNcclRule final : public analyzer::RuleWith<Options> {
 public:
  using RuleWith::RuleWith;
  void check(const analyzer::AnalysisContext& context,
             analyzer::DiagnosticSink& sink) const override;

 private:
  // Below 1 a "speedup" would predict a loss: read as 1 (no saving).
  double assumed_speedup() const { return std::max(1.0, options().assumed_speedup); }
};

}  // namespace

void registerSl502(analyzer::RuleRegistry& registry) {
  registry.add<DdpWithoutNcclRule>(
      {"SL502", "ddp-without-nccl", analyzer::Category::kDistributed, analyzer::Severity::kWarning,
       true, "DistributedDataParallel on GPUs communicates without NCCL"},
      {
          analyzer::option("assumed-speedup", &Options::assumed_speedup,
                           "speedup assumed for the exposed communication when moved to NCCL",
                           analyzer::kSpeedupBounds),
      });
}

void DdpWithoutNcclRule::check(const AnalysisContext& context, DiagnosticSink& sink) const {
  if (!common::requireKnownDevice(context, sink, common::kCudaAndRocm,
                                  "NCCL/RCCL use and compute capabilities"))
    return;
  const trace::TraceModel& model = context.model();
  if (!common::requireGpuActivity(context, sink)) return;
  if (model.metadata.devices.empty())
    return sink.notChecked("no deviceProperties: NCCL support cannot be judged");
  const DistributedFacts& facts = distributedFacts(context);
  if (facts.ddp_forward.empty()) return;
  const std::string& backend = model.metadata.distributed.backend;
  if (!facts.nccl_ops.empty() || facts.nccl_kernels || backend.find("nccl") != std::string::npos)
    return;
  const bool capable =
      std::any_of(model.metadata.devices.begin(), model.metadata.devices.end(), [](const auto& d) {
        return d.compute_major > 3 || (d.compute_major == 3 && d.compute_minor >= 5);
      });
  if (!capable) return;
  const double comm_ns =
      context.breakdown().average_ns[static_cast<int>(analyzer::StepCategory::kCommunication)];
  analyzer::Diagnostic d = makeDiagnostic();
  d.message = strf(
      "DistributedDataParallel runs on GPUs without NCCL (backend: %s, %zu gloo collectives); "
      "%.1f ms per step of communication is exposed",
      backend.empty() ? "unknown" : backend.c_str(), facts.gloo_ops.size(), comm_ns / 1e6);
  d.evidence.steps = keptStepNumbers(context);
  std::vector<uint32_t> events = facts.gloo_ops.empty() ? facts.ddp_forward : facts.gloo_ops;
  d.evidence.events = sampleEvents(events);
  for (uint32_t i : d.evidence.events)
    d.evidence.ranges.push_back({model.events[i].start_ns, model.events[i].end_ns()});
  d.evidence.metrics = {{"gloo_collectives", static_cast<double>(facts.gloo_ops.size())},
                        {"exposed_communication_ms_per_step", comm_ns / 1e6}};
  common::EffectBuilder effect;
  for (uint32_t i : facts.gloo_ops) effect.hostEvent(model, i);
  d.saving.method = strf(
      "the gloo collectives %.1fx faster with NCCL (assumed: NCCL avoids the device-host copies "
      "gloo needs; often much more on NVLink)",
      assumed_speedup());
  d.effect = effect.take(1 / assumed_speedup());
  d.fix = {
      "Python: torch.distributed.init_process_group(backend=\"nccl\") (or \"cpu:gloo,cuda:nccl\")",
      "LibTorch: create a c10d::ProcessGroupNCCL instead of c10d::ProcessGroupGloo for CUDA tensors"};
  d.fingerprint_key = "ddp-backend";
  sink.report(std::move(d));
}

}  // namespace steplint::rules
