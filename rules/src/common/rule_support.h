// Small helpers shared by the rules: text formatting, evidence collection with caps, and
// saving estimates relative to the average step. They live in steplint::rules::common so
// they never collide with the GPU-rule helpers (kernel_util.h) in steplint::rules.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "steplint/analyzer/fix_effect.h"
#include "steplint/analyzer/rule.h"

namespace steplint::rules::common {

/// printf-style formatting into a std::string.
std::string strf(const char* format, ...) __attribute__((format(printf, 1, 2)));

/// "18.4 MiB", "256 B", "3.2 KiB", "1.50 GiB".
std::string formatBytes(double bytes);

/// "2" for whole numbers, "2.5" otherwise (per-step averages).
std::string formatCount(double value);

/// Representative event indices are capped so diagnostics stay small (the GUI shows them).
inline constexpr size_t kMaxEvidenceEvents = 20;
inline constexpr size_t kMaxEvidenceRanges = 20;

/// Builds an Evidence: unique step numbers in order, capped events and time ranges.
class EvidenceBuilder {
 public:
  explicit EvidenceBuilder(const analyzer::AnalysisContext& context) : context_(context) {}
  /// Records the step with index `step_index` into steps().steps (ignored when < 0).
  void step(int step_index);
  void event(uint32_t index);
  void range(int64_t start_ns, int64_t end_ns);
  /// The event and its [start, end) range.
  void eventWithRange(uint32_t index);
  void metric(std::string key, double value) {
    evidence_.metrics.emplace_back(std::move(key), value);
  }
  analyzer::Evidence take();

 private:
  const analyzer::AnalysisContext& context_;
  analyzer::Evidence evidence_;
  std::vector<char> step_seen_;
};

/// Collects what fixing a finding changes (analyzer::FixEffect) while a rule walks its
/// evidence; the step replay turns it into the finding's saving (docs/savings.md).
class EffectBuilder {
 public:
  /// Host time [start, end) that the fix removes or speeds up.
  void hostRange(int64_t start_ns, int64_t end_ns) { host_.add(start_ns, end_ns); }
  /// The whole host range of event `index` (ignored for kNoIndex).
  void hostEvent(const trace::TraceModel& model, uint32_t index);
  /// A GPU op whose duration the fix shrinks.
  void deviceOp(uint32_t index) {
    if (index != trace::kNoIndex) device_.push_back(index);
  }
  /// A host call that stops blocking (a sync API call, a blocking copy call).
  void wait(uint32_t call) {
    if (call != trace::kNoIndex) waits_.push_back(call);
  }
  /// The effect with the given factors (what remains of the host time and of the GPU ops);
  /// `*_worst` < 0: the same as the expected factor. Null when nothing was collected.
  std::shared_ptr<const analyzer::FixEffect> take(double host_factor, double device_factor = 1,
                                                  double host_factor_worst = -1,
                                                  double device_factor_worst = -1);

 private:
  analyzer::IntervalSetBuilder host_;
  std::vector<uint32_t> device_;
  std::vector<uint32_t> waits_;
};

/// Index into steps().steps of the kept step whose host range (the ProfilerStep itself, not
/// its extension to the end of its GPU work) contains `t_ns`, or -1. Use it for CPU-side
/// events: work after the last ProfilerStep (e.g. the profiler's own cudaDeviceSynchronize at
/// stop) must not count as part of the step whose GPU tail it overlaps.
int hostStepAt(const analyzer::AnalysisContext& context, int64_t t_ns);

/// Until when the GPU idle after a host sync in kept step `step` is counted: the end of the
/// next kept step, so that a sync at the end of a step (loss.item()) is charged the idle it
/// causes at the next step's start; the step's own end for the last step.
int64_t idleLimit(const analyzer::AnalysisContext& context, int step);

/// The precondition of the GPU-side rules: reports "not checked" with the reason (no GPU
/// activity, or the legacy export's missing kernels: analyzer::noGpuActivityText) and returns
/// false when the trace has no device op.
bool requireGpuActivity(const analyzer::AnalysisContext& context, analyzer::DiagnosticSink& sink);

/// The precondition of the GPU-side per-step rules: reports "not checked" with the reason
/// (no GPU activity, or no training steps) and returns false when the trace cannot decide.
bool requireGpuAndSteps(const analyzer::AnalysisContext& context, analyzer::DiagnosticSink& sink);

/// A set of accelerators, one bit per trace::Accelerator.
using DeviceSet = uint32_t;
constexpr DeviceSet deviceBit(trace::Accelerator a) {
  return DeviceSet{1} << static_cast<unsigned>(a);
}
inline constexpr DeviceSet kCudaOnly = deviceBit(trace::Accelerator::kCuda);
inline constexpr DeviceSet kCudaAndRocm = kCudaOnly | deviceBit(trace::Accelerator::kRocm);
inline constexpr DeviceSet kCudaRocmXpu = kCudaAndRocm | deviceBit(trace::Accelerator::kXpu);

/// The precondition of rules whose evidence exists on some accelerators only (CUDA kernel or
/// API names, CUPTI's memory kinds, compute capabilities): on a trace from another device
/// (trace::TraceMetadata::accelerator) it reports "device is MTIA: this rule reads <reads>,
/// which only CUDA traces have" as not checked and returns false, instead of letting the rule
/// find nothing in foreign names (a silent pass) or misread them (a false claim). CPU-only
/// traces pass: the rule's own preconditions decide them. `reads` says what the rule depends
/// on, e.g. "cudaFree/cudaMalloc calls". One helper, so every rule words it the same.
bool requireKnownDevice(const analyzer::AnalysisContext& context, analyzer::DiagnosticSink& sink,
                        DeviceSet known, std::string_view reads);

/// What messages call one device of the trace's accelerator: "GPU", "MTIA", "HPU", "device".
std::string deviceNoun(const analyzer::AnalysisContext& context);

/// Number of kept steps in which `per_step[i] > 0`.
size_t stepsWithAny(const std::vector<int64_t>& per_step);

/// Sum of a per-step vector divided by the number of kept steps (0 when there are none).
double perStepAverage(const std::vector<int64_t>& per_step);

/// A duration option given in µs, in ns: saturated at INT64_MAX, 0 for 0 or less. A config may
/// set any finite value (`launch-gap-us = 1e300`), and converting a double beyond int64's range
/// is undefined behaviour (UBSan: float-cast-overflow, found by the config fuzzer).
int64_t microsOptionToNs(double us);

}  // namespace steplint::rules::common
