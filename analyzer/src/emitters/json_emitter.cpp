// JSON report, schema "steplint.check/1" (docs/check-json.md). Within version 1 fields are
// only added, never renamed or removed.
#include <nlohmann/json.hpp>
#include <ostream>

#include "builtin_emitters.h"
#include "emit_util.h"
#include "steplint/analyzer/json_text.h"

namespace steplint::analyzer {
namespace {

using nlohmann::json;

json evidenceToJson(const Evidence& e) {
  json ranges = json::array();
  for (const TimeRange& r : e.ranges)
    ranges.push_back({{"start_ns", r.start_ns}, {"end_ns", r.end_ns}});
  json metrics = json::object();
  for (const auto& [key, value] : e.metrics) metrics[key] = value;
  return {{"steps", e.steps}, {"ranges", ranges}, {"events", e.events}, {"metrics", metrics}};
}

json savingToJson(const SavingEstimate& s) {
  // An unknown saving keeps the rule's reason for not estimating it, when it gives one.
  if (!s.known() && s.method.empty()) return nullptr;
  json out = {{"per_step_ms", s.known() ? json(s.per_step_ms) : json(nullptr)},
              {"method", s.method}};
  out["fraction_of_step"] =
      s.known() && s.fraction_of_step >= 0 ? json(s.fraction_of_step) : json(nullptr);
  if (s.low_ms >= 0) out["low_ms"] = s.low_ms;
  if (s.alone_ms >= 0) out["alone_ms"] = s.alone_ms;
  return out;
}

json savingAllToJson(const SavingsTotal& t) {
  if (t.per_step_ms < 0 && !t.not_estimated.empty())
    return {{"per_step_ms", nullptr},
            {"fraction_of_step", nullptr},
            {"not_estimated", t.not_estimated}};
  if (t.per_step_ms < 0) return nullptr;
  json out = {
      {"per_step_ms", t.per_step_ms},
      {"fraction_of_step", t.fraction_of_step >= 0 ? json(t.fraction_of_step) : json(nullptr)},
      {"step_ms", t.step_ms},
      {"profiler_overhead_ms", t.profiler_overhead_ms},
      {"profiler_overhead", t.profiler_overhead},
      {"findings", t.findings},
      {"replayed_steps", t.replayed_steps},
      {"exact_shares", t.exact_shares}};
  if (t.low_ms >= 0) out["low_ms"] = t.low_ms;
  if (t.suppressed > 0) out["suppressed_by_baseline"] = t.suppressed;
  if (t.whole_trace_step) out["whole_trace_step"] = true;
  return out;
}

json findingToJson(const Diagnostic& d) {
  return {{"code", d.code},
          {"name", d.name},
          {"severity", severityName(d.severity)},
          {"message", d.message},
          {"evidence", evidenceToJson(d.evidence)},
          {"saving", savingToJson(d.saving)},
          {"fix", d.fix},
          {"fingerprint", d.fingerprint()},
          {"doc_url", ruleDocUrl(d.code, d.name)}};
}

json traceToJson(const TraceReport& t, const EmitOptions& options) {
  json findings = json::array();
  for (const Diagnostic& d : t.lint.diagnostics) findings.push_back(findingToJson(d));
  json not_checked = json::array();
  for (const NotChecked& n : t.lint.not_checked)
    not_checked.push_back({{"code", n.code}, {"name", n.name}, {"reason", n.reason}});
  return {{"source", emit::displayPath(t.lint.source, options.base_dir)},
          {"average_step_ms", t.lint.average_step_ms},
          {"findings", findings},
          {"saving_all", savingAllToJson(t.lint.saving_all)},
          {"not_checked", not_checked},
          {"suppressed_by_baseline", t.suppressed}};
}

json rulesToJson(const LintReport& report) {
  json rules = json::array();
  for (const RuleInfo& info : report.selected) {
    rules.push_back({{"code", info.code},
                     {"name", info.name},
                     {"category", categoryName(info.category)},
                     {"severity", severityName(info.default_severity)}});
  }
  return rules;
}

}  // namespace

void JsonEmitter::emit(const LintReport& report, const EmitOptions& options,
                       std::ostream& out) const {
  json traces = json::array();
  for (const TraceReport& t : report.traces) traces.push_back(traceToJson(t, options));
  const json doc = {{"schema", kCheckJsonSchema},
                    {"tool", {{"name", "steplint"}, {"version", report.tool_version}}},
                    {"fail_on", severityName(report.fail_on)},
                    {"rules", rulesToJson(report)},
                    {"traces", traces},
                    {"warnings", report.warnings},
                    {"totals",
                     {{"findings", report.findingCount()},
                      {"failing", report.failingCount()},
                      {"not_checked", report.notCheckedCount()},
                      {"suppressed_by_baseline", report.suppressedCount()}}}};
  // replace: a kernel name with broken UTF-8 must not abort the whole report.
  out << jsonText(doc) << '\n';
}

}  // namespace steplint::analyzer
