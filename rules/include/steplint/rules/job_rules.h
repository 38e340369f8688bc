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
/// time the rank waits in collectives for a slower rank is said in SL502's and SL503's messages
/// and taken out of their savings and of the trace's fix-all total, since only the straggler's
/// fix removes it; SL503's one-rank caveat goes, and the straggler's findings say that the
/// others wait for it. A trace that is not one of the job's ranks is left as it is.
void scopeRankFindings(const analyzer::JobAnalysis& job, analyzer::LintResult& rank_lint);

}  // namespace steplint::rules
