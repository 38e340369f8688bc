#pragma once

#include "steplint/analyzer/rule.h"

namespace steplint::rules {

/// SL605: torch.optim.Adam applies weight_decay as coupled L2 on the gradients; AdamW decouples it.
class AdamL2WeightDecayRule final : public analyzer::Rule {
 public:
  const analyzer::RuleInfo& info() const override;
  void check(const analyzer::AnalysisContext& context, analyzer::DiagnosticSink& sink) const override;
};

}  // namespace steplint::rules
