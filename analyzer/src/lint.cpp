#include "steplint/analyzer/lint.h"

#include <algorithm>

namespace steplint::analyzer {
namespace {

class CollectingSink final : public DiagnosticSink {
 public:
  CollectingSink(const RuleInfo& rule, LintResult& out) : rule_(rule), out_(out) {}
  void report(Diagnostic d) override { out_.diagnostics.push_back(std::move(d)); }
  void notChecked(std::string reason) override {
    out_.not_checked.push_back(
        {std::string(rule_.code), std::string(rule_.name), std::move(reason)});
  }

 private:
  const RuleInfo& rule_;
  LintResult& out_;
};

int64_t firstStep(const Diagnostic& d) {
  return d.evidence.steps.empty() ? INT64_MIN : d.evidence.steps.front();
}

}  // namespace

LintResult runLint(const trace::TraceModel& model, const TraceSummary& summary,
                   const RuleRegistry& registry, const LintConfig& config) {
  LintResult result;
  result.source = summary.source;
  result.average_step_ms = summary.breakdown.average_total_ns / 1e6;
  const AnalysisContext context(model, summary);
  const RuleOptions no_values;
  for (const RuleDefinition* definition : config.selectedRules(registry)) {
    // A fresh rule per run, configured here: nothing this run sets is seen by another.
    const auto configured = config.options.find(std::string(definition->info().code));
    const std::unique_ptr<Rule> rule =
        definition->create(configured != config.options.end() ? configured->second : no_values);
    CollectingSink sink(definition->info(), result);
    rule->check(context, sink);
  }
  result.saving_all = attributeSavings(context, result.diagnostics);
  std::stable_sort(result.diagnostics.begin(), result.diagnostics.end(),
                   [](const Diagnostic& a, const Diagnostic& b) {
                     if (a.severity != b.severity) return a.severity > b.severity;
                     if (a.code != b.code) return a.code < b.code;
                     return firstStep(a) < firstStep(b);
                   });
  return result;
}

}  // namespace steplint::analyzer
