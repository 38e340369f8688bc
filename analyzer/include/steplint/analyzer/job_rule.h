// Job rules (SL7xx): rules over the whole job's cross-rank analysis (job.h) instead of one
// trace. They have their own small interface and registry, kept apart from the per-trace Rule
// so that either can change without the other, and report the same Diagnostic type, so every
// emitter renders job findings as it renders trace findings.
#pragma once

#include <memory>
#include <string_view>
#include <vector>

#include "steplint/analyzer/diagnostic.h"
#include "steplint/analyzer/job.h"
#include "steplint/analyzer/lint.h"
#include "steplint/analyzer/lint_config.h"
#include "steplint/analyzer/rule.h"

namespace steplint::analyzer {

class JobRule {
 public:
  virtual ~JobRule() = default;
  virtual const RuleInfo& info() const = 0;
  virtual void check(const JobAnalysis& job, DiagnosticSink& sink) const = 0;

 protected:
  /// A diagnostic pre-filled with this rule's code, name and default severity.
  Diagnostic makeDiagnostic() const;
};

/// The job rules, filled explicitly by rules::registerJobRules.
class JobRuleRegistry {
 public:
  void add(std::unique_ptr<JobRule> rule) { rules_.push_back(std::move(rule)); }
  const std::vector<std::unique_ptr<JobRule>>& rules() const { return rules_; }
  /// By exact code or name; nullptr if none.
  const JobRule* find(std::string_view code_or_name) const;

 private:
  std::vector<std::unique_ptr<JobRule>> rules_;
};

struct JobLintResult {
  std::vector<Diagnostic> diagnostics;  // in rule order
  std::vector<NotChecked> not_checked;
  /// What fixing every job finding saves per step of the job (its median rank's step). Every
  /// job rule's saving is the ranks' waiting inside collectives, seen one way (a straggler, late
  /// ranks that rotate, waiting with no rank late), so the total is the largest, never the sum;
  /// nothing is replayed (replayed_steps 0). per_step_ms < 0 when no finding has a time saving.
  SavingsTotal saving_all;
};

/// The total of `findings`' savings for a job whose step is `median_step_ns` (see saving_all).
SavingsTotal jobSavingsTotal(const std::vector<Diagnostic>& findings, double median_step_ns);

/// Runs the job rules `config` selects (--select, --ignore, steplint.toml: LintConfig::selects)
/// on one job's analysis; the default configuration selects them all.
JobLintResult lintJob(const JobAnalysis& job, const JobRuleRegistry& registry,
                      const LintConfig& config = {});

}  // namespace steplint::analyzer
