// Reading a job: every rank's trace imported (several at a time), reduced to its RankSummary
// (analyzer/rank_summary.h) and freed before the next, then grouped into jobs and analysed.
// Peak memory is `workers` traces, whatever the number of ranks.
#pragma once

#include <string>
#include <vector>

#include "steplint/analyzer/job.h"
#include "steplint/analyzer/summary.h"
#include "steplint/trace/importer.h"

namespace steplint::cli {

struct JobInputOptions {
  analyzer::SummaryOptions summary;
  /// Traces imported at once (0: one per hardware thread, at most 4: each import also uses the
  /// remaining cores for parsing, and each holds one whole trace in memory).
  unsigned workers = 0;
};

struct JobInputResult {
  std::vector<analyzer::RankSummary> ranks;  // the traces that imported, in argument order
  bool all_imported = true;                  // false after printing an error for a trace
};

/// What a TRACE argument turned out to be.
enum class InputRead { kTrace, kRankSummary, kFailed };

/// Imports `path` as a trace into `model`; a file that is no trace but a `steplint summary
/// --format json` document carrying a "rank_summary" fills `rank` instead (a job's rank reduced
/// where it was recorded). Errors and import warnings are printed as importTraceReporting does.
InputRead importTraceOrRankSummary(const std::string& path, trace::TraceModel& model, analyzer::RankSummary& rank);

/// Imports and reduces `paths` (traces or rank-summary files); prints import errors and warnings in argument order.
JobInputResult summarizeRanks(const std::vector<std::string>& paths, const JobInputOptions& options);

/// Groups the ranks into jobs and analyses each; grouping warnings go to `warnings`.
std::vector<analyzer::JobAnalysis> analyzeJobs(std::vector<analyzer::RankSummary> ranks,
                                               std::vector<std::string>& warnings);

/// The name a job's findings are reported under: the folder all its traces are in, else its
/// identity ("world_size=4 backend=nccl").
std::string jobSource(const analyzer::JobAnalysis& job);

/// True when the summaries describe a distributed job worth a job report: two ranks or more,
/// or a trace whose distributedInfo says the world has more than one rank.
bool looksLikeJob(const std::vector<analyzer::RankSummary>& ranks);

}  // namespace steplint::cli
