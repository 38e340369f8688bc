#include <algorithm>
#include <numeric>

#include "common/rule_support.h"
#include "common/transfers.h"
#include "steplint/analyzer/medians.h"
#include "steplint/analyzer/rule_registry.h"

namespace steplint::rules {

using namespace common;  // rules/src/common helpers

using analyzer::Category;
using analyzer::Severity;
using trace::CopyKind;
using trace::MemoryKind;

namespace {

constexpr int64_t kMinBandwidthSampleBytes = 1 << 20;

/// Pinned host-to-device bandwidth to compare with, in GB/s (= bytes/ns), and where it came from.
std::pair<double, std::string> pinnedBandwidth(const analyzer::AnalysisContext& context,
                                               const std::vector<Transfer>& transfers,
                                               double option) {
  if (option > 0) return {option, "the pinned-h2d-gbps option"};
  std::vector<double> measured;
  for (const Transfer& t : transfers)
    if (t.kind == CopyKind::kHtoD && t.src == MemoryKind::kPinned &&
        t.bytes >= kMinBandwidthSampleBytes && t.copy_ns > 0)
      measured.push_back(bandwidthGBps(t));
  if (!measured.empty())
    return {analyzer::upperMedian(std::move(measured)),
            "the median pinned host-to-device copy in this trace"};
  int major = -1;
  for (const auto& dev : context.model().metadata.devices)
    major = std::max(major, static_cast<int>(dev.compute_major));
  if (major >= 9) return {48.0, "a PCIe 5.0 x16 estimate for this GPU generation (sm_90+)"};
  if (major == 8) return {24.0, "a PCIe 4.0 x16 estimate for this GPU generation (sm_8x)"};
  return {12.0, "a PCIe 3.0 x16 estimate"};
}

}  // namespace

namespace {

struct Options {
  int64_t min_bytes_per_step = int64_t{1} << 20;
  double pinned_h2d_gbps = 0.0;
};

/// SL201: host-to-device copies read from pageable (not pinned) host memory.
class PageableH2dCopyRule final : public analyzer::RuleWith<Options> {
 public:
  using RuleWith::RuleWith;
  void check(const analyzer::AnalysisContext& context,
             analyzer::DiagnosticSink& sink) const override;
};

}  // namespace

void registerSl201(analyzer::RuleRegistry& registry) {
  registry.add<PageableH2dCopyRule>(
      {"SL201", "pageable-h2d-copy", Category::kTransfer, Severity::kWarning, true,
       "host-to-device copies read from pageable (unpinned) memory"},
      {
          analyzer::option("min-bytes-per-step", &Options::min_bytes_per_step,
                           "flag when pageable host-to-device bytes per step reach this"),
          analyzer::option(
              "pinned-h2d-gbps", &Options::pinned_h2d_gbps,
              "pinned host-to-device bandwidth (GB/s) used for the saving; 0 = measured pinned copies, "
              "else by GPU generation"),
      });
}

void PageableH2dCopyRule::check(const analyzer::AnalysisContext& context,
                                analyzer::DiagnosticSink& sink) const {
  if (!requireKnownDevice(context, sink, kCudaOnly,
                          "CUPTI's pageable/pinned memory kinds and compute capabilities"))
    return;
  if (!requireGpuAndSteps(context, sink)) return;
  const auto& steps = context.steps().steps;
  const std::vector<Transfer>& transfers = findTransfers(context);
  const auto [pinned_gbps, pinned_source] =
      pinnedBandwidth(context, transfers, options().pinned_h2d_gbps);
  std::vector<int64_t> count(steps.size()), bytes(steps.size()), copy_ns(steps.size()),
      saved_ns(steps.size());
  EvidenceBuilder evidence(context);
  EffectBuilder effect;
  for (const Transfer& t : transfers) {
    if (t.kind != CopyKind::kHtoD || t.src != MemoryKind::kPageable) continue;
    effect.deviceOp(t.op);
    ++count[t.step];
    bytes[t.step] += t.bytes;
    copy_ns[t.step] += t.copy_ns;
    const double pinned_ns = static_cast<double>(t.bytes) / pinned_gbps;
    saved_ns[t.step] += std::max<int64_t>(0, t.copy_ns - static_cast<int64_t>(pinned_ns));
    evidence.step(t.step);
    evidence.eventWithRange(t.op);
    evidence.event(t.issuer);
  }
  const double avg_bytes = perStepAverage(bytes);
  if (stepsWithAny(count) == 0 || avg_bytes < options().min_bytes_per_step) return;
  const double avg_count = perStepAverage(count);
  const double avg_copy_ms = perStepAverage(copy_ns) / 1e6;
  const double measured_gbps = avg_copy_ms > 0 ? avg_bytes / (avg_copy_ms * 1e6) : 0;
  evidence.metric("pageable_copies_per_step", avg_count);
  evidence.metric("pageable_bytes_per_step", avg_bytes);
  evidence.metric("copy_ms_per_step", avg_copy_ms);
  evidence.metric("measured_gbps", measured_gbps);
  evidence.metric("pinned_gbps_assumed", pinned_gbps);

  analyzer::Diagnostic d = makeDiagnostic();
  d.message =
      strf("%s pageable host-to-device %s per step (%s/step, %.2f ms of copy time at %.1f GB/s)",
           formatCount(avg_count).c_str(), formatCount(avg_count) == "1" ? "copy" : "copies",
           formatBytes(avg_bytes).c_str(), avg_copy_ms, measured_gbps);
  d.evidence = evidence.take();
  const double total_copy =
      static_cast<double>(std::accumulate(copy_ns.begin(), copy_ns.end(), int64_t{0}));
  const double total_saved =
      static_cast<double>(std::accumulate(saved_ns.begin(), saved_ns.end(), int64_t{0}));
  d.saving.method = strf(
      "the copies at %.0f GB/s pinned bandwidth (%s) instead of their measured time; the host "
      "blocking they cause is SL203's",
      pinned_gbps, pinned_source.c_str());
  d.effect = effect.take(/*host_factor=*/1, total_copy > 0 ? 1 - total_saved / total_copy : 1);
  d.fix = {
      "LibTorch: allocate the host batch pinned (torch::empty(sizes, torch::TensorOptions().pinned_memory(true))) "
      "or call batch.pin_memory() once in the loader, then batch.to(device, /*non_blocking=*/true)",
      "Python: DataLoader(..., pin_memory=True) or tensor.pin_memory(), then .to(device, non_blocking=True)",
  };
  d.fingerprint_key = "pageable-htod";
  sink.report(std::move(d));
}

}  // namespace steplint::rules
