#include "steplint/gui/rank_pair.h"

#include <algorithm>

namespace steplint::gui {
namespace {

const analyzer::JobStep* findStep(const analyzer::JobAnalysis& job, int64_t number) {
  const auto it = std::find_if(job.steps.begin(), job.steps.end(),
                               [&](const analyzer::JobStep& s) { return s.number == number; });
  return it == job.steps.end() ? nullptr : &*it;
}

std::optional<RankPair> pairFor(const analyzer::JobAnalysis& job, const analyzer::JobStep& step) {
  RankPair pair;
  pair.step = step.number;
  pair.late_step = &step;
  for (const analyzer::JobRank& r : job.ranks) {
    if (r.rank == step.straggler)
      pair.late = &r;
    else if (pair.waiting == nullptr || r.wait_ns > pair.waiting->wait_ns)
      pair.waiting = &r;
  }
  if (pair.late == nullptr || pair.waiting == nullptr) return std::nullopt;
  return pair;
}

}  // namespace

std::optional<RankPair> rankPairForStep(const analyzer::JobAnalysis& job, int64_t number) {
  const analyzer::JobStep* step = findStep(job, number);
  if (step == nullptr || step->straggler < 0) return std::nullopt;
  return pairFor(job, *step);
}

std::optional<RankPair> rankPairForFinding(const analyzer::JobAnalysis& job,
                                           const analyzer::Diagnostic& finding) {
  const auto named = static_cast<int64_t>(finding.evidence.metric("rank", -1));
  for (int64_t number : finding.evidence.steps) {
    const analyzer::JobStep* step = findStep(job, number);
    if (step != nullptr && step->straggler >= 0 && (named < 0 || step->straggler == named))
      return pairFor(job, *step);
  }
  return std::nullopt;
}

}  // namespace steplint::gui
