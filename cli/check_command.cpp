#include "check_command.h"

#include <CLI/CLI.hpp>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <sstream>

#include "check_config.h"
#include "exit_codes.h"
#include "job_inputs.h"
#include "messages.h"
#include "rule_docs.h"
#include "steplint/analyzer/lint.h"
#include "steplint/rules/builtin.h"
#include "steplint/rules/job_rules.h"
#include "steplint/trace/importer.h"
#include "steplint/trace/output_file.h"
#include "terminal.h"
#include "trace_inputs.h"

namespace steplint::cli {
namespace {

namespace fs = std::filesystem;

std::string currentDir() {
  std::error_code ec;
  const fs::path cwd = fs::current_path(ec);
  return ec ? std::string(".") : cwd.string();
}


void printNote(const std::string& message) { std::cerr << "steplint: note: " << message << '\n'; }

}  // namespace

CheckCommand::CheckCommand() {
  rules::registerBuiltinRules(rules_);
  rules::registerJobRules(job_rules_);
  analyzer::registerBuiltinEmitters(emitters_);
}

void CheckCommand::addOptions(CLI::App& app) {
  app.add_option("TRACE", traces_,
                 "Trace files, folders of traces or quoted globs: torch.profiler / Kineto JSON, plain or .gz")
      ->required()
      ->type_name("PATH");
  addReportOptions(app, true);
  app.add_flag("--per-rank", per_rank_, "For a job's traces: each trace's findings too, besides the job's");
  app.add_option("--jobs", workers_, "Traces imported at once for a job (default: cores, at most 4)")
      ->check(CLI::Range(1u, 64u));
}

void CheckCommand::addReportOptions(CLI::App& app, bool with_output) {
  app.add_option("--format", format_, "Output format (docs/cli.md)")
      ->check(CLI::IsMember(emitters_.names()))
      ->capture_default_str();
  if (with_output)
    app.add_option("-o,--output", output_path_, "Write the report to FILE instead of standard output")
        ->type_name("FILE");
  CLI::Option* config =
      app.add_option("--config", config_path_, "Use this steplint.toml or pyproject.toml")
          ->type_name("FILE");
  app.add_flag("--no-config", no_config_, "Ignore steplint.toml / pyproject.toml files")
      ->excludes(config);
  // One value per occurrence (split at commas): without allow_extra_args(false) CLI11 would let
  // `--select SL1 trace.json` swallow the trace as a second selector.
  select_option_ =
      app.add_option("--select", select_,
                     "Rules to run instead of the configured ones: codes, names, prefixes or ALL")
          ->delimiter(',')
          ->allow_extra_args(false)
          ->type_name("RULE,...");
  app.add_option("--extend-select", extend_select_, "Rules to run in addition")
      ->delimiter(',')
      ->allow_extra_args(false)
      ->type_name("RULE,...");
  app.add_option("--ignore", ignore_, "Rules not to run")
      ->delimiter(',')
      ->allow_extra_args(false)
      ->type_name("RULE,...");
  app.add_option("--fail-on", fail_on_,
                 "Lowest severity that makes the exit code 1 (default: warning)")
      ->check(CLI::IsMember({"note", "warning", "error"}));
  app.add_option("--baseline", baseline_path_,
                 "Report only findings whose fingerprint is not in FILE")
      ->type_name("FILE");
  app.add_option("--write-baseline", write_baseline_path_,
                 "Write every finding's fingerprint to FILE (accepting them) and exit 0")
      ->type_name("FILE");
  step_flags_.add(app);
  app.add_option("--color", color_, "Colour the text output")
      ->check(CLI::IsMember({"auto", "always", "never"}))
      ->capture_default_str();
}

bool CheckCommand::resolveConfig(analyzer::LintConfig& config) const {
  const std::string cwd = currentDir();
  const std::string trace_dir = fs::path(traces_.front()).parent_path().string();
  std::vector<analyzer::ConfigError> errors;
  if (auto file =
          chooseConfigFile(config_path_, no_config_, trace_dir.empty() ? "." : trace_dir, cwd))
    errors = analyzer::loadLintConfig(*file, rules_, config);
  CliLintOverrides flags;
  if (select_option_->count() > 0) flags.select = select_;
  flags.extend_select = extend_select_;
  flags.ignore = ignore_;
  if (!fail_on_.empty()) flags.fail_on = fail_on_;
  for (analyzer::ConfigError& e : applyCliOverrides(flags, rules_, config))
    errors.push_back(std::move(e));
  for (const analyzer::ConfigError& e : errors) printError(describeConfigError(e, cwd));
  return errors.empty();
}

bool CheckCommand::lintTraces(const analyzer::LintConfig& config,
                              const analyzer::Baseline& baseline, analyzer::LintReport& report,
                              std::vector<analyzer::LintResult>& unfiltered) const {
  analyzer::SummaryOptions options;
  options.steps = step_flags_.options();
  bool all_ok = true;
  for (const std::string& path : traces_) {
    trace::TraceModel model;  // one trace in memory at a time
    analyzer::RankSummary from_file;
    const InputRead read = importTraceOrRankSummary(path, model, from_file);
    if (read == InputRead::kFailed) {
      all_ok = false;
      continue;
    }
    if (read == InputRead::kRankSummary) {  // a rank reduced elsewhere: only the job rules use it
      ranks_.push_back(std::move(from_file));
      continue;
    }
    analyzer::TraceReport entry;
    entry.summary = analyzer::summarize(model, options);
    entry.summary.source = path;
    entry.lint = analyzer::runLint(model, entry.summary, rules_, config);
    entry.lint.source = path;
    if (traces_.size() > 1) ranks_.push_back(analyzer::summarizeRank(model, entry.summary));
    if (!write_baseline_path_.empty()) unfiltered.push_back(entry.lint);
    entry.suppressed = analyzer::applyBaseline(baseline, entry.lint);
    report.traces.push_back(std::move(entry));
  }
  return all_ok;
}

bool CheckCommand::writeReport(const analyzer::LintReport& report) const {
  const bool to_file = !output_path_.empty();
  analyzer::EmitOptions options;
  options.base_dir = currentDir();
  options.color = format_ == "text" && shouldUseColor(color_ == "always"  ? ColorMode::kAlways
                                                      : color_ == "never" ? ColorMode::kNever
                                                                          : ColorMode::kAuto,
                                                      !to_file && stdoutIsTerminal(),
                                                      std::getenv("NO_COLOR"), std::getenv("TERM"));
  std::ostringstream buffer;
  emitters_.find(format_)->emit(report, options,
                                to_file ? static_cast<std::ostream&>(buffer) : std::cout);
  if (!to_file) {
    std::cout.flush();
    if (std::cout) return true;
    printError("writing to standard output failed");
    return false;
  }
  const std::string problem = trace::writeOutputFile(output_path_, buffer.str());
  if (problem.empty()) return true;
  printError(output_path_ + ": " + problem);
  return false;
}

bool CheckCommand::checkOutputs() const {
  // Checked before any trace is read: refusing after minutes of analysis helps nobody, and
  // writing the report over its own trace (`-o t.json t.json`) would destroy the input.
  std::vector<std::string> inputs = traces_;
  if (!config_path_.empty()) inputs.push_back(config_path_);
  // --write-baseline may name the --baseline file: that is how a baseline is updated.
  std::vector<std::string> report_inputs = inputs;
  if (!baseline_path_.empty()) report_inputs.push_back(baseline_path_);
  for (const std::string* output : {&output_path_, &write_baseline_path_}) {
    if (output->empty()) continue;
    const std::vector<std::string>& guarded = output == &output_path_ ? report_inputs : inputs;
    if (std::string problem = trace::checkOutputPath(*output, guarded); !problem.empty()) {
      printError(*output + ": " + problem);
      return false;
    }
  }
  return true;
}

bool CheckCommand::lintJobs(const analyzer::Baseline& baseline, analyzer::LintReport& report,
                            std::vector<analyzer::LintResult>& unfiltered) {
  bool all_ok = true;
  if (from_folder_or_glob_ && !per_rank_) {
    // The job alone: import several ranks at once, keep only their summaries.
    JobInputOptions options;
    options.summary.steps = step_flags_.options();
    options.workers = workers_;
    JobInputResult result = summarizeRanks(traces_, options);
    all_ok = result.all_imported;
    ranks_ = std::move(result.ranks);
  }
  if (!looksLikeJob(ranks_)) return all_ok;
  if (!per_rank_) report.traces.clear();  // the job's findings replace the ranks' own
  std::vector<std::string> warnings;
  for (const analyzer::JobAnalysis& job : analyzeJobs(std::move(ranks_), warnings)) {
    for (const std::string& w : job.warnings) printWarning(w);
    analyzer::TraceReport entry;
    entry.summary.source = jobSource(job);
    const analyzer::JobLintResult lint = analyzer::lintJob(job, job_rules_);
    entry.lint.source = entry.summary.source;
    entry.lint.diagnostics = lint.diagnostics;
    entry.lint.not_checked = lint.not_checked;
    entry.lint.average_step_ms = job.median_step_ns / 1e6;
    if (!write_baseline_path_.empty()) unfiltered.push_back(entry.lint);
    entry.suppressed = analyzer::applyBaseline(baseline, entry.lint);
    report.traces.push_back(std::move(entry));
  }
  for (const std::string& w : warnings) printWarning(w);
  return all_ok;
}

int CheckCommand::runOn(std::vector<std::string> traces) {
  traces_ = std::move(traces);
  return run();
}

int CheckCommand::run() {
  if (!checkOutputs()) return kExitUsageError;
  analyzer::LintConfig config;
  if (!resolveConfig(config)) return kExitUsageError;
  analyzer::Baseline baseline;
  if (!baseline_path_.empty()) {
    if (std::string problem = analyzer::loadBaseline(baseline_path_, baseline); !problem.empty()) {
      printError(baseline_path_ + ": " + problem);
      return kExitUsageError;
    }
  }
  analyzer::LintReport report;
  for (analyzer::Rule* rule : config.selectedRules(rules_)) report.selected.push_back(rule);
  report.fail_on = config.fail_on;
  report.tool_version = STEPLINT_VERSION;
  report.rule_descriptions = ruleDescriptions(rules_);

  std::vector<analyzer::LintResult> unfiltered;
  const TraceInputs inputs = expandTraceInputs(traces_);
  for (const std::string& problem : inputs.problems) printError(problem);
  traces_ = inputs.files;
  from_folder_or_glob_ = inputs.from_folder_or_glob;
  ranks_.clear();
  // A folder or glob is a job: its traces are not linted one by one unless --per-rank asks.
  bool all_ok = inputs.problems.empty();
  if (!from_folder_or_glob_ || per_rank_) all_ok = lintTraces(config, baseline, report, unfiltered) && all_ok;
  all_ok = lintJobs(baseline, report, unfiltered) && all_ok;
  if (from_folder_or_glob_ && !per_rank_ && report.traces.empty() && !traces_.empty())
    all_ok = lintTraces(config, baseline, report, unfiltered) && all_ok;  // not a job after all
  if (report.traces.empty()) return kExitUsageError;  // nothing to report; errors already printed
  if (!writeReport(report)) return kExitUsageError;
  if (format_ != "text" && report.suppressedCount() > 0)
    printNote(std::to_string(report.suppressedCount()) + " finding(s) suppressed by the baseline " +
              baseline_path_);
  if (!write_baseline_path_.empty()) {
    if (std::string problem = analyzer::writeBaseline(write_baseline_path_, unfiltered);
        !problem.empty()) {
      printError(write_baseline_path_ + ": " + problem);
      return kExitUsageError;
    }
    size_t count = 0;
    for (const analyzer::LintResult& r : unfiltered) count += r.diagnostics.size();
    printNote("wrote " + std::to_string(count) + " finding(s) to the baseline " +
              write_baseline_path_);
    return all_ok ? kExitOk : kExitUsageError;
  }
  if (!all_ok) return kExitUsageError;
  return report.failingCount() > 0 ? kExitFindings : kExitOk;
}

}  // namespace steplint::cli
