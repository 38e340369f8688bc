#pragma once

#include "steplint/analyzer/rule.h"

namespace steplint::rules {

/// SL002: the process used CUDA (device properties or CUDA API calls) but the trace holds no
/// kernels, memcpys or memsets: CUDA activity was not captured.
class MissingGpuActivityRule final : public analyzer::Rule {
 public:
  const analyzer::RuleInfo& info() const override;
  void check(const analyzer::AnalysisContext& context, analyzer::DiagnosticSink& sink) const override;
};

}  // namespace steplint::rules
