// One opened job (a folder, glob or list of one distributed job's traces) with everything the
// ranks view shows: each job's cross-rank analysis and job findings, exactly as
// `steplint summary DIR` and `steplint check DIR` compute them (analyzer/job.h, job_rule.h).
// Built off the GUI thread by JobLoader from per-rank summaries only: no trace model is kept,
// so memory does not grow with the ranks. Shared read-only by the views.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "steplint/analyzer/job.h"
#include "steplint/analyzer/job_rule.h"

namespace steplint::gui {

/// A trace opened with a job's ranks that is no rank of it (analyzer::notARankReason): the
/// ranks view offers it on its own, as `steplint check DIR` reports it on its own.
struct NotARank {
  std::string path;
  std::string reason;  // "no distributedInfo and no rank in the file name", ...
};

struct LoadedJob {
  std::vector<std::string> files;             // the traces the inputs named, in order
  std::vector<analyzer::JobAnalysis> jobs;    // one per job; several when the inputs mix jobs
  std::vector<analyzer::JobLintResult> lint;  // lint[i]: jobs[i]'s findings (SL7xx)
  std::vector<std::string> problems;          // inputs that gave no rank: missing, not a trace ...
  std::vector<NotARank> not_ranks;            // traces beside the job's ranks that are none
  std::vector<std::string> warnings;          // import warnings (per file) and grouping warnings
  double load_seconds = 0;

  /// The findings of jobs[job], kept alive by this job (for DiagnosticsModel::setFindings).
  static std::shared_ptr<const std::vector<analyzer::Diagnostic>> findings(
      std::shared_ptr<const LoadedJob> job, size_t index);
  static std::shared_ptr<const std::vector<analyzer::NotChecked>> notChecked(
      std::shared_ptr<const LoadedJob> job, size_t index);
};

/// What the ranks view must say before anything else about jobs[index], one line each, most
/// important first: inputs that failed, traces that are no rank of the job, other jobs among
/// the inputs, and what the analysis could not decide (one rank, no collectives). Empty for a
/// complete job.
std::vector<std::string> jobNotices(const LoadedJob& job, size_t index);

}  // namespace steplint::gui
