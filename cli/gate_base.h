// The regression gate's base run (`check NEW --compare BASE`): one trace, which every checked
// trace is compared with, or a distributed job's folder or quoted glob, whose rank N is the
// base of the checked job's rank N (ranks matched by number, as `diff` of two jobs pairs them).
//
// A job's ranks are imported one at a time, when the checked rank needs its base: memory stays
// at one base trace whatever the job's size. Each checked rank is its own test, so with a job
// base the gate's significance level is divided by the number of ranks compared (Bonferroni
// across ranks; Holm across one rank's limits, regression.h): a quiet job fails no more often
// than one quiet trace does.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "job_inputs.h"
#include "steplint/analyzer/run_diff.h"
#include "steplint/analyzer/steps.h"

namespace steplint::cli {

class GateBase {
 public:
  /// Reads BASE: a trace is imported and profiled now; a folder or glob is listed and its
  /// traces' ranks read from their first bytes. False, with the error line in `error`, when
  /// it cannot be read or (a job) none of its traces names a rank. Import warnings go to
  /// `warnings`.
  bool open(const std::string& path, const analyzer::StepOptions& steps,
            std::vector<std::string>& warnings, std::string& error);

  bool isJob() const { return !by_rank_.empty(); }
  size_t rankCount() const { return by_rank_.size(); }
  /// A rank's base trace could not be imported (its error was printed).
  bool readFailed() const { return read_failed_; }

  /// The base of a checked trace of rank `rank` (-1: it names none): the one trace's profile,
  /// or the same rank's in the base job, imported now unless it is the one last imported.
  /// nullptr, with the reason in `why`, when there is none (the job has no such rank, the
  /// checked trace names no rank, or the rank's trace cannot be read).
  const analyzer::RunProfile* baseFor(int64_t rank, std::string& source, std::string& why,
                                      std::vector<std::string>& warnings);

 private:
  bool profile(const std::string& path, std::vector<std::string>& warnings);

  analyzer::StepOptions steps_;
  std::string path_;                           // BASE as given
  std::map<int64_t, std::string> by_rank_;     // a job: each rank's trace
  std::optional<analyzer::RunProfile> profile_;  // the one trace's, or the last rank's
  std::string profiled_;                       // the path profile_ was read from
  bool read_failed_ = false;
};

/// The rank a checked trace names: its distributedInfo, else its file name (rank_summary.h);
/// -1 when neither says.
int64_t checkedRank(const trace::TraceModel& model, const std::string& path);

}  // namespace steplint::cli
