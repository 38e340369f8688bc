// The built-in job rules (SL7xx), registered apart from the per-trace catalog (builtin.h)
// because they read a job's cross-rank analysis, not a trace (analyzer/job_rule.h).
#pragma once

#include "steplint/analyzer/job.h"
#include "steplint/analyzer/job_rule.h"
#include "steplint/analyzer/lint.h"

namespace steplint::rules {

/// Adds every job rule, in code order. The one place job rules are registered.
void registerJobRules(analyzer::JobRuleRegistry& registry);

/// Reads a rank's own findings beside its job (rank_lint.source names one of job.ranks): the
/// time the rank waits in collectives for a slower rank is said in SL503's message and taken
/// out of its saving and of the trace's fix-all total, since only the straggler's fix removes
/// it. A trace that is not one of the job's ranks, or that never waited, is left as it is.
void scopeRankFindings(const analyzer::JobAnalysis& job, analyzer::LintResult& rank_lint);

}  // namespace steplint::rules
