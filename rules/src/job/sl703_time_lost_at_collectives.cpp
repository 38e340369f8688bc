// SL703 time-lost-at-collectives: the ranks spend a large share of the step waiting inside
// collectives for slower ranks, without one late rank per step to blame (SL701 and SL702 cover
// those, and carry that saving) (docs/rules/SL703-time-lost-at-collectives.md).
#include <cstdio>

#include "job/job_rules.h"

namespace steplint::rules {
namespace {

// Waiting below this share of the step is what collectives cost in any job.
constexpr double kMinWaitFraction = 0.10;

class TimeLostAtCollectivesRule : public analyzer::JobRule {
 public:
  const analyzer::RuleInfo& info() const override {
    static const analyzer::RuleInfo kInfo{
        "SL703",
        "time-lost-at-collectives",
        analyzer::Category::kJob,
        analyzer::Severity::kWarning,
        true,
        "ranks wait inside collectives for a large share of the step"};
    return kInfo;
  }

  void check(const analyzer::JobAnalysis& job, analyzer::DiagnosticSink& sink) const override {
    if (reportNotChecked(job, sink) || job.median_step_ns <= 0) return;
    size_t late_steps = 0;
    for (const analyzer::JobStep& s : job.steps) late_steps += s.straggler >= 0;
    // SL701 or SL702 names who the ranks wait for, with this saving; do not count it twice.
    if (job.straggler >= 0 || 2 * late_steps >= job.steps.size()) return;
    const double fraction = job.mean_wait_ns / job.median_step_ns;
    if (fraction < kMinWaitFraction) return;
    analyzer::Diagnostic d = makeDiagnostic();
    char text[160];
    std::snprintf(
        text, sizeof(text),
        "the ranks wait %.1f ms per step (%.0f%% of the step) inside collectives for slower ranks, "
        "with no rank late in most steps",
        job.mean_wait_ns / 1e6, 100 * fraction);
    d.message = text;
    for (const analyzer::JobStep& s : job.steps) d.evidence.steps.push_back(s.number);
    d.evidence.metrics.push_back({"wait_ms", job.mean_wait_ns / 1e6});
    d.evidence.metrics.push_back({"wait_fraction", fraction});
    d.saving.per_step_ms = job.mean_wait_ns / 1e6;
    d.saving.fraction_of_step = fraction;
    d.saving.method =
        "the mean rank's waiting inside collectives (an upper bound: some skew always remains)";
    d.fix.push_back(
        "Look at which collectives wait (the job report's steps): late arrivals that differ per "
        "collective point at uneven work between them, e.g. pipeline stages or unbalanced shards");
    d.fingerprint_key = "job";
    sink.report(std::move(d));
  }
};

}  // namespace

std::unique_ptr<analyzer::JobRule> makeTimeLostAtCollectivesRule() {
  return std::make_unique<TimeLostAtCollectivesRule>();
}

}  // namespace steplint::rules
