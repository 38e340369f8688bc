#include "job_inputs.h"

#include <algorithm>
#include <atomic>
#include <map>
#include <set>
#include <thread>

#include "messages.h"
#include "steplint/analyzer/rank_summary.h"
#include "steplint/trace/importer.h"
#include "steplint/trace/input_file.h"
#include "steplint/trace/peek.h"

namespace steplint::cli {
namespace {

/// What one worker leaves for the printing thread: messages are printed in argument order
/// after all imports, so parallel imports do not interleave their lines.
struct Slot {
  trace::ImportStatus status;
  std::vector<std::string> warnings;
  analyzer::RankSummary rank;
};

void importOne(const std::string& path, const JobInputOptions& options, int parse_threads,
               Slot& slot) {
  trace::TraceModel model;  // freed when this returns: only the summary outlives it
  trace::ImportOptions import;
  import.threads = parse_threads;
  slot.status = trace::importTraceFile(path, model, import);
  if (!slot.status.ok()) return;
  slot.warnings = importWarnings(path, model);
  analyzer::SummaryOptions summary_options = options.summary;
  summary_options.threads = parse_threads;  // the ranks already share the cores
  analyzer::TraceSummary summary = analyzer::summarize(model, summary_options);
  summary.source = path;
  slot.rank = analyzer::summarizeRank(model, summary);
}

}  // namespace

std::vector<JobInput> classifyInputs(const std::vector<std::string>& paths,
                                     const std::set<std::string>& expanded) {
  std::vector<JobInput> inputs(paths.size());
  for (size_t i = 0; i < paths.size(); ++i) {
    JobInput& input = inputs[i];
    input.path = paths[i];
    input.expanded = expanded.count(input.path) > 0;
    const trace::FilePeek peek = trace::peekFile(input.path);
    std::string problem;
    if (analyzer::readRankSummaryFile(input.path, peek, input.rank, problem)) {
      input.kind = JobInput::Kind::kRankSummary;
    } else if (!problem.empty()) {
      printError(problem);
      input.kind = JobInput::Kind::kFailed;
    } else {
      input.rank = {};
      analyzer::setRankIdentity(peek.distributed, input.path, input.rank);
    }
  }
  return inputs;
}

JobInputResult summarizeRanks(const std::vector<JobInput>& inputs, const JobInputOptions& options) {
  std::vector<const JobInput*> traces;
  for (const JobInput& input : inputs)
    if (input.kind == JobInput::Kind::kTrace) traces.push_back(&input);
  const unsigned cores = trace::availableCores();
  unsigned workers = options.workers ? options.workers : std::min(cores, 4u);
  workers = std::max(1u, std::min<unsigned>(workers, static_cast<unsigned>(traces.size())));
  const int parse_threads = static_cast<int>(std::max(1u, cores / workers));
  std::vector<Slot> slots(traces.size());
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t i = next++; i < traces.size(); i = next++)
      importOne(traces[i]->path, options, parse_threads, slots[i]);
  };
  std::vector<std::thread> pool;
  for (unsigned w = 1; w < workers; ++w) pool.emplace_back(work);
  work();
  for (std::thread& t : pool) t.join();

  JobInputResult result;
  size_t slot = 0;
  for (const JobInput& input : inputs) {
    if (input.kind == JobInput::Kind::kFailed) {
      result.all_imported = false;
      continue;
    }
    if (input.kind == JobInput::Kind::kRankSummary) {
      result.ranks.push_back(input.rank);
      continue;
    }
    Slot& done = slots[slot++];
    if (!done.status.ok()) {
      if (input.expanded && isOtherJson(input.path, done.status)) {
        const std::string line = skippedOtherJson(input.path, done.status);
        printWarning(line);
        result.warnings.push_back(line);
      } else {
        printError(describeImportError(input.path, done.status));
        result.all_imported = false;
      }
      continue;
    }
    if (!options.unranked_alone || done.rank.rank >= 0)
      for (const std::string& w : done.warnings) {
        printWarning(w);
        result.warnings.push_back(w);
      }
    result.ranks.push_back(std::move(done.rank));
  }
  return result;
}

std::vector<JobInput> takeUnranked(const std::vector<JobInput>& inputs,
                                   std::vector<analyzer::RankSummary>& ranks,
                                   std::vector<std::string>& warnings) {
  std::map<std::string, std::string> unranked;  // source -> why it is no rank
  for (const analyzer::RankSummary& r : ranks)
    if (std::string why = analyzer::notARankReason(r); !why.empty()) unranked[r.source] = why;
  std::vector<JobInput> alone;
  std::set<std::string> taken;  // their paths: rank-summary files stay in `ranks`
  for (const JobInput& input : inputs) {
    if (input.kind != JobInput::Kind::kTrace || unranked.count(input.path) == 0) continue;
    alone.push_back(input);
    taken.insert(input.path);
    warnings.push_back(input.path + ": " + unranked[input.path] +
                       ": not a rank of the job, reported on its own");
  }
  ranks.erase(std::remove_if(ranks.begin(), ranks.end(),
                             [&](const analyzer::RankSummary& r) {
                               return !analyzer::notARankReason(r).empty() &&
                                      taken.count(r.source) > 0;
                             }),
              ranks.end());
  return alone;
}

std::optional<std::string> singleRunTrace(const TraceInputs& inputs) {
  if (!inputs.from_folder_or_glob || inputs.files.size() != 1) return std::nullopt;
  const std::vector<JobInput> one = classifyInputs(inputs.files, inputs.expanded);
  if (one.size() != 1 || one[0].kind != JobInput::Kind::kTrace ||
      analyzer::notARankReason(one[0].rank).empty())
    return std::nullopt;
  return one[0].path;
}

std::vector<analyzer::JobAnalysis> analyzeJobs(std::vector<analyzer::RankSummary> ranks,
                                               std::vector<std::string>& warnings) {
  std::vector<analyzer::JobAnalysis> out;
  for (const analyzer::Job& job : analyzer::groupJobs(std::move(ranks), warnings))
    out.push_back(analyzer::analyzeJob(job));
  return out;
}

std::string jobSource(const analyzer::JobAnalysis& job) {
  std::string folder;
  for (const analyzer::JobRank& r : job.ranks) {
    const size_t slash = r.source.find_last_of('/');
    const std::string dir = slash == std::string::npos ? "." : r.source.substr(0, slash);
    if (!folder.empty() && dir != folder) return "job " + job.identity;
    folder = dir;
  }
  return folder.empty() ? "job " + job.identity : folder;
}

bool looksLikeJob(const std::vector<JobInput>& inputs) {
  std::vector<analyzer::RankSummary> identities;
  for (const JobInput& input : inputs)
    if (input.kind != JobInput::Kind::kFailed) identities.push_back(input.rank);
  return looksLikeJob(identities);
}

}  // namespace steplint::cli
