// The regression gate's base runs (`check NEW --compare BASE [--compare BASE2 ...]`): traces,
// which every checked trace is compared with, or distributed jobs' folders or quoted globs,
// whose rank N is the base of the checked job's rank N (ranks matched by number, as `diff` of
// two jobs pairs them). Several base runs are recordings of the same trainer: each limit is
// checked against the slowest of them (regression.h), so a shift between recordings that the
// base runs themselves show is not taken for a regression.
//
// A job's ranks are imported when the checked rank needs them, one rank (of each base job) at a
// time: memory stays at the base runs of one rank whatever the job's size. Each checked rank is
// its own test, so with job bases the gate's significance level is divided by the number of
// ranks compared (Bonferroni across ranks; Holm across one rank's limits): a quiet job fails no
// more often than one quiet trace does.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "steplint/analyzer/run_diff.h"
#include "steplint/analyzer/steps.h"
#include "trace_inputs.h"

namespace steplint::cli {

class GateBase {
 public:
  /// Reads the base runs: traces are imported and profiled now; folders and globs are listed
  /// and their traces' ranks read from their first bytes. False, with the error line in
  /// `error` ("" when the importer printed it), when one cannot be read, when traces and jobs
  /// are mixed, or when a job's traces name no rank. With `one_checked_trace`, a folder or glob
  /// holding a single-process run's one trace (job_inputs.h singleRunTrace) is that trace.
  /// Import warnings go to `warnings`.
  bool open(const std::vector<std::string>& paths, const analyzer::StepOptions& steps,
            bool one_checked_trace, std::vector<std::string>& warnings, std::string& error);

  bool isJob() const { return !jobs_.empty(); }
  /// A base job's trace of a rank could not be imported (its error was printed).
  bool readFailed() const { return read_failed_; }

  /// The base runs of a checked trace of rank `rank` (-1: it names none): every base trace, or
  /// each base job's trace of that rank (imported now unless that rank's are the ones held).
  /// Empty, with the reason in `why`, when there is none. `source`: the first base's path.
  std::vector<const analyzer::RunProfile*> basesFor(int64_t rank, std::string& source,
                                                    std::string& why,
                                                    std::vector<std::string>& warnings);

 private:
  bool profile(const std::string& path, std::vector<std::string>& warnings);
  /// `path`'s traces (`inputs`, expanded by open) by rank, as one more base job.
  bool listJob(const std::string& path, const TraceInputs& inputs,
               std::vector<std::string>& warnings, std::string& error);

  analyzer::StepOptions steps_;
  std::vector<std::string> paths_;                    // as given
  std::vector<std::map<int64_t, std::string>> jobs_;  // each base job: rank -> its trace
  std::vector<analyzer::RunProfile> profiles_;        // the traces', or the held rank's
  int64_t held_rank_ = -1;                            // jobs: whose traces profiles_ holds
  bool read_failed_ = false;
};

/// The rank a checked trace names: its distributedInfo, else its file name (rank_summary.h);
/// -1 when neither says.
int64_t checkedRank(const trace::TraceModel& model, const std::string& path);

}  // namespace steplint::cli
