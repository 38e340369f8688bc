#include "common/rule_support.h"

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <limits>
#include <numeric>

namespace steplint::rules::common {

std::string strf(const char* format, ...) {
  va_list args;
  va_start(args, format);
  va_list copy;
  va_copy(copy, args);
  const int n = std::vsnprintf(nullptr, 0, format, copy);
  va_end(copy);
  std::string out(n > 0 ? static_cast<size_t>(n) : 0, '\0');
  if (n > 0) std::vsnprintf(out.data(), out.size() + 1, format, args);
  va_end(args);
  return out;
}

std::string formatBytes(double bytes) {
  if (bytes < 1024) return strf("%.0f B", bytes);
  if (bytes < 1024.0 * 1024) return strf("%.1f KiB", bytes / 1024);
  if (bytes < 1024.0 * 1024 * 1024) return strf("%.1f MiB", bytes / (1024.0 * 1024));
  return strf("%.2f GiB", bytes / (1024.0 * 1024 * 1024));
}

std::string formatCount(double value) {
  const double rounded = static_cast<double>(static_cast<int64_t>(value + 0.5));
  return std::abs(value - rounded) < 0.05 ? strf("%.0f", rounded) : strf("%.1f", value);
}

void EvidenceBuilder::step(int step_index) {
  const auto& steps = context_.steps().steps;
  if (step_index < 0 || static_cast<size_t>(step_index) >= steps.size()) return;
  if (step_seen_.size() != steps.size()) step_seen_.assign(steps.size(), 0);
  if (step_seen_[step_index]) return;
  step_seen_[step_index] = 1;
  evidence_.steps.push_back(steps[step_index].number);
}

void EvidenceBuilder::event(uint32_t index) {
  if (index == trace::kNoIndex || evidence_.events.size() >= kMaxEvidenceEvents) return;
  evidence_.events.push_back(index);
}

void EvidenceBuilder::range(int64_t start_ns, int64_t end_ns) {
  if (evidence_.ranges.size() >= kMaxEvidenceRanges) return;
  evidence_.ranges.push_back({start_ns, end_ns});
}

void EvidenceBuilder::eventWithRange(uint32_t index) {
  if (index == trace::kNoIndex) return;
  const trace::Event& e = context_.model().events[index];
  event(index);
  range(e.start_ns, e.end_ns());
}

analyzer::Evidence EvidenceBuilder::take() {
  std::sort(evidence_.steps.begin(), evidence_.steps.end());
  return std::move(evidence_);
}

void EffectBuilder::hostEvent(const trace::TraceModel& model, uint32_t index) {
  if (index == trace::kNoIndex) return;
  const trace::Event& e = model.events[index];
  host_.add(e.start_ns, e.end_ns());
}

std::shared_ptr<const analyzer::FixEffect> EffectBuilder::take(double host_factor,
                                                               double device_factor,
                                                               double host_factor_worst,
                                                               double device_factor_worst) {
  auto effect = std::make_shared<analyzer::FixEffect>();
  effect->host_time = host_.build();
  effect->host_factor = host_factor;
  effect->device_ops = std::move(device_);
  effect->device_factor = device_factor;
  effect->waits = std::move(waits_);
  effect->host_factor_worst = host_factor_worst;
  effect->device_factor_worst = device_factor_worst;
  if (effect->empty()) return nullptr;
  return effect;
}

int hostStepAt(const analyzer::AnalysisContext& context, int64_t t_ns) {
  const auto& steps = context.steps().steps;
  auto it =
      std::upper_bound(steps.begin(), steps.end(), t_ns,
                       [](int64_t t, const analyzer::Step& s) { return t < s.host_start_ns; });
  if (it == steps.begin()) return -1;
  --it;
  return t_ns < it->host_end_ns ? static_cast<int>(it - steps.begin()) : -1;
}

int64_t idleLimit(const analyzer::AnalysisContext& context, int step) {
  const auto& steps = context.steps().steps;
  const size_t next = static_cast<size_t>(step) + 1;
  return next < steps.size() ? steps[next].end_ns : steps[static_cast<size_t>(step)].end_ns;
}

bool requireKnownDevice(const analyzer::AnalysisContext& context, analyzer::DiagnosticSink& sink,
                        DeviceSet known, std::string_view reads) {
  const trace::Accelerator device = context.model().metadata.accelerator;
  if (device == trace::Accelerator::kNone || (known & deviceBit(device)) != 0) return true;
  std::vector<std::string_view> names;
  for (int a = 0; a <= static_cast<int>(trace::Accelerator::kOther); ++a)
    if (known & deviceBit(static_cast<trace::Accelerator>(a)))
      names.push_back(trace::acceleratorName(static_cast<trace::Accelerator>(a)));
  std::string list;
  for (size_t i = 0; i < names.size(); ++i)
    list += std::string(i == 0                  ? ""
                        : i + 1 == names.size() ? " and "
                                                : ", ") +
            std::string(names[i]);
  sink.notChecked(strf("device is %s: this rule reads %.*s, which only %s traces have",
                       std::string(trace::acceleratorName(device)).c_str(),
                       static_cast<int>(reads.size()), reads.data(), list.c_str()));
  return false;
}

std::string deviceNoun(const analyzer::AnalysisContext& context) {
  return std::string(trace::deviceNoun(context.model().metadata.accelerator));
}

size_t stepsWithAny(const std::vector<int64_t>& per_step) {
  size_t n = 0;
  for (int64_t v : per_step) n += v > 0;
  return n;
}

double perStepAverage(const std::vector<int64_t>& per_step) {
  if (per_step.empty()) return 0;
  return static_cast<double>(std::accumulate(per_step.begin(), per_step.end(), int64_t{0})) /
         static_cast<double>(per_step.size());
}

int64_t microsOptionToNs(double us) {
  const double ns = us * 1e3;
  if (!(ns > 0)) return 0;
  // 2^63 is exact in a double; anything at or above it does not fit.
  if (ns >= 9223372036854775808.0) return std::numeric_limits<int64_t>::max();
  return static_cast<int64_t>(ns);
}

bool requireGpuActivity(const analyzer::AnalysisContext& context, analyzer::DiagnosticSink& sink) {
  if (context.hasGpuActivity()) return true;
  sink.notChecked(analyzer::noGpuActivityText(context.model()));
  return false;
}

bool requireGpuAndSteps(const analyzer::AnalysisContext& context, analyzer::DiagnosticSink& sink) {
  if (!requireGpuActivity(context, sink)) return false;
  if (context.steps().steps.empty()) {
    sink.notChecked("no training steps in this trace");
    return false;
  }
  return true;
}

}  // namespace steplint::rules::common
