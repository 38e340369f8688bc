// The whole job: the ranks' summaries (rank_summary.h) grouped into jobs and compared step by
// step. Works on RankSummaries only, never on a TraceModel, so memory does not grow with the
// ranks' trace sizes (docs/analyses.md "Whole job").
//
// Clocks are not compared. A collective ends at about the same moment on every rank, so the
// rank that arrived last waited the least: each rank's wait in a collective is its duration
// minus the shortest duration any rank saw for the same collective, and that shortest one is
// the transfer itself. Collectives are matched within a step number and process group: by
// sequence number where the trace's args carry one (torch >= 2.3), else by position among the
// group's calls in the step; their kinds must agree (job_match.h).
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "steplint/analyzer/rank_summary.h"

namespace steplint::analyzer {

/// The ranks of one job, in rank order, with what was odd about putting them together.
struct Job {
  std::string identity;            // "world_size=4 backend=nccl", or "by file name"
  int64_t world_size = -1;         // as the traces say (-1: unknown)
  std::vector<RankSummary> ranks;  // one per rank, sorted by rank
  std::vector<std::string> warnings;
};

/// Groups rank summaries into jobs by distributedInfo (world size and backend), by file name
/// when a trace has none (with a warning). Duplicate ranks keep the first file; traces with no
/// rank at all are left out with a warning. `warnings` receives what concerns no single job.
std::vector<Job> groupJobs(std::vector<RankSummary> ranks, std::vector<std::string>& warnings);

/// True when the summaries describe a distributed job worth a job report: two ranks or more,
/// or a trace whose distributedInfo says the world has more than one rank.
bool looksLikeJob(const std::vector<RankSummary>& ranks);

/// Why a trace beside a job's ranks is no rank of it, "" when it is one: it names no rank (no
/// distributedInfo, no rank in the file name) or it is a single-process run (world_size 1).
/// `steplint check|summary DIR` and the GUI's ranks view report such a trace on its own.
std::string notARankReason(const RankSummary& rank);

struct JobOptions {
  /// A rank is a straggler in a step only when the others waited for it longer than this share
  /// of the median step time (noise between balanced ranks is a few %) ...
  double noise_fraction = 0.05;
  /// ... and longer than this, so microsecond jitter in short steps is not a straggler.
  int64_t min_late_ns = 200'000;
};

/// What made a late rank late, judged by which part of its step grew against the other ranks.
enum class LateCause : uint8_t {
  kNone,
  kInputPipeline,
  kHostSync,
  kHostWork,
  kGpuCompute,
  kUnexplained
};
std::string_view lateCauseName(LateCause c);  // "input pipeline", "host syncs", ...

/// One step across the ranks.
struct JobStep {
  int64_t number = 0;
  int64_t median_step_ns = 0;
  int64_t collectives = 0;  // matched in this step
  int64_t straggler = -1;   // the rank the others waited for (-1: none above noise)
  int64_t late_ns = 0;      // the median other rank's wait minus the straggler's
  /// The straggler and every rank that arrived within the noise threshold of it: those the
  /// others waited for together (one rank when it alone is late).
  std::vector<int64_t> late_ranks;
  LateCause cause = LateCause::kNone;
  int64_t cause_excess_ns = 0;           // how much longer the cause's part took on the straggler
  std::vector<NamedTime> grown_kernels;  // kernels longer on the straggler than the others' median
};

/// One rank's averages over the compared steps (the per-rank table).
struct JobRank {
  int64_t rank = -1;
  std::string source;
  double step_ns = 0, compute_ns = 0, transfer_ns = 0, wait_ns = 0, sync_ns = 0, host_work_ns = 0,
         dataloader_ns = 0, idle_ns = 0;
  int64_t straggler_steps = 0;  // steps in which this rank was the straggler
};

struct JobAnalysis {
  std::string identity;
  int64_t world_size = -1;
  std::vector<JobRank> ranks;
  std::vector<JobStep> steps;  // the step numbers every rank has, in order
  int64_t matched_collectives = 0;
  int64_t matched_by_seq =
      0;  // of those, matched by (process group, sequence number); the rest by order
  bool has_collectives = false;
  double median_step_ns = 0;  // median over steps of the median rank's step
  // The job-level verdict: the rank most often late, when it is late in most steps.
  int64_t straggler = -1;
  LateCause straggler_cause = LateCause::kNone;
  int64_t straggler_steps = 0;
  double mean_late_ns = 0;  // over the straggler's late steps
  /// When several ranks are late together in most steps (each in a step's late_ranks in at
  /// least half of them): all of them, the straggler first; the others wait for the last of
  /// them, so fixing one alone saves nothing. Empty when the straggler is alone.
  std::vector<int64_t> late_together;
  /// Whether the others waited for the straggler (or one of late_together) in `step`.
  bool stragglerLateIn(const JobStep& step) const;
  /// "rank 2", or "ranks 2 and 3", "ranks 2, 5 and 6" when several are late together.
  std::string stragglerText() const;
  /// How many ranks wait for the straggler (or the ranks late together).
  size_t waitingRanks() const;
  double mean_wait_ns = 0;  // all ranks, all steps: time lost at collectives per rank and step
  std::vector<std::string> warnings;     // the job's and the analysis's
  std::vector<std::string> not_checked;  // what could not be decided, and why
};

JobAnalysis analyzeJob(const Job& job, const JobOptions& options = {});

/// How the collectives were matched across ranks, for the report: "process group and sequence
/// number", "order within each process group", both (with counts), or "none".
std::string collectiveMatching(const JobAnalysis& job);

/// The per-rank table, the late steps and the warnings, as text.
void printJobText(std::ostream& out, const JobAnalysis& job);
/// The same as JSON ("schema": "steplint.job/1", docs/analyses.md "Whole job").
nlohmann::json jobToJson(const JobAnalysis& job);

}  // namespace steplint::analyzer
