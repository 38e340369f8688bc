// SL301 low-gpu-utilization: tb_plugin's R5 (GPU utilization < 50 % over the kept steps), with
// the idle time split by cause so the saving only claims what the GPU spent waiting on the host.
#include <algorithm>
#include <functional>
#include <map>
#include <utility>
#include <vector>

#include "common/kernel_gaps.h"
#include "common/kernel_util.h"
#include "steplint/analyzer/display_text.h"
#include "steplint/analyzer/rule_registry.h"

namespace steplint::rules {

using analyzer::AnalysisContext;
using analyzer::DiagnosticSink;

namespace {

struct Options {
  double min_utilization = 0.5;
  double launch_gap_us = 100.0;
};

/// SL301: a GPU runs kernels less than half of the step time (tb_plugin R5).
class LowGpuUtilizationRule final : public analyzer::RuleWith<Options> {
 public:
  using RuleWith::RuleWith;
  void check(const analyzer::AnalysisContext& context,
             analyzer::DiagnosticSink& sink) const override;

 private:
  // Users write µs; the model keeps ns.
  int64_t launch_gap_ns() const { return common::microsOptionToNs(options().launch_gap_us); }
};

}  // namespace

void registerSl301(analyzer::RuleRegistry& registry) {
  registry.add<LowGpuUtilizationRule>(
      {"SL301", "low-gpu-utilization", analyzer::Category::kGpuExecution,
       analyzer::Severity::kWarning, true,
       "a GPU runs kernels for less than half of the step time"},
      {
          analyzer::option(
              "min-utilization", &Options::min_utilization,
              "flag a GPU whose kernel-busy share of the kept steps is below this (tb_plugin R5)",
              analyzer::kShareBounds),
          analyzer::option("launch-gap-us", &Options::launch_gap_us,
                           "host-wait gaps shorter than this are reported as launch overhead"),
      });
}

namespace {

const DeviceGaps* gapsOf(const std::vector<DeviceGaps>& all, int32_t device) {
  for (const DeviceGaps& g : all)
    if (g.device == device) return &g;
  return nullptr;
}

/// " (cudaFree 3978.0 ms, cudaLaunchKernel 556.8 ms per step)": the two runtime or driver calls
/// that took the most host time in the kept steps.
std::string topRuntimeCalls(const AnalysisContext& context) {
  const trace::TraceModel& model = context.model();
  const StepWindow window = keptStepWindow(context);
  std::map<trace::StringId, int64_t> by_name;
  for (const trace::Event& e : model.events)
    if (trace::isLaunchApi(e.kind) && window.contains(e.start_ns)) by_name[e.name] += e.dur_ns;
  std::vector<std::pair<int64_t, trace::StringId>> top;
  for (const auto& [name, ns] : by_name) top.emplace_back(ns, name);
  const size_t n = std::min<size_t>(2, top.size());
  std::partial_sort(top.begin(), top.begin() + static_cast<std::ptrdiff_t>(n), top.end(),
                    std::greater<>());
  std::string out;
  const double steps = static_cast<double>(window.count);
  for (size_t i = 0; i < n; ++i)
    out += (i ? ", " : " (") + analyzer::truncateMiddle(model.str(top[i].second), 60) +
           strf(" %.1f ms", static_cast<double>(top[i].first) / steps / 1e6);
  return out.empty() ? out : out + " per step)";
}

/// What the host did while `device` idled, from the step attribution (every ns once, the same
/// figures as the summary's "Step attribution"): the idle per step and its largest cause. Gaps
/// between device ops (HTA's host wait) miss the idle after a step's last op.
std::string idleText(const AnalysisContext& context, int32_t device) {
  using analyzer::DeviceCause;
  static constexpr std::pair<DeviceCause, const char*> kWhile[] = {
      {DeviceCause::kIdleData, "while the host waits for data"},
      {DeviceCause::kIdleBlocked, "while the host is blocked in a sync or a blocking copy"},
      {DeviceCause::kIdleAfterSync, "after host syncs, until the host launches again"},
      {DeviceCause::kIdleLaunch, "while the host is in runtime calls"},
      {DeviceCause::kIdleHostWork, "while the host runs ops or unrecorded code"},
  };
  const auto* ns = analyzer::averageDeviceNs(context.summary().attribution, device);
  if (ns == nullptr) return "";
  double idle = 0, top = 0;
  const std::pair<DeviceCause, const char*>* top_cause = nullptr;
  for (const auto& entry : kWhile) {
    const double v = (*ns)[static_cast<size_t>(entry.first)];
    idle += v;
    if (v > top) top = v, top_cause = &entry;
  }
  if (idle <= 0 || top_cause == nullptr) return "";
  std::string text = strf("; it idles %.1f ms per step, most %s", idle / 1e6, top_cause->second);
  // "Launch calls" are every runtime call that is no sync or copy: name the ones that took the
  // time (a first step's lazy module loads in cudaLaunchKernel, cudaFree, stream creation).
  if (top_cause->first == DeviceCause::kIdleLaunch) text += topRuntimeCalls(context);
  return text;
}

}  // namespace

void LowGpuUtilizationRule::check(const AnalysisContext& context, DiagnosticSink& sink) const {
  if (!common::requireGpuActivity(context, sink)) return;
  const StepWindow window = keptStepWindow(context);
  if (window.empty())
    return sink.notChecked("no training steps: no window to measure utilization over");
  const std::vector<DeviceGaps>& gaps = computeDeviceGaps(context, launch_gap_ns());
  const double steps = static_cast<double>(window.count);
  for (const analyzer::GpuSummary& gpu : context.summary().gpus) {
    if (gpu.window_ns <= 0 || gpu.kernel_count == 0 || gpu.utilization >= options().min_utilization)
      continue;
    const DeviceGaps* g = gapsOf(gaps, gpu.device);
    const double step_ms = context.averageStepMs();
    const double busy_ms = static_cast<double>(gpu.kernel_busy_ns) / steps / 1e6;
    const double host_wait_ms = g ? static_cast<double>(g->host_wait_ns) / steps / 1e6 : 0.0;
    const std::string noun = common::deviceNoun(context);  // "GPU", "MTIA" ...
    analyzer::Diagnostic d = makeDiagnostic();
    d.message = strf(
        "%s %d utilization is %.1f%% (below %.0f%%): kernels run %.1f ms of the %.1f ms average step",
        noun.c_str(), gpu.device, 100 * gpu.utilization, 100 * options().min_utilization, busy_ms,
        step_ms);
    d.message += idleText(context, gpu.device);
    d.evidence.steps = keptStepNumbers(context);
    d.evidence.ranges.push_back({window.start_ns, window.end_ns});
    if (g) {
      for (size_t i = 0; i < g->host_wait_ranges.size() && i < 10; ++i)
        d.evidence.ranges.push_back(g->host_wait_ranges[i]);
      d.evidence.events = sampleEvents(g->host_wait_ops);
    }
    d.evidence.metrics = {
        {"device", gpu.device},
        {"utilization", gpu.utilization},
        {"kernel_busy_ms_per_step", busy_ms},
        {"idle_ms_per_step", step_ms - busy_ms},
        {"host_wait_ms_per_step", host_wait_ms},
        {"launch_gap_ms_per_step", g ? static_cast<double>(g->launch_gap_ns) / steps / 1e6 : 0.0}};
    // Low utilization grows with the idle time, not with the kernels' busy time.
    d.evidence.size_metric = "idle_ms_per_step";
    // A symptom, not a fix: the findings that explain the idle (input pipeline, syncs, copies,
    // launch overhead) carry its saving, so claiming it here would count those milliseconds twice.
    d.saving.method = strf(
        "not a separate saving: the GPU waits %.1f ms/step for the host; the findings that say why "
        "carry that saving (fixing all of them is the total below)",
        host_wait_ms);
    d.fix = {
        "find what the host does while the GPU waits (input pipeline, host syncs, Python/C++ overhead): the "
        "largest host-wait gaps are in the evidence",
        "LibTorch: prefetch batches on a worker thread and copy them with non_blocking=true from pinned memory; "
        "Python: DataLoader(num_workers>0, pin_memory=True), avoid .item()/.cpu() inside the step",
        "if the GPU work per step is simply small, increase the batch size (scale the learning rate)"};
    d.fingerprint_key = strf("gpu%d", gpu.device);
    sink.report(std::move(d));
  }
}

}  // namespace steplint::rules
