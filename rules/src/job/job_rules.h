// The job rules of rules/src/job, one factory per rule, called by registry.cpp only.
#pragma once

#include <memory>

#include "steplint/analyzer/job_rule.h"

namespace steplint::rules {

std::unique_ptr<analyzer::JobRule> makeStragglerRankRule();          // SL701
std::unique_ptr<analyzer::JobRule> makeRotatingStragglersRule();     // SL702
std::unique_ptr<analyzer::JobRule> makeTimeLostAtCollectivesRule();  // SL703

/// The reasons the job analysis could not compare the ranks, reported as "not checked" by
/// every job rule; true when there was one.
bool reportNotChecked(const analyzer::JobAnalysis& job, analyzer::DiagnosticSink& sink);

}  // namespace steplint::rules
