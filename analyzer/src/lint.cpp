#include "steplint/analyzer/lint.h"

#include <algorithm>

#include "steplint/trace/importer.h"
#include "steplint/trace/parallel_for.h"

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
  // Rules read the model, the summary and the context's thread-safe cache only, so they run
  // side by side; each collects into its own part, merged in registry order, so the report is
  // the same as one thread's. An exception in a rule reaches the caller (parallelFor).
  const std::vector<const RuleDefinition*> selected = config.selectedRules(registry);
  std::vector<LintResult> parts(selected.size());
  trace::parallelFor(selected.size(), static_cast<int>(trace::availableCores()), [&](size_t i) {
    // A fresh rule per run, configured here: nothing this run sets is seen by another.
    const RuleDefinition* definition = selected[i];
    const auto configured = config.options.find(std::string(definition->info().code));
    const std::unique_ptr<Rule> rule =
        definition->create(configured != config.options.end() ? configured->second : no_values);
    CollectingSink sink(definition->info(), parts[i]);
    rule->check(context, sink);
  });
  for (LintResult& part : parts) {
    for (Diagnostic& d : part.diagnostics) result.diagnostics.push_back(std::move(d));
    for (NotChecked& n : part.not_checked) result.not_checked.push_back(std::move(n));
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
