#pragma once

#include "steplint/analyzer/rule.h"

namespace steplint::rules {

/// SL503: communication not hidden by computation takes a large share of the step (tb_plugin R4).
class ExposedCommunicationRule final : public analyzer::Rule {
 public:
  const analyzer::RuleInfo& info() const override;
  std::vector<analyzer::OptionSpec> options() const override;
  void configure(const analyzer::RuleOptions& options) override;
  void check(const analyzer::AnalysisContext& context, analyzer::DiagnosticSink& sink) const override;

 private:
  double max_share_ = 0.1;
};

}  // namespace steplint::rules
