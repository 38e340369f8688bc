#include "steplint/analyzer/lint.h"

#include <algorithm>

namespace steplint::analyzer {
namespace {

class CollectingSink final : public DiagnosticSink {
 public:
  CollectingSink(const Rule& rule, LintResult& out) : rule_(rule), out_(out) {}
  void report(Diagnostic d) override { out_.diagnostics.push_back(std::move(d)); }
  void notChecked(std::string reason) override {
    out_.not_checked.push_back({std::string(rule_.info().code), std::string(rule_.info().name), std::move(reason)});
  }

 private:
  const Rule& rule_;
  LintResult& out_;
};

int64_t firstStep(const Diagnostic& d) { return d.evidence.steps.empty() ? INT64_MIN : d.evidence.steps.front(); }

}  // namespace

LintResult runLint(const trace::TraceModel& model, const TraceSummary& summary, const RuleRegistry& registry,
                   const LintConfig& config) {
  LintResult result;
  result.source = summary.source;
  result.average_step_ms = summary.breakdown.average_total_ns / 1e6;
  const AnalysisContext context(model, summary);
  for (Rule* rule : config.selectedRules(registry)) {
    RuleOptions options;
    for (const OptionSpec& spec : rule->options()) options.set(spec.name, spec.default_value);
    if (auto it = config.options.find(std::string(rule->info().code)); it != config.options.end())
      for (const OptionSpec& spec : rule->options())
        if (const OptionValue* value = it->second.get(spec.name)) options.set(spec.name, *value);
    rule->configure(options);
    CollectingSink sink(*rule, result);
    rule->check(context, sink);
  }
  result.saving_all = attributeSavings(context, result.diagnostics);
  std::stable_sort(result.diagnostics.begin(), result.diagnostics.end(), [](const Diagnostic& a, const Diagnostic& b) {
    if (a.severity != b.severity) return a.severity > b.severity;
    if (a.code != b.code) return a.code < b.code;
    return firstStep(a) < firstStep(b);
  });
  return result;
}

}  // namespace steplint::analyzer
