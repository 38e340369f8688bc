#include "steplint/analyzer/job_rule.h"

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

JobLintResult lintJob(const JobAnalysis& job, const JobRuleRegistry& registry,
                      const LintConfig& config) {
  JobLintResult result;
  for (const auto& rule : registry.rules()) {
    if (!config.selects(rule->info())) continue;
    CollectingSink sink(rule->info(), result);
    rule->check(job, sink);
  }
  return result;
}

}  // namespace steplint::analyzer
