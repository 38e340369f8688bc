#include "gate_base.h"

#include "job_inputs.h"
#include "messages.h"
#include "steplint/analyzer/rank_summary.h"
#include "steplint/analyzer/summary.h"
#include "trace_inputs.h"

namespace steplint::cli {

bool GateBase::open(const std::vector<std::string>& paths, const analyzer::StepOptions& steps,
                    bool one_checked_trace, std::vector<std::string>& warnings,
                    std::string& error) {
  steps_ = steps;
  paths_ = paths;
  size_t traces = 0;
  for (const std::string& path : paths) {
    const TraceInputs inputs = expandTraceInputs({path});
    // A single-process run's folder (tensorboard_trace_handler's) is its one trace, when one
    // trace is checked too; a job's ranks are no match for it.
    const std::optional<std::string> single =
        one_checked_trace ? singleRunTrace(inputs) : std::nullopt;
    if (inputs.from_folder_or_glob && !single) {
      for (const std::string& p : inputs.problems) warnings.push_back("--compare " + p);
      if (!listJob(path, inputs, warnings, error)) return false;
      continue;
    }
    ++traces;
    if (!profile(single.value_or(path), warnings)) {
      error.clear();  // importTraceReporting printed why
      return false;
    }
  }
  if (traces > 0 && isJob()) {
    error = "--compare: give either traces or jobs' folders or globs, not both";
    return false;
  }
  return true;
}

bool GateBase::listJob(const std::string& path, const TraceInputs& inputs,
                       std::vector<std::string>& warnings, std::string& error) {
  std::map<int64_t, std::string> by_rank;
  for (const JobInput& input : classifyInputs(inputs.files, inputs.expanded)) {
    if (input.kind != JobInput::Kind::kTrace || input.rank.rank < 0) continue;
    if (!by_rank.emplace(input.rank.rank, input.path).second)
      warnings.push_back("--compare " + path + ": " + input.path + " is a second trace of rank " +
                         std::to_string(input.rank.rank) + "; the first, " +
                         by_rank[input.rank.rank] + ", is the base");
  }
  if (by_rank.empty()) {
    error = "--compare " + path + ": no trace in it names a rank (distributedInfo or a rank in "
            "the file name), so no checked trace would have a base";
    return false;
  }
  jobs_.push_back(std::move(by_rank));
  return true;
}

bool GateBase::profile(const std::string& path, std::vector<std::string>& warnings) {
  trace::TraceModel model;  // released before the next trace is read
  if (!importTraceReporting(path, model, &warnings)) return false;
  analyzer::SummaryOptions options;
  options.steps = steps_;
  analyzer::TraceSummary summary = analyzer::summarize(model, options);
  summary.source = path;
  profiles_.push_back(analyzer::profileRun(model, summary, nullptr));
  profiles_.back().source = path;
  return true;
}

std::vector<const analyzer::RunProfile*> GateBase::basesFor(int64_t rank, std::string& source,
                                                            std::string& why,
                                                            std::vector<std::string>& warnings) {
  std::vector<const analyzer::RunProfile*> out;
  if (isJob()) {
    const std::string jobs = paths_.size() > 1 ? "any base job" : "the base job " + paths_[0];
    if (rank < 0) {
      why = "--compare names a job, and this trace names no rank to compare with";
      return out;
    }
    if (rank != held_rank_) {
      profiles_.clear();
      held_rank_ = rank;
      for (const auto& job : jobs_) {
        const auto it = job.find(rank);
        if (it == job.end()) continue;
        if (!profile(it->second, warnings)) {
          read_failed_ = true;
          warnings.push_back("the base's rank " + std::to_string(rank) + " (" + it->second +
                             ") cannot be read: left out of the base runs");
        }
      }
    }
    if (profiles_.empty()) {
      why = "rank " + std::to_string(rank) + " is not in " + jobs + " (or cannot be read)";
      return out;
    }
  }
  for (const analyzer::RunProfile& p : profiles_) out.push_back(&p);
  source = profiles_.front().source;
  return out;
}

int64_t checkedRank(const trace::TraceModel& model, const std::string& path) {
  const trace::DistributedInfo& info = model.metadata.distributed;
  if (info.present && info.rank >= 0) return info.rank;
  return analyzer::rankFromFileName(path);
}

}  // namespace steplint::cli
