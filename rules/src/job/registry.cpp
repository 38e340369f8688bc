#include "job/job_rules.h"
#include "steplint/rules/job_rules.h"

namespace steplint::rules {

void registerJobRules(analyzer::JobRuleRegistry& registry) {
  registry.add(makeStragglerRankRule());          // SL701
  registry.add(makeRotatingStragglersRule());     // SL702
  registry.add(makeTimeLostAtCollectivesRule());  // SL703
}

bool reportNotChecked(const analyzer::JobAnalysis& job, analyzer::DiagnosticSink& sink) {
  for (const std::string& reason : job.not_checked) sink.notChecked(reason);
  return !job.not_checked.empty();
}

}  // namespace steplint::rules
