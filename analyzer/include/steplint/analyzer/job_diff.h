// Comparing two runs of a distributed job (`steplint diff BASE_DIR NEW_DIR`, docs/analyses.md
// "Comparing jobs"): the job analyses (job.h) of both runs, compared as a whole — the job's
// mean step and each part of it, and which rank the others waited for — and rank by rank.
// Reads JobAnalyses only, so memory does not grow with the ranks' trace sizes.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "steplint/analyzer/job.h"
#include "steplint/analyzer/run_diff.h"

namespace steplint::analyzer {

/// The `steplint diff --format json` schema id for two jobs (docs/diff-json.md).
inline constexpr const char* kJobDiffJsonSchema = "steplint.jobdiff/1";

/// The job report's per-rank parts (job.h, JobRank), in its column order.
inline constexpr size_t kJobPartCount = 7;
std::string_view jobPartName(size_t part);           // "compute", "comm transfer", "comm wait", ...
using JobParts = std::array<double, kJobPartCount>;  // ns, mean per step
JobParts jobParts(const JobRank& rank);

/// One run's job as a whole.
struct JobSide {
  std::string identity;
  int64_t ranks = 0;
  int64_t steps = 0;   // compared steps
  double step_ns = 0;  // the job's mean step: each rank's mean step, averaged over the ranks
  double median_step_ns = 0;  // over the compared steps, of each step's median rank
  JobParts parts{};    // each part likewise
  /// The rank the others waited for most: the least comm wait of its own; -1 without matched
  /// collectives. `slowest_late_ns`: the median other rank's wait minus its own, per step.
  int64_t slowest_rank = -1;
  double slowest_late_ns = 0;
  int64_t straggler = -1;  // the job's verdict (JobAnalysis::straggler), -1: none
  LateCause straggler_cause = LateCause::kNone;
  int64_t straggler_steps = 0;
};

/// One rank in either run; a rank missing from a run has its `in_*` false and zeros there.
struct RankDelta {
  int64_t rank = -1;
  bool in_base = false, in_new = false;
  double base_step_ns = 0, new_step_ns = 0;
  JobParts base_parts{}, new_parts{};
  int64_t base_late_steps = 0, new_late_steps = 0;  // steps in which it was the straggler
};

struct JobDiff {
  std::string base_source, new_source;
  JobSide base, next;
  double step_delta_ns = 0;  // next.step_ns - base.step_ns
  /// Whether the job's step moved beyond step-to-step noise: the gate's test (regression.h,
  /// testChange) on each compared step's median rank, as `diff` of two runs tests their steps.
  ChangeTest step_test;
  std::vector<RankDelta> ranks;  // by rank
  /// The job findings (SL7xx) of both runs matched by fingerprint, as two runs' diff matches
  /// theirs; `findings_compared` false when the job rules did not run (--no-findings).
  bool findings_compared = false;
  std::vector<FindingDelta> findings;
  std::vector<std::string>
      notes;  // different worlds, ranks in one run only, what could not be compared
};

JobDiff diffJobs(const JobAnalysis& base, const JobAnalysis& next);
/// Adds both runs' job findings (lintJob's diagnostics) to `diff`, matched by fingerprint;
/// worse and better by `options.finding_factor`.
void compareJobFindings(JobDiff& diff, const std::vector<Diagnostic>& base,
                        const std::vector<Diagnostic>& next, const DiffOptions& options = {});

/// "Job step time: 48.000 → 40.000 ms/step (-8.000 ms, -16.7%; significant ...): comm wait
/// -6.013, ..." — the first line of every rendering (and of the GUI's job comparison).
std::string jobDiffHeadline(const JobDiff& diff);
/// "rank 3 (the others waited 7.950 ms/step for it; straggler rank 3 in 5 of 5 steps, cause:
/// GPU compute)", or "none measured (no collectives matched)".
std::string slowestRankText(const JobSide& side);

/// Renderings; `top` limits the ranks table (0 = all ranks; JSON has all).
void printJobDiffText(std::ostream& out, const JobDiff& diff, size_t top = 15);
void printJobDiffMarkdown(std::ostream& out, const JobDiff& diff, size_t top = 15);
nlohmann::json jobDiffToJson(const JobDiff& diff);

}  // namespace steplint::analyzer
