// diffJobs (job_diff.h).
#include "steplint/analyzer/job_diff.h"

#include <algorithm>
#include <map>

#include "steplint/analyzer/medians.h"
#include "steplint/analyzer/regression.h"

namespace steplint::analyzer {
namespace {

/// The rank the others waited for: as in the job analysis (job.h), the rank that waited least
/// at the collectives was the last to arrive; it is late by the median other rank's wait.
void slowestRank(const JobAnalysis& job, JobSide& side) {
  if (!job.has_collectives || job.ranks.size() < 2) return;
  const auto least =
      std::min_element(job.ranks.begin(), job.ranks.end(),
                       [](const JobRank& a, const JobRank& b) { return a.wait_ns < b.wait_ns; });
  std::vector<double> others;
  for (const JobRank& r : job.ranks)
    if (&r != &*least) others.push_back(r.wait_ns);
  side.slowest_rank = least->rank;
  side.slowest_late_ns = middleMedian(std::move(others)) - least->wait_ns;
}

JobSide sideOf(const JobAnalysis& job) {
  JobSide side;
  side.identity = job.identity;
  side.ranks = static_cast<int64_t>(job.ranks.size());
  side.steps = static_cast<int64_t>(job.steps.size());
  side.median_step_ns = job.median_step_ns;
  for (const JobRank& r : job.ranks) {
    side.step_ns += r.step_ns;
    const JobParts parts = jobParts(r);
    for (size_t p = 0; p < kJobPartCount; ++p) side.parts[p] += parts[p];
  }
  if (side.ranks > 0) {
    side.step_ns /= static_cast<double>(side.ranks);
    for (double& p : side.parts) p /= static_cast<double>(side.ranks);
  }
  slowestRank(job, side);
  side.straggler = job.straggler;
  side.straggler_cause = job.straggler_cause;
  side.straggler_steps = job.straggler_steps;
  return side;
}

std::vector<RankDelta> rankDeltas(const JobAnalysis& base, const JobAnalysis& next) {
  std::map<int64_t, RankDelta> by_rank;
  for (const JobRank& r : base.ranks) {
    RankDelta& d = by_rank[r.rank];
    d.rank = r.rank, d.in_base = true, d.base_step_ns = r.step_ns, d.base_parts = jobParts(r);
    d.base_late_steps = r.straggler_steps;
  }
  for (const JobRank& r : next.ranks) {
    RankDelta& d = by_rank[r.rank];
    d.rank = r.rank, d.in_new = true, d.new_step_ns = r.step_ns, d.new_parts = jobParts(r);
    d.new_late_steps = r.straggler_steps;
  }
  std::vector<RankDelta> out;
  for (auto& [rank, d] : by_rank) out.push_back(d);
  return out;
}

std::string rankList(const std::vector<RankDelta>& ranks, bool RankDelta::*in) {
  std::string list;
  size_t n = 0;
  for (const RankDelta& r : ranks)
    if (!(r.*in) && n++ < 8) list += (list.empty() ? "" : ", ") + std::to_string(r.rank);
  return n > 8 ? list + ", ..." : list;
}

void addNotes(const JobAnalysis& base, const JobAnalysis& next, JobDiff& diff) {
  if (base.world_size != next.world_size)
    diff.notes.push_back("the world sizes differ (" + std::to_string(base.world_size) + " → " +
                         std::to_string(next.world_size) +
                         "): the job means compare different numbers of ranks");
  if (const std::string only = rankList(diff.ranks, &RankDelta::in_new); !only.empty())
    diff.notes.push_back("rank(s) " + only + " only in the base run");
  if (const std::string only = rankList(diff.ranks, &RankDelta::in_base); !only.empty())
    diff.notes.push_back("rank(s) " + only + " only in the new run");
  for (const auto& [label, job] : {std::pair{"base", &base}, std::pair{"new", &next}}) {
    if (job->steps.empty())
      diff.notes.push_back(std::string("the ") + label + " run has no step every rank recorded");
    for (const std::string& reason : job->not_checked)
      diff.notes.push_back(std::string("the ") + label +
                           " run's ranks could not be compared: " + reason);
  }
}

// The job's step in each compared step: its median rank's, which the collectives make every
// rank wait for about equally, so one slow rank's noise does not decide it.
std::vector<int64_t> stepTimes(const JobAnalysis& job) {
  std::vector<int64_t> out;
  out.reserve(job.steps.size());
  for (const JobStep& s : job.steps) out.push_back(s.median_step_ns);
  return out;
}

}  // namespace

std::string_view jobPartName(size_t part) {
  static constexpr std::string_view kNames[kJobPartCount] = {
      "compute", "comm transfer", "comm wait", "syncs", "host work", "DataLoader", "idle"};
  return part < kJobPartCount ? kNames[part] : "";
}

JobParts jobParts(const JobRank& r) {
  return {r.compute_ns,   r.transfer_ns,   r.wait_ns, r.sync_ns,
          r.host_work_ns, r.dataloader_ns, r.idle_ns};
}

JobDiff diffJobs(const JobAnalysis& base, const JobAnalysis& next) {
  JobDiff diff;
  diff.base = sideOf(base);
  diff.next = sideOf(next);
  diff.step_delta_ns = diff.next.step_ns - diff.base.step_ns;
  diff.step_test = testChange(stepTimes(base), stepTimes(next));
  diff.ranks = rankDeltas(base, next);
  addNotes(base, next, diff);
  return diff;
}

void compareJobFindings(JobDiff& diff, const std::vector<Diagnostic>& base,
                        const std::vector<Diagnostic>& next, const DiffOptions& options) {
  diff.findings_compared = true;
  diff.findings = diffFindings(findingSizes(base), findingSizes(next), options.finding_factor);
}

}  // namespace steplint::analyzer
