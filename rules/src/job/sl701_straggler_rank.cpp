// SL701 straggler-rank: one rank keeps the others waiting at the collectives in most steps
// (docs/rules/SL701-straggler-rank.md). The job analysis (job.h) names the late rank per step
// without comparing clocks; this rule reports it when it is the same rank in most steps.
#include <cstdio>
#include <map>

#include "job/job_rules.h"

namespace steplint::rules {
namespace {

using analyzer::JobAnalysis;
using analyzer::LateCause;

std::string ms(double ns) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.1f", ns / 1e6);
  return buf;
}

std::string fixFor(LateCause cause, const std::string& r) {
  switch (cause) {
    case LateCause::kInputPipeline:
      return "Speed up " + r +
             "'s input pipeline: its DataLoader waits longer than the other ranks' (its data "
             "shard, storage or CPU cores; run `steplint check` on its trace for SL101/SL102)";
    case LateCause::kHostSync:
      return "Remove the host syncs only " + r +
             " makes (.item(), .cpu(), printing or logging tensors, often "
             "guarded by `if rank == ...`); `steplint check` on its trace names them (SL202, SL206)";
    case LateCause::kHostWork:
      return "Move the host work only " + r +
             " does (logging, metrics, checkpoint writes) off the training loop or "
             "spread it over the ranks";
    case LateCause::kGpuCompute:
      return "Balance the GPU work: " + r +
             " computes longer (uneven batch or sequence lengths: bucket or pad them; "
             "a slower or throttled GPU: `nvidia-smi -q -d CLOCK,PERFORMANCE` on its host)";
    default:
      return "Compare " + r +
             "'s trace with a waiting rank's: no part of its step grew enough to explain the delay "
             "(network, a slower link, or work outside the profiled threads)";
  }
}

class StragglerRankRule : public analyzer::JobRule {
 public:
  const analyzer::RuleInfo& info() const override {
    static const analyzer::RuleInfo kInfo{
        "SL701",
        "straggler-rank",
        analyzer::Category::kJob,
        analyzer::Severity::kWarning,
        true,
        "one rank keeps the others waiting at the collectives in most steps"};
    return kInfo;
  }

  void check(const JobAnalysis& job, analyzer::DiagnosticSink& sink) const override {
    if (reportNotChecked(job, sink) || job.straggler < 0) return;
    analyzer::Diagnostic d = makeDiagnostic();
    std::map<std::string, int64_t>
        grown;  // kernels that grew on the straggler, over its late steps
    for (const analyzer::JobStep& s : job.steps) {
      if (!job.stragglerLateIn(s)) continue;
      d.evidence.steps.push_back(s.number);
      for (const analyzer::NamedTime& k : s.grown_kernels) grown[k.name] += k.ns;
    }
    const double steps = static_cast<double>(job.steps.size());
    const double per_step_ns = job.mean_late_ns * static_cast<double>(job.straggler_steps) / steps;
    const double others = static_cast<double>(job.waitingRanks());
    const bool together = !job.late_together.empty();
    d.message = job.stragglerText() + (together ? " keep" : " keeps") + " the other " +
                std::to_string(job.waitingRanks()) + " rank(s) waiting in " +
                std::to_string(job.straggler_steps) + " of " + std::to_string(job.steps.size()) +
                " steps, " + ms(job.mean_late_ns) + " ms each time; cause: " +
                std::string(analyzer::lateCauseName(job.straggler_cause));
    if (!grown.empty()) {
      auto top = grown.begin();
      for (auto it = grown.begin(); it != grown.end(); ++it)
        if (it->second > top->second) top = it;
      d.message += " (" + top->first + " +" +
                   ms(static_cast<double>(top->second) / static_cast<double>(job.straggler_steps)) +
                   " ms per step)";
      d.evidence.metrics.push_back(
          {"grown_kernel_ms",
           static_cast<double>(top->second) / 1e6 / static_cast<double>(job.straggler_steps)});
    }
    d.evidence.metrics.push_back({"rank", static_cast<double>(job.straggler)});
    d.evidence.metrics.push_back({"late_ms", job.mean_late_ns / 1e6});
    d.evidence.metrics.push_back({"late_steps", static_cast<double>(job.straggler_steps)});
    d.evidence.metrics.push_back({"waiting_ranks", others});
    d.saving.per_step_ms = per_step_ns / 1e6;
    if (job.median_step_ns > 0) d.saving.fraction_of_step = per_step_ns / job.median_step_ns;
    if (together)
      d.message += "; they are late together, so fixing one of them alone saves nothing";
    d.saving.method = "every other rank waits this long per step for " + job.stragglerText() +
                      (together ? "; were they all as fast as the median rank, none would"
                                : "; were it as fast as the median rank, none would");
    d.fix.push_back(fixFor(job.straggler_cause, job.stragglerText()));
    d.fingerprint_key = "rank" + std::to_string(job.straggler);
    sink.report(std::move(d));
  }
};

}  // namespace

std::unique_ptr<analyzer::JobRule> makeStragglerRankRule() {
  return std::make_unique<StragglerRankRule>();
}

}  // namespace steplint::rules
