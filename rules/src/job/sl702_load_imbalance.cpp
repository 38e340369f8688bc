// SL702 load-imbalance: the ranks take turns keeping each other waiting: most steps have a late
// rank above the noise, but no one rank is late in most of them
// (docs/rules/SL702-load-imbalance.md).
#include <cstdio>
#include <map>
#include <set>

#include "job/job_rules.h"

namespace steplint::rules {
namespace {

class LoadImbalanceRule : public analyzer::JobRule {
 public:
  const analyzer::RuleInfo& info() const override {
    static const analyzer::RuleInfo kInfo{
        "SL702",
        "load-imbalance",
        analyzer::Category::kJob,
        analyzer::Severity::kWarning,
        true,
        "the ranks take turns being late: the work per step differs between ranks"};
    return kInfo;
  }

  void check(const analyzer::JobAnalysis& job, analyzer::DiagnosticSink& sink) const override {
    if (reportNotChecked(job, sink) || job.straggler >= 0 || job.steps.empty()) return;
    std::set<int64_t> late_ranks;
    std::map<analyzer::LateCause, int64_t> causes;
    double late_ns = 0;
    analyzer::Diagnostic d = makeDiagnostic();
    for (const analyzer::JobStep& s : job.steps) {
      if (s.straggler < 0) continue;
      late_ranks.insert(s.straggler);
      ++causes[s.cause];
      late_ns += static_cast<double>(s.late_ns);
      d.evidence.steps.push_back(s.number);
    }
    const size_t late_steps = d.evidence.steps.size();
    if (2 * late_steps < job.steps.size()) return;  // mostly balanced: a few late steps are noise
    auto cause = causes.begin();
    for (auto it = causes.begin(); it != causes.end(); ++it)
      if (it->second > cause->second) cause = it;
    std::string ranks;
    for (int64_t r : late_ranks) ranks += (ranks.empty() ? "" : ", ") + std::to_string(r);
    const double per_step_ns = late_ns / static_cast<double>(job.steps.size());
    char figure[64];
    std::snprintf(figure, sizeof(figure), "%.1f ms per step", per_step_ns / 1e6);
    d.message = std::to_string(late_steps) + " of " + std::to_string(job.steps.size()) +
                " steps have a rank the others wait for, and it changes from step to step (ranks " +
                ranks + "): " + figure + " lost waiting; most often " +
                std::string(analyzer::lateCauseName(cause->first));
    d.evidence.metrics.push_back({"late_steps", static_cast<double>(late_steps)});
    d.evidence.metrics.push_back({"late_ranks", static_cast<double>(late_ranks.size())});
    d.saving.per_step_ms = per_step_ns / 1e6;
    if (job.median_step_ns > 0) d.saving.fraction_of_step = per_step_ns / job.median_step_ns;
    d.saving.method = "the waiting for each step's late rank, were it as fast as the median rank";
    d.fix.push_back(
        "Even out the work per rank and step: bucket or sort samples by length so every rank gets "
        "batches of similar cost (e.g. a length-grouped sampler), or pad to fixed shapes");
    d.fingerprint_key = "job";
    sink.report(std::move(d));
  }
};

}  // namespace

std::unique_ptr<analyzer::JobRule> makeRotatingStragglersRule() {
  return std::make_unique<LoadImbalanceRule>();
}

}  // namespace steplint::rules
