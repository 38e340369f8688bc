#include "summary_command.h"

#include <cstdlib>
#include <iostream>
#include <set>
#include <sstream>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "exit_codes.h"
#include "job_inputs.h"
#include "messages.h"
#include "steplint/analyzer/job.h"
#include "steplint/analyzer/json_text.h"
#include "steplint/analyzer/rank_summary.h"
#include "steplint/analyzer/summary.h"
#include "steplint/trace/importer.h"
#include "steplint/trace/model.h"
#include "steplint/trace/output_file.h"
#include "terminal.h"
#include "trace_inputs.h"

namespace steplint::cli {
namespace {

ColorMode parseColorMode(const std::string& text) {
  if (text == "always") return ColorMode::kAlways;
  if (text == "never") return ColorMode::kNever;
  return ColorMode::kAuto;
}

/// The job report: one per job, text or one JSON document for all ("steplint.jobs/1").
void printJobs(std::ostream& out, const std::vector<analyzer::JobAnalysis>& jobs,
               const std::vector<std::string>& warnings, bool json, nlohmann::json* per_rank) {
  if (json) {
    nlohmann::json doc = {{"schema", "steplint.jobs/1"}, {"warnings", warnings}};
    doc["jobs"] = nlohmann::json::array();
    for (const analyzer::JobAnalysis& job : jobs) doc["jobs"].push_back(analyzer::jobToJson(job));
    if (per_rank) doc["traces"] = std::move(*per_rank);
    out << analyzer::jsonText(doc) << '\n';
    return;
  }
  for (const std::string& w : warnings) out << "warning: " << w << '\n';
  for (size_t i = 0; i < jobs.size(); ++i) {
    if (i > 0) out << '\n';
    analyzer::printJobText(out, jobs[i]);
  }
}

/// Each trace's own report: rendered here, and printed unless the traces turn out to be a job's
/// (then only with --per-rank, or for a trace that is no rank of the job).
struct PerTrace {
  std::vector<std::string> texts;                      // text: one per rendered trace
  nlohmann::json documents = nlohmann::json::array();  // JSON: one per rendered trace
  std::vector<std::string> sources;                    // each rendered trace's path
  std::vector<analyzer::RankSummary> ranks;  // for the job report, when they turn out to be one
  bool any_failed = false;

  /// The rendered traces in `only` (all with nullptr), in argument order: the text reports one
  /// after the other, blank-line separated, or the JSON documents.
  std::string text(const std::set<std::string>* only = nullptr) const {
    std::string out;
    for (size_t i = 0; i < texts.size(); ++i)
      if (!only || only->count(sources[i])) out += (out.empty() ? "" : "\n") + texts[i];
    return out;
  }
  nlohmann::json jsonDocuments(const std::set<std::string>& only) const {
    nlohmann::json out = nlohmann::json::array();
    for (size_t i = 0; i < documents.size(); ++i)
      if (only.count(sources[i])) out.push_back(documents[i]);
    return out;
  }
};

/// Imports and summarizes each trace input once, one at a time; rank-summary inputs only join
/// `out.ranks`. `keep_ranks`: the traces may be a job's (several, or a folder).
void summarizeEach(const std::vector<JobInput>& inputs, const analyzer::SummaryOptions& options,
                   bool json, bool color, bool keep_ranks, PerTrace& out) {
  for (const JobInput& input : inputs) {
    if (input.kind == JobInput::Kind::kFailed) {
      out.any_failed = true;
      continue;
    }
    if (input.kind ==
        JobInput::Kind::kRankSummary) {  // a rank reduced elsewhere: only the job uses it
      out.ranks.push_back(input.rank);
      continue;
    }
    trace::TraceModel model;  // one trace in memory at a time
    bool skipped = false;
    if (!importTraceReporting(input.path, model, nullptr, input.expanded ? &skipped : nullptr)) {
      out.any_failed = out.any_failed || !skipped;
      continue;
    }
    analyzer::TraceSummary summary = analyzer::summarize(model, options);
    if (summary.source.empty()) summary.source = input.path;
    if (json) {
      out.documents.push_back(summaryDocument(summary, model));
    } else {
      std::ostringstream text;
      analyzer::printSummaryText(text, summary, model, color);
      out.texts.push_back(text.str());
    }
    out.sources.push_back(input.path);
    if (keep_ranks) out.ranks.push_back(analyzer::summarizeRank(model, summary));
  }
}

}  // namespace

nlohmann::json summaryDocument(const analyzer::TraceSummary& summary,
                               const trace::TraceModel& model) {
  // The rank summary rides along, so a job report can later be built from these files.
  nlohmann::json doc = analyzer::summaryToJson(summary, model);
  doc["rank_summary"] = analyzer::rankSummaryToJson(analyzer::summarizeRank(model, summary));
  return doc;
}

void SummaryCommand::addOptions(CLI::App& app) {
  app.add_option(
         "TRACE", traces_,
         "Trace files, folders of traces or quoted globs: torch.profiler / Kineto JSON, plain or .gz")
      ->required()
      ->type_name("PATH");
  app.add_option(
         "--format", format_,
         "Output format; json: schema steplint.summary/1, or steplint.jobs/1 for a job (docs/cli.md)")
      ->check(CLI::IsMember({"text", "json"}))
      ->capture_default_str();
  step_flags_.add(app);
  app.add_option("--color", color_, "Colour the text output")
      ->check(CLI::IsMember({"auto", "always", "never"}))
      ->capture_default_str();
  app.add_option("-o,--output", output_path_,
                 "Write the summary to FILE instead of standard output")
      ->type_name("FILE");
  app.add_flag("--per-rank", per_rank_,
               "For a job's traces: each trace's summary too, before the job report");
  app.add_option("--jobs", workers_,
                 "Traces imported at once for a job (default: cores, at most 4)")
      ->check(CLI::Range(1u, 64u));
}

int SummaryCommand::run() {
  const bool json = format_ == "json";
  const bool to_file = !output_path_.empty();
  const bool color = !json && shouldUseColor(parseColorMode(color_), !to_file && stdoutIsTerminal(),
                                             std::getenv("NO_COLOR"), std::getenv("TERM"));
  const TraceInputs inputs = expandTraceInputs(traces_);
  for (const std::string& problem : inputs.problems) printError(problem);
  for (const std::string& skipped : inputs.skipped) printWarning(skipped);

  // Before any import: `-o t.json t.json` would replace the trace with its own summary.
  if (to_file) {
    if (std::string problem = trace::checkOutputPath(output_path_, inputs.files);
        !problem.empty()) {
      printError(output_path_ + ": " + problem);
      return kExitUsageError;
    }
  }

  // -o output is collected first so that a run whose inputs all fail leaves no file behind.
  std::ostringstream buffer;
  std::ostream& out = to_file ? static_cast<std::ostream&>(buffer) : std::cout;

  analyzer::SummaryOptions options;
  options.steps = step_flags_.options();

  bool any_failed = !inputs.problems.empty();
  std::vector<analyzer::RankSummary> ranks;
  const std::vector<JobInput> classified = classifyInputs(inputs.files, inputs.expanded);
  // A folder or glob of a job's ranks without --per-rank: import several ranks at once and keep
  // only their summaries. Explicit files, and a folder that is no job, get one report per trace.
  const bool job_first = inputs.from_folder_or_glob && !per_rank_ && looksLikeJob(classified);
  if (job_first) {
    JobInputOptions job_options;
    job_options.summary = options;
    job_options.workers = workers_;
    job_options.unranked_alone = true;
    JobInputResult result = summarizeRanks(classified, job_options);
    any_failed = any_failed || !result.all_imported;
    ranks = std::move(result.ranks);
  }
  // The first bytes said "job" but the imported traces do not (their distributedInfo follows
  // their events, which Kineto never writes): then each trace is read once more, one by one.
  PerTrace each;
  if (!job_first || !looksLikeJob(ranks)) {
    summarizeEach(classified, options, json, color,
                  inputs.files.size() > 1 || inputs.from_folder_or_glob, each);
    any_failed = any_failed || each.any_failed;
    ranks = std::move(each.ranks);
  }
  size_t rendered = each.sources.size();

  if (looksLikeJob(ranks)) {
    // A trace that names no rank is no part of the job: it gets its own summary after the
    // job's (a folder's is imported once more here; the others were rendered above).
    std::vector<std::string> warnings;
    const std::vector<JobInput> alone = takeUnranked(classified, ranks, warnings);
    if (job_first) {
      summarizeEach(alone, options, json, color, false, each);
      any_failed = any_failed || each.any_failed;
    }
    std::set<std::string> alone_paths;
    for (const JobInput& input : alone) alone_paths.insert(input.path);
    const std::vector<analyzer::JobAnalysis> jobs = analyzeJobs(std::move(ranks), warnings);
    if (per_rank_ && !json) out << each.text() << '\n';
    nlohmann::json alone_documents = each.jsonDocuments(alone_paths);
    nlohmann::json* traces = per_rank_              ? &each.documents
                             : !alone_paths.empty() ? &alone_documents
                                                    : nullptr;
    printJobs(out, jobs, warnings, json, traces);
    if (!per_rank_ && !json && !alone_paths.empty()) out << '\n' << each.text(&alone_paths);
    ++rendered;
  } else {
    out << each.text();
    // JSON: one TRACE argument gives one summary object; several give an array of the
    // summaries that could be imported, in argument order (docs/cli.md).
    const bool several = inputs.files.size() > 1 || inputs.from_folder_or_glob;
    if (json && !several && !each.documents.empty())
      out << analyzer::jsonText(each.documents.front()) << '\n';
    if (json && several) out << analyzer::jsonText(each.documents) << '\n';
  }
  out.flush();

  if (to_file && (rendered > 0 || (json && inputs.files.size() > 1))) {
    if (std::string problem = trace::writeOutputFile(output_path_, buffer.str());
        !problem.empty()) {
      printError(output_path_ + ": " + problem);
      return kExitUsageError;
    }
  }
  if (!to_file) {
    std::cout.flush();
    if (!std::cout) {
      printError("writing to standard output failed");
      return kExitUsageError;
    }
  }
  return any_failed ? kExitUsageError : kExitOk;
}

}  // namespace steplint::cli
