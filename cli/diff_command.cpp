#include "diff_command.h"

#include <CLI/CLI.hpp>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "check_config.h"
#include "exit_codes.h"
#include "job_inputs.h"
#include "messages.h"
#include "steplint/analyzer/job_diff.h"
#include "steplint/analyzer/job_rule.h"
#include "steplint/analyzer/json_text.h"
#include "steplint/analyzer/lint.h"
#include "steplint/analyzer/summary.h"
#include "steplint/rules/builtin.h"
#include "steplint/rules/job_rules.h"
#include "steplint/trace/model.h"
#include "steplint/trace/output_file.h"
#include "trace_inputs.h"

namespace steplint::cli {

namespace fs = std::filesystem;

DiffCommand::DiffCommand() { rules::registerBuiltinRules(rules_); }

void DiffCommand::addOptions(CLI::App& app) {
  app.add_option(
         "BASE", base_path_,
         "The run to compare against (the baseline): a trace file, or a job's folder or quoted glob")
      ->required()
      ->type_name("PATH");
  app.add_option("NEW", new_path_,
                 "The run to compare: a trace file, or a job's folder or quoted glob")
      ->required()
      ->type_name("PATH");
  app.add_option("--format", format_,
                 "Output format; json: schema steplint.diff/1 (docs/diff-json.md)")
      ->check(CLI::IsMember({"text", "json", "markdown"}))
      ->capture_default_str();
  app.add_option("-o,--output", output_path_,
                 "Write the comparison to FILE instead of standard output")
      ->type_name("FILE");
  app.add_option("--top", top_, "Rows per op table in text and Markdown (0 = all; JSON has all)")
      ->capture_default_str();
  app.add_option("--finding-factor", finding_factor_,
                 "A finding is worse (better) when its size grew (shrank) by this factor")
      ->check(CLI::Range(1.0, 1000.0))
      ->capture_default_str();
  app.add_flag("--no-findings", no_findings_,
               "Do not run the rules (faster; no findings comparison)");
  CLI::Option* config = app.add_option("--config", config_path_,
                                       "Use this steplint.toml or pyproject.toml for the rules")
                            ->type_name("FILE");
  app.add_flag("--no-config", no_config_, "Ignore steplint.toml / pyproject.toml files")
      ->excludes(config);
  app.add_option("--jobs", workers_,
                 "For two jobs: traces imported at once (default: cores, at most 4)")
      ->check(CLI::Range(1u, 64u));
  step_flags_.add(app);
}

bool DiffCommand::loadConfig(analyzer::LintConfig& config) const {
  const std::string cwd = currentDir();
  const std::string dir = fs::path(new_path_).parent_path().string();
  std::vector<analyzer::ConfigError> errors;
  if (auto file = chooseConfigFile(config_path_, no_config_, dir.empty() ? "." : dir, cwd))
    errors = analyzer::loadLintConfig(*file, rules_, config);
  for (const analyzer::ConfigError& e : errors) printError(describeConfigError(e, cwd));
  return errors.empty();
}

std::optional<analyzer::RunProfile> DiffCommand::profile(const std::string& path,
                                                         const analyzer::LintConfig* config) const {
  trace::TraceModel model;
  if (!importTraceReporting(path, model)) return std::nullopt;
  analyzer::SummaryOptions options;
  options.steps = step_flags_.options();
  analyzer::TraceSummary summary = analyzer::summarize(model, options);
  summary.source = path;
  if (!config) return analyzer::profileRun(model, summary, nullptr);
  analyzer::LintResult lint = analyzer::runLint(model, summary, rules_, *config);
  return analyzer::profileRun(model, summary, &lint);
}

bool DiffCommand::write(const std::function<void(std::ostream&)>& render) const {
  const bool to_file = !output_path_.empty();
  std::ostringstream buffer;
  std::ostream& out = to_file ? static_cast<std::ostream&>(buffer) : std::cout;
  render(out);
  if (!to_file) {
    std::cout.flush();
    if (std::cout) return true;
    printError("writing to standard output failed");
    return false;
  }
  if (std::string problem = trace::writeOutputFile(output_path_, buffer.str()); !problem.empty()) {
    printError(output_path_ + ": " + problem);
    return false;
  }
  return true;
}

std::optional<analyzer::JobAnalysis> DiffCommand::readJob(const std::string& path,
                                                          bool& all_read) const {
  const TraceInputs inputs = expandTraceInputs({path});
  for (const std::string& problem : inputs.problems) printError(problem);
  for (const std::string& skipped : inputs.skipped) printWarning(skipped);
  JobInputOptions options;
  options.summary.steps = step_flags_.options();
  options.workers = workers_;
  JobInputResult result = summarizeRanks(classifyInputs(inputs.files), options);
  const bool read_whole = result.all_imported && inputs.problems.empty();
  all_read = all_read && read_whole;
  std::vector<std::string> warnings;
  std::vector<analyzer::JobAnalysis> jobs = analyzeJobs(std::move(result.ranks), warnings);
  if (jobs.empty()) {
    // An input that could not be read ("is a character device") already said why: one error
    // per cause.
    if (read_whole) printError(path + ": no rank of a job could be read");
    return std::nullopt;
  }
  if (jobs.size() > 1)
    printWarning(path + ": holds " + std::to_string(jobs.size()) + " jobs; compared the first (" +
                 jobs[0].identity + ")");
  for (const std::string& w : jobs[0].warnings) printWarning(path + ": " + w);
  return std::move(jobs[0]);
}

int DiffCommand::runJobs() {
  analyzer::LintConfig config;
  if (!no_findings_ && !loadConfig(config)) return kExitUsageError;
  bool all_read = true;
  const std::optional<analyzer::JobAnalysis> base = readJob(base_path_, all_read);
  const std::optional<analyzer::JobAnalysis> next = readJob(new_path_, all_read);
  if (!base || !next) return kExitUsageError;
  analyzer::JobDiff diff = analyzer::diffJobs(*base, *next);
  if (!no_findings_) {  // the job rules (SL7xx) on both, as `check DIR` runs them
    analyzer::JobRuleRegistry job_rules;
    rules::registerJobRules(job_rules);
    analyzer::DiffOptions options;
    options.finding_factor = finding_factor_;
    analyzer::compareJobFindings(diff, analyzer::lintJob(*base, job_rules, config).diagnostics,
                                 analyzer::lintJob(*next, job_rules, config).diagnostics, options);
  }
  diff.base_source = base_path_;
  diff.new_source = new_path_;
  const bool written = write([&](std::ostream& out) {
    if (format_ == "json")
      out << analyzer::jsonText(analyzer::jobDiffToJson(diff)) << '\n';
    else if (format_ == "markdown")
      analyzer::printJobDiffMarkdown(out, diff, top_);
    else
      analyzer::printJobDiffText(out, diff, top_);
  });
  return written && all_read ? kExitOk : kExitUsageError;
}

// Folders or globs on either side name two runs of a distributed job, compared rank by rank;
// but a single-process run's folder (tensorboard_trace_handler's log folder) holds its one
// trace, and two runs are compared. True when the job diff is meant.
bool DiffCommand::resolveSides() {
  const TraceInputs base = expandTraceInputs({base_path_}), next = expandTraceInputs({new_path_});
  if (!base.from_folder_or_glob && !next.from_folder_or_glob) return false;
  const std::optional<std::string> base_trace =
      base.from_folder_or_glob ? singleRunTrace(base) : base_path_;
  const std::optional<std::string> new_trace =
      next.from_folder_or_glob ? singleRunTrace(next) : new_path_;
  if (!base_trace || !new_trace) return true;
  printNote("one single-process run on each side: comparing " + *base_trace + " with " +
            *new_trace);
  base_path_ = *base_trace;
  new_path_ = *new_trace;
  return false;
}

int DiffCommand::run() {
  const bool jobs = resolveSides();
  // Before any import: `-o new.json base.json new.json` would replace a trace with the diff.
  if (!output_path_.empty()) {
    std::vector<std::string> inputs = withExpandedInputs({base_path_, new_path_}, output_path_);
    if (!config_path_.empty()) inputs.push_back(config_path_);
    if (std::string problem = trace::checkOutputPath(output_path_, inputs); !problem.empty()) {
      printError(output_path_ + ": " + problem);
      return kExitUsageError;
    }
  }
  if (jobs) return runJobs();
  analyzer::LintConfig config;
  if (!no_findings_ && !loadConfig(config)) return kExitUsageError;
  const analyzer::LintConfig* lint = no_findings_ ? nullptr : &config;
  std::optional<analyzer::RunProfile> base = profile(base_path_, lint);
  std::optional<analyzer::RunProfile> next = profile(new_path_, lint);
  if (!base || !next) return kExitUsageError;  // the import error is printed already
  analyzer::DiffOptions options;
  options.finding_factor = finding_factor_;
  const analyzer::RunDiff diff = analyzer::diffRuns(*base, *next, options);
  const bool written = write([&](std::ostream& out) {
    if (format_ == "json")
      out << analyzer::jsonText(analyzer::runDiffToJson(diff)) << '\n';
    else if (format_ == "markdown")
      analyzer::printRunDiffMarkdown(out, diff, top_);
    else
      analyzer::printRunDiffText(out, diff, top_);
  });
  return written ? kExitOk : kExitUsageError;
}

}  // namespace steplint::cli
