#include <algorithm>

#include "common/kernel_util.h"
#include "common/rule_support.h"
#include "steplint/analyzer/rule_registry.h"

namespace steplint::rules {

using namespace common;  // rules/src/common helpers

using analyzer::Category;
using analyzer::Severity;

namespace {

struct Options {};

/// SL002: the process put work on a GPU (launch or copy calls) or had GPUs (device properties,
/// no CUDA API call recorded) but the trace holds no kernels, memcpys or memsets.
class MissingGpuActivityRule final : public analyzer::RuleWith<Options> {
 public:
  using RuleWith::RuleWith;
  void check(const analyzer::AnalysisContext& context,
             analyzer::DiagnosticSink& sink) const override;
};

// The legacy profiler's export of a CUDA run links each op to its CUDA work but writes no kernel
// (docs/reference/trace-format.md, the array form): the GPU side is missing by format, so the
// fix is another recorder, not another activity setting.
void reportLegacyExport(const analyzer::AnalysisContext& context, uint64_t linked,
                        analyzer::DiagnosticSink& sink, analyzer::Diagnostic d) {
  EvidenceBuilder evidence(context);
  evidence.metric("legacy_cuda_links", static_cast<double>(linked));
  d.message = strf(
      "the legacy profiler's export links %llu ops to CUDA work (cpu_to_cuda) but does not write "
      "GPU kernels, memcpys or memsets: the GPU side of this run is not in the trace",
      static_cast<unsigned long long>(linked));
  d.evidence = evidence.take();
  d.saving.method = "not applicable: GPU rules cannot check this trace";
  d.fix = {
      "Python: torch.profiler.profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) "
      "on a torch built with Kineto (torch.autograd.profiler.profile(use_cuda=True) exports no "
      "kernels, nor does any torch without Kineto)",
      "or steplint record -- python train.py (CUPTI kernels, copies and syncs)",
  };
  d.fingerprint_key = "no-device-activity";
  sink.report(std::move(d));
}

}  // namespace

void registerSl002(analyzer::RuleRegistry& registry) {
  registry.add<MissingGpuActivityRule>({"SL002", "missing-gpu-activity", Category::kTraceHealth,
                                        Severity::kWarning, true,
                                        "GPUs were present but no GPU activity was recorded"});
}

void MissingGpuActivityRule::check(const analyzer::AnalysisContext& context,
                                   analyzer::DiagnosticSink& sink) const {
  if (!requireKnownDevice(context, sink, kCudaOnly, "CUDA API calls and CUPTI's activity settings"))
    return;
  if (context.hasGpuActivity()) return;
  const trace::TraceModel& model = context.model();
  if (const uint64_t linked = model.stats.get(trace::Stat::legacy_gpu_work_unwritten))
    return reportLegacyExport(context, linked, sink, makeDiagnostic());
  EvidenceBuilder evidence(context);
  int64_t cuda_calls = 0;
  for (uint32_t i = 0; i < model.events.size(); ++i) {
    const trace::Event& e = model.events[i];
    if (!trace::isLaunchApi(e.kind)) continue;
    ++cuda_calls;
    evidence.eventWithRange(i);
  }
  const int64_t work_calls = deviceWorkCalls(model);
  const size_t gpus = model.metadata.devices.size();
  // Allocator events on a CUDA device (c10::DeviceType 1): the process put tensors on a GPU even
  // when the profiler recorded CPU activities only (no deviceProperties, no CUDA call).
  const auto cuda_allocations = static_cast<int64_t>(
      std::count_if(model.memory_events.begin(), model.memory_events.end(),
                    [](const trace::MemoryEvent& m) { return m.device_type == 1 && m.bytes > 0; }));
  if (gpus == 0 && cuda_calls == 0 && cuda_allocations == 0) return;  // CPU-only: nothing missing
  // CUDA API calls were recorded, so CUDA activity was; none put work on a GPU (device queries,
  // stream checks, a synchronize): nothing ran there to record. SL604 says whether it should.
  if (cuda_calls > 0 && work_calls == 0) return;
  evidence.metric("devices_in_metadata", static_cast<double>(gpus));
  evidence.metric("cuda_api_calls", static_cast<double>(cuda_calls));
  evidence.metric("device_work_calls", static_cast<double>(work_calls));
  evidence.metric("cuda_allocations", static_cast<double>(cuda_allocations));
  analyzer::Diagnostic d = makeDiagnostic();
  std::string why =
      gpus > 0 ? strf("deviceProperties lists %zu GPU%s", gpus, gpus == 1 ? "" : "s") : "";
  if (cuda_calls > 0) {
    why += why.empty() ? "" : " and ";
    why += strf("the trace has %lld CUDA API calls (%lld launches, copies or memsets)",
                static_cast<long long>(cuda_calls), static_cast<long long>(work_calls));
  } else if (cuda_allocations > 0) {
    why += why.empty() ? "" : " and ";
    why += strf("the allocator put %lld tensors on a CUDA device",
                static_cast<long long>(cuda_allocations));
  }
  d.message = why + ", but no GPU kernels, memcpys or memsets were recorded: " +
              (cuda_calls > 0 || cuda_allocations > 0
                   ? "CUDA activity was not captured"
                   : "either CUDA activity was not recorded or the run did not use the GPU "
                     "(SL604 tells which from the ops' durations)");
  d.evidence = evidence.take();
  d.saving.method = "not applicable: GPU rules cannot check this trace";
  d.fix = {
      "LibTorch: enable CUDA activities, e.g. torch::autograd::profiler::enableProfiler(config, "
      "{torch::autograd::profiler::ActivityType::CPU, torch::autograd::profiler::ActivityType::CUDA})",
      "Python: torch.profiler.profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA], ...)",
      "do not run Nsight Systems (or another CUPTI client) at the same time: only one CUPTI subscriber "
      "is allowed per process (NSYS-Q5)",
  };
  d.fingerprint_key = "no-device-activity";
  sink.report(std::move(d));
}

}  // namespace steplint::rules
