#pragma once

#include <cstdint>
#include <string_view>

#include "steplint/analyzer/rule.h"

namespace steplint::rules {

/// SL403: the batch dimension of the step's first conv/linear/matmul is not a multiple of 8.
class BatchSizeNotAlignedRule final : public analyzer::Rule {
 public:
  const analyzer::RuleInfo& info() const override;
  std::vector<analyzer::OptionSpec> options() const override;
  void configure(const analyzer::RuleOptions& options) override;
  void check(const analyzer::AnalysisContext& context, analyzer::DiagnosticSink& sink) const override;

 private:
  int64_t multiple_ = 8;
};

/// First dimension of input `input` in a raw "Input Dims" JSON text ("[[32, 3, 224, 224], []]");
/// false when that input has no dimensions or the text is malformed. Exposed for tests.
bool firstDimOfInput(std::string_view dims_json, size_t input, int64_t& out);

}  // namespace steplint::rules
