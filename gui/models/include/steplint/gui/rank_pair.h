// Which two ranks the ranks view stacks for a late step: the rank the others waited for, and
// the rank that waited for it longest. Chosen from the job analysis alone (analyzer/job.h); the
// view then loads just those two traces to show that step of each.
#pragma once

#include <cstdint>
#include <optional>

#include "steplint/analyzer/diagnostic.h"
#include "steplint/analyzer/job.h"

namespace steplint::gui {

struct RankPair {
  int64_t step = 0;  // the step number to show on both
  const analyzer::JobRank* late = nullptr;
  const analyzer::JobRank* waiting = nullptr;    // the other rank with the longest mean wait
  const analyzer::JobStep* late_step = nullptr;  // why it was late in that step
};

/// Step `number` when it has a late rank; nullopt otherwise (balanced, or not a step of the job).
std::optional<RankPair> rankPairForStep(const analyzer::JobAnalysis& job, int64_t number);

/// A job finding's pair: its "rank" metric (SL701) or else the late rank of its first evidence
/// step that has one, shown in the first evidence step where that rank was late. Nullopt when
/// the finding names no late step (SL703 on a balanced job).
std::optional<RankPair> rankPairForFinding(const analyzer::JobAnalysis& job,
                                           const analyzer::Diagnostic& finding);

}  // namespace steplint::gui
