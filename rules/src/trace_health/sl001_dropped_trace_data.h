#pragma once

#include "steplint/analyzer/rule.h"

namespace steplint::rules {

/// SL001: the importer lost data (truncated JSON or gzip), so every figure is incomplete.
class DroppedTraceDataRule final : public analyzer::Rule {
 public:
  const analyzer::RuleInfo& info() const override;
  void check(const analyzer::AnalysisContext& context, analyzer::DiagnosticSink& sink) const override;
};

}  // namespace steplint::rules
