#pragma once

#include "steplint/analyzer/rule.h"

namespace steplint::rules {

/// SL202: the CPU thread waits for the GPU inside the step (.item(), .cpu(), synchronize ...),
/// draining the GPU queue.
class HostSyncInStepRule final : public analyzer::Rule {
 public:
  const analyzer::RuleInfo& info() const override;
  std::vector<analyzer::OptionSpec> options() const override;
  void configure(const analyzer::RuleOptions& options) override;
  void check(const analyzer::AnalysisContext& context, analyzer::DiagnosticSink& sink) const override;

 private:
  double min_syncs_per_step_ = 1;
  double warning_syncs_per_step_ = 2;
  double min_gpu_idle_ms_ = 0.05;
};

}  // namespace steplint::rules
