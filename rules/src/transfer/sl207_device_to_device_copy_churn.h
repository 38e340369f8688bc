#pragma once

#include "steplint/analyzer/rule.h"

namespace steplint::rules {

/// SL207: hundreds of small device-to-device copies per step (Memcpy DtoD, copy kernels of
/// aten::copy_ / clone / contiguous), as eager code and torch.compile graphs produce (issue 13).
class DeviceToDeviceCopyChurnRule final : public analyzer::Rule {
 public:
  const analyzer::RuleInfo& info() const override;
  std::vector<analyzer::OptionSpec> options() const override;
  void configure(const analyzer::RuleOptions& options) override;
  void check(const analyzer::AnalysisContext& context, analyzer::DiagnosticSink& sink) const override;

 private:
  double min_copies_per_step_ = 50;
  double max_copy_us_ = 20;
  double min_step_share_ = 0.01;
};

}  // namespace steplint::rules
