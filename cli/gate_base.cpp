#include "gate_base.h"

#include "messages.h"
#include "steplint/analyzer/rank_summary.h"
#include "steplint/analyzer/summary.h"
#include "trace_inputs.h"

namespace steplint::cli {

bool GateBase::open(const std::string& path, const analyzer::StepOptions& steps,
                    std::vector<std::string>& warnings, std::string& error) {
  steps_ = steps;
  path_ = path;
  const TraceInputs inputs = expandTraceInputs({path});
  if (!inputs.from_folder_or_glob) {
    if (profile(path, warnings)) return true;
    error.clear();  // importTraceReporting printed why
    return false;
  }
  for (const std::string& p : inputs.problems) warnings.push_back("--compare " + p);
  for (const JobInput& input : classifyInputs(inputs.files, inputs.expanded)) {
    if (input.kind != JobInput::Kind::kTrace || input.rank.rank < 0) continue;
    if (!by_rank_.emplace(input.rank.rank, input.path).second)
      warnings.push_back("--compare " + path + ": " + input.path + " is a second trace of rank " +
                         std::to_string(input.rank.rank) + "; the first, " +
                         by_rank_[input.rank.rank] + ", is the base");
  }
  if (by_rank_.empty()) {
    error = "--compare " + path + ": no trace in it names a rank (distributedInfo or a rank in "
            "the file name), so no checked trace would have a base";
    return false;
  }
  return true;
}

bool GateBase::profile(const std::string& path, std::vector<std::string>& warnings) {
  profile_.reset();
  profiled_ = path;
  trace::TraceModel model;  // released before the checked traces are read
  if (!importTraceReporting(path, model, &warnings)) return false;
  analyzer::SummaryOptions options;
  options.steps = steps_;
  analyzer::TraceSummary summary = analyzer::summarize(model, options);
  summary.source = path;
  profile_ = analyzer::profileRun(model, summary, nullptr);
  return true;
}

const analyzer::RunProfile* GateBase::baseFor(int64_t rank, std::string& source, std::string& why,
                                              std::vector<std::string>& warnings) {
  if (!isJob()) {
    source = path_;
    return profile_ ? &*profile_ : nullptr;
  }
  if (rank < 0) {
    why = "--compare " + path_ + " is a job, and this trace names no rank to compare with";
    return nullptr;
  }
  const auto it = by_rank_.find(rank);
  if (it == by_rank_.end()) {
    why = "rank " + std::to_string(rank) + " is not in the base job " + path_;
    return nullptr;
  }
  source = it->second;
  if (profiled_ != it->second && !profile(it->second, warnings)) {
    read_failed_ = true;
    why = "the base job's rank " + std::to_string(rank) + " (" + it->second + ") cannot be read";
    return nullptr;
  }
  return profile_ ? &*profile_ : nullptr;
}

int64_t checkedRank(const trace::TraceModel& model, const std::string& path) {
  const trace::DistributedInfo& info = model.metadata.distributed;
  if (info.present && info.rank >= 0) return info.rank;
  return analyzer::rankFromFileName(path);
}

}  // namespace steplint::cli
