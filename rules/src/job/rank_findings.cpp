// A rank's own findings read beside its job's analysis. One trace cannot tell the transfer of a
// collective from the time the rank waits in it for a slower rank (sync skew): both are
// Communication in its step breakdown, so SL503 (hide the collectives) and SL502 (a faster
// backend) on a waiting rank claim the straggler's delay as their own saving. The job analysis
// measures that wait per rank (job.h, JobRank::wait_ns); only the straggler's fix removes it,
// and SL701/SL703 report it for the job.
#include <algorithm>
#include <cstdio>

#include "distributed/comm_util.h"
#include "steplint/rules/job_rules.h"

namespace steplint::rules {
namespace {

const analyzer::JobRank* rankOf(const analyzer::JobAnalysis& job, const std::string& source) {
  for (const analyzer::JobRank& r : job.ranks)
    if (r.source == source) return &r;
  return nullptr;
}

std::string waitNote(const analyzer::JobAnalysis& job, const analyzer::JobRank& rank,
                     double wait_ms) {
  char buf[200];
  const bool late = rank.rank == job.straggler ||
                    std::find(job.late_together.begin(), job.late_together.end(), rank.rank) !=
                        job.late_together.end();
  if (job.straggler >= 0 && !late)
    std::snprintf(buf, sizeof(buf),
                  "; %.1f ms/step of it is waiting for %s (SL701), which only %s removes", wait_ms,
                  job.stragglerText().c_str(),
                  job.late_together.empty() ? "that rank's fix" : "their fixes");
  else
    std::snprintf(buf, sizeof(buf),
                  "; %.1f ms/step of it is waiting for slower ranks (the job report, SL703)",
                  wait_ms);
  return buf;
}

/// Takes the wait out of a communication finding's saving: SL503 (hide the collectives) keeps
/// at most the exposed communication less the wait; SL502 (a faster backend) speeds up only
/// the transfers, so its saving shrinks in proportion. Returns how much the share and its low
/// end went down, so the trace's fix-all total goes down as much.
std::pair<double, double> takeOutWait(analyzer::Diagnostic& d, double wait_ms) {
  const double exposed_ms = d.evidence.metric("exposed_communication_ms_per_step", -1);
  if (exposed_ms <= 0 || !d.saving.known()) return {0, 0};
  const double own_ms = std::max(0.0, exposed_ms - wait_ms);
  analyzer::SavingEstimate& s = d.saving;
  const double old_share = s.per_step_ms;
  const double old_low = s.low_ms >= 0 ? s.low_ms : s.per_step_ms;
  const double step_ms = s.fraction_of_step > 0 ? old_share / s.fraction_of_step : -1;
  const auto scoped = [&](double v) {
    return d.code == "SL503" ? std::min(v, own_ms) : v * own_ms / exposed_ms;
  };
  s.per_step_ms = scoped(old_share);
  const double low = scoped(old_low);
  s.low_ms = low < s.per_step_ms - 1e-9 ? low : -1;
  if (s.alone_ms >= 0) s.alone_ms = scoped(s.alone_ms);
  if (step_ms > 0) s.fraction_of_step = s.per_step_ms / step_ms;
  s.method += "; less the time this rank waits in the collectives for a slower rank";
  return {old_share - s.per_step_ms, old_low - low};
}

void lowerTotal(analyzer::SavingsTotal& all, std::pair<double, double> cut) {
  const auto [share_cut, low_cut] = cut;
  if (all.per_step_ms < 0 || share_cut <= 0) return;
  const double all_low = (all.low_ms >= 0 ? all.low_ms : all.per_step_ms) - low_cut;
  all.per_step_ms = std::max(0.0, all.per_step_ms - share_cut);
  all.low_ms = all_low < all.per_step_ms - 1e-9 ? std::max(0.0, all_low) : -1;
  if (all.step_ms > 0) all.fraction_of_step = all.per_step_ms / all.step_ms;
}

}  // namespace

void scopeRankFindings(const analyzer::JobAnalysis& job, analyzer::LintResult& rank_lint) {
  const analyzer::JobRank* rank = rankOf(job, rank_lint.source);
  if (rank == nullptr) return;
  const double wait_ms = std::max(0.0, rank->wait_ns / 1e6);
  const std::string caveat = oneRankCaveat(job.world_size);
  for (analyzer::Diagnostic& d : rank_lint.diagnostics) {
    if (d.code != "SL502" && d.code != "SL503") continue;
    // The job measured what the single trace could only warn about.
    if (const size_t at = d.message.find(caveat); at != std::string::npos)
      d.message.erase(at, caveat.size());
    if (wait_ms > 0) {
      d.message += waitNote(job, *rank, wait_ms);
      d.evidence.metrics.emplace_back("collective_wait_ms_per_step", wait_ms);
      lowerTotal(rank_lint.saving_all, takeOutWait(d, wait_ms));
    }
    if (rank->rank == job.straggler) d.message += "; the other ranks wait for this one (SL701)";
  }
}

}  // namespace steplint::rules
