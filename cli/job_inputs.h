// Reading a job: the TRACE arguments sorted by their first bytes before any import
// (classifyInputs: traces, rank-summary files), then every rank's trace imported (several at a
// time), reduced to its RankSummary (analyzer/rank_summary.h) and freed before the next, then
// grouped into jobs and analysed. Peak memory is `workers` traces, whatever the number of ranks.
// Each file is read once: a folder that turns out not to be a job is known to be so before its
// traces are imported, and a rank-summary file is never tried as a trace.
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "steplint/analyzer/job.h"
#include "steplint/analyzer/summary.h"
#include "steplint/trace/importer.h"
#include "trace_inputs.h"

namespace steplint::cli {

/// One TRACE argument as its first bytes show it (trace/peek.h).
struct JobInput {
  enum class Kind : uint8_t { kTrace, kRankSummary, kFailed };
  std::string path;
  Kind kind = Kind::kTrace;
  /// kRankSummary: the file's whole rank summary. kTrace: who the trace is (source, rank,
  /// world size), as far as its first bytes say. kFailed: nothing; the error was printed.
  analyzer::RankSummary rank;
  /// Found in a folder or by a pattern, not named: if it turns out to be another JSON document
  /// (a config or metrics file beside the traces), it is skipped with a warning, not an error.
  bool expanded = false;
};

/// Sorts `paths` (argument order kept). A rank-summary file (`steplint summary --format json`)
/// is read whole here, being small; a broken one gets its error printed. Traces are only peeked.
std::vector<JobInput> classifyInputs(const std::vector<std::string>& paths,
                                     const std::set<std::string>& expanded = {});

struct JobInputOptions {
  analyzer::SummaryOptions summary;
  /// Traces imported at once (0: one per hardware thread, at most 4: each import also uses the
  /// remaining cores for parsing, and each holds one whole trace in memory).
  unsigned workers = 0;
  /// The caller reports the traces with no rank on their own (takeUnranked), importing them
  /// again: their import warnings are left to that import instead of printed twice.
  bool unranked_alone = false;
};

struct JobInputResult {
  std::vector<analyzer::RankSummary>
      ranks;                 // the traces that imported and the summary files, in argument order
  bool all_imported = true;  // false after printing an error for a trace
  std::vector<std::string> warnings;  // the import warnings printed
};

/// Imports and reduces the trace inputs, several at once, and adds the rank-summary inputs;
/// prints import errors and warnings once each, in argument order.
JobInputResult summarizeRanks(const std::vector<JobInput>& inputs, const JobInputOptions& options);

/// Takes the imported traces that name no rank (no distributedInfo, no rank in the file name)
/// or are single-process runs (world_size 1) out of `ranks` and returns them as inputs, in
/// argument order, with a warning each in `warnings`: they are no rank of a job, and a job's report
/// would leave them out, so the caller reports each on its own. Rank-summary files stay (there is
/// no trace to report on).
std::vector<JobInput> takeUnranked(const std::vector<JobInput>& inputs,
                                   std::vector<analyzer::RankSummary>& ranks,
                                   std::vector<std::string>& warnings);

/// The one trace of a single-process run's folder or glob (tensorboard_trace_handler's log
/// folder of a one-GPU run): `inputs` expanded to exactly one trace, and it names no rank or is
/// a world of one, so comparing two such folders compares two runs, not two jobs. Empty
/// otherwise.
std::optional<std::string> singleRunTrace(const TraceInputs& inputs);

/// Groups the ranks into jobs and analyses each; grouping warnings go to `warnings`.
std::vector<analyzer::JobAnalysis> analyzeJobs(std::vector<analyzer::RankSummary> ranks,
                                               std::vector<std::string>& warnings);

/// The name a job's findings are reported under: the folder all its traces are in, else its
/// identity ("world_size=4 backend=nccl").
std::string jobSource(const analyzer::JobAnalysis& job);

using analyzer::looksLikeJob;  // on the imported traces' summaries (analyzer/job.h)
/// The same judged on the inputs before import: their first bytes' distributedInfo, their file
/// names, the rank-summary files. Traces from different runs, or one rank of a single-process
/// run, are no job.
bool looksLikeJob(const std::vector<JobInput>& inputs);

}  // namespace steplint::cli
