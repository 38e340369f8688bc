#include "steplint/analyzer/rule.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace steplint::analyzer {

namespace {

// As written in a config: "-1", "0.05", "nan", "inf" (not "-1.000000").
std::string numberText(double value) {
  if (std::isfinite(value) && value == std::trunc(value) && std::fabs(value) < 1e15)
    return std::to_string(static_cast<int64_t>(value));
  std::ostringstream text;
  text << value;
  return text.str();
}

}  // namespace

std::string checkOptionValue(const OptionSpec& spec, const OptionValue& value) {
  double number = 0;
  if (const auto* d = std::get_if<double>(&value))
    number = *d;
  else if (const auto* i = std::get_if<int64_t>(&value))
    number = static_cast<double>(*i);
  else
    return {};
  if (!std::isfinite(number)) return "expected a finite number, got " + numberText(number);
  if (number < spec.min_value)
    return "must be at least " + numberText(spec.min_value) + ", got " + numberText(number);
  if (number > spec.max_value)
    return "must be at most " + numberText(spec.max_value) + ", got " + numberText(number);
  return {};
}

double RuleOptions::number(const std::string& name, double fallback) const {
  auto it = values_.find(name);
  if (it == values_.end()) return fallback;
  if (const auto* d = std::get_if<double>(&it->second)) return *d;
  if (const auto* i = std::get_if<int64_t>(&it->second)) return static_cast<double>(*i);
  return fallback;
}

int64_t RuleOptions::integer(const std::string& name, int64_t fallback) const {
  auto it = values_.find(name);
  if (it == values_.end()) return fallback;
  if (const auto* i = std::get_if<int64_t>(&it->second)) return *i;
  return fallback;
}

bool RuleOptions::flag(const std::string& name, bool fallback) const {
  auto it = values_.find(name);
  if (it == values_.end()) return fallback;
  if (const auto* b = std::get_if<bool>(&it->second)) return *b;
  return fallback;
}

std::string RuleOptions::text(const std::string& name, const std::string& fallback) const {
  auto it = values_.find(name);
  if (it == values_.end()) return fallback;
  if (const auto* s = std::get_if<std::string>(&it->second)) return *s;
  return fallback;
}

int AnalysisContext::stepAt(int64_t t_ns) const {
  const auto& steps = summary_.steps.steps;
  // Steps are sorted and never overlap: binary search on start.
  auto it = std::upper_bound(steps.begin(), steps.end(), t_ns,
                             [](int64_t t, const Step& s) { return t < s.start_ns; });
  if (it == steps.begin()) return -1;
  --it;
  return t_ns < it->end_ns ? static_cast<int>(it - steps.begin()) : -1;
}

AnalysisContext::AnalysisContext(const trace::TraceModel& model, const TraceSummary& summary)
    : model_(model), summary_(summary) {
  has_gpu_activity_ = std::any_of(model.events.begin(), model.events.end(),
                                  [](const trace::Event& e) { return trace::isDeviceOp(e.kind); });
}

Diagnostic Rule::makeDiagnostic() const {
  Diagnostic d;
  d.code = std::string(info().code);
  d.name = std::string(info().name);
  d.severity = info().default_severity;
  return d;
}

}  // namespace steplint::analyzer
