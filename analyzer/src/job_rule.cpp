#include "steplint/analyzer/job_rule.h"

#include <algorithm>

namespace steplint::analyzer {
namespace {

class CollectingSink : public DiagnosticSink {
 public:
  CollectingSink(const RuleInfo& info, JobLintResult& out) : info_(info), out_(out) {}
  void report(Diagnostic d) override { out_.diagnostics.push_back(std::move(d)); }
  void notChecked(std::string reason) override {
    out_.not_checked.push_back(
        {std::string(info_.code), std::string(info_.name), std::move(reason)});
  }

 private:
  const RuleInfo& info_;
  JobLintResult& out_;
};

}  // namespace

Diagnostic JobRule::makeDiagnostic() const {
  Diagnostic d;
  d.code = std::string(info().code);
  d.name = std::string(info().name);
  d.severity = info().default_severity;
  return d;
}

const JobRule* JobRuleRegistry::find(std::string_view code_or_name) const {
  for (const auto& rule : rules_)
    if (rule->info().code == code_or_name || rule->info().name == code_or_name) return rule.get();
  return nullptr;
}

// The findings' savings overlap (all are waiting inside collectives): the largest is the total.
SavingsTotal jobSavingsTotal(const std::vector<Diagnostic>& findings, double median_step_ns) {
  SavingsTotal total;
  for (const Diagnostic& d : findings) {
    if (!d.saving.known()) continue;
    ++total.findings;
    total.per_step_ms = std::max(total.per_step_ms, d.saving.per_step_ms);
  }
  if (total.findings == 0) return total;
  total.step_ms = median_step_ns / 1e6;
  if (total.step_ms > 0) total.fraction_of_step = std::min(1.0, total.per_step_ms / total.step_ms);
  total.replayed_steps = 0;
  return total;
}

JobLintResult lintJob(const JobAnalysis& job, const JobRuleRegistry& registry,
                      const LintConfig& config) {
  JobLintResult result;
  for (const auto& rule : registry.rules()) {
    if (!config.selects(rule->info())) continue;
    CollectingSink sink(rule->info(), result);
    rule->check(job, sink);
  }
  result.saving_all = jobSavingsTotal(result.diagnostics, job.median_step_ns);
  return result;
}

}  // namespace steplint::analyzer
