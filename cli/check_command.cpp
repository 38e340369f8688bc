#include "check_command.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <set>
#include <sstream>

#include "check_config.h"
#include "exit_codes.h"
#include "job_inputs.h"
#include "messages.h"
#include "rule_docs.h"
#include "steplint/analyzer/compare_config.h"
#include "steplint/analyzer/lint.h"
#include "steplint/analyzer/regression.h"
#include "steplint/rules/builtin.h"
#include "steplint/rules/job_rules.h"
#include "steplint/trace/importer.h"
#include "steplint/trace/output_file.h"
#include "terminal.h"
#include "trace_inputs.h"

namespace steplint::cli {

namespace fs = std::filesystem;

CheckCommand::CheckCommand() {
  rules::registerBuiltinRules(rules_);
  rules::registerJobRules(job_rules_);
  analyzer::registerBuiltinEmitters(emitters_);
}

void CheckCommand::addOptions(CLI::App& app) {
  app.add_option(
         "TRACE", traces_,
         "Trace files, folders of traces or quoted globs: torch.profiler / Kineto JSON, plain or .gz")
      ->required()
      ->type_name("PATH");
  addReportOptions(app, true);
  app.add_flag("--per-rank", per_rank_,
               "For a job's traces: each trace's findings too, besides the job's");
  app.add_option("--jobs", workers_,
                 "Traces imported at once for a job (default: cores, at most 4)")
      ->check(CLI::Range(1u, 64u));
}

void CheckCommand::addReportOptions(CLI::App& app, bool with_output) {
  app.add_option("--format", format_, "Output format (docs/cli.md)")
      ->check(CLI::IsMember(emitters_.names()))
      ->capture_default_str();
  if (with_output)
    app.add_option("-o,--output", output_path_,
                   "Write the report to FILE instead of standard output")
        ->type_name("FILE");
  else
    app.add_option("--report-output", output_path_,
                   "Write the report to FILE instead of standard output (where the trainer "
                   "writes too)")
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
  app.add_option("--baseline-scope", baseline_scope_,
                 "What a baseline entry is tied to: the trace's file-name pattern and rank (file), "
                 "its rank, or nothing (none); default file")
      ->check(CLI::IsMember({"file", "rank", "none"}));
  app.add_option(
         "--worse-factor", worse_factor_,
         "Report an accepted finding again when it grew by more than this factor (default 2)")
      ->check(CLI::Range(1.0, 1000.0));
  app.add_option("--compare", compare_paths_,
                 "Gate on step time against this base run: a trace, or a job's folder or glob; "
                 "repeat it for several recordings of the base (docs/cli.md \"Regression gate\")")
      ->allow_extra_args(false)
      ->type_name("BASE");
  app.add_option(
         "--max-regression", max_regression_,
         "With --compare: the growth allowed, e.g. 5% (step time) or kernel=10% (a category); "
         "default 5%")
      ->delimiter(',')
      ->allow_extra_args(false)
      ->type_name("LIMIT,...");
  step_flags_.add(app);
  app.add_option("--color", color_, "Colour the text output")
      ->check(CLI::IsMember({"auto", "always", "never"}))
      ->capture_default_str();
}

bool CheckCommand::resolveConfig(analyzer::LintConfig& config, analyzer::GateOptions& gate,
                                 analyzer::BaselineOptions& baseline) const {
  const std::string cwd = currentDir();
  // A job's folder is searched itself: its steplint.toml applies to its traces.
  const fs::path first(traces_.front());
  std::error_code ec;
  const std::string trace_dir =
      (fs::is_directory(first, ec) ? first : first.parent_path()).string();
  std::vector<analyzer::ConfigError> errors;
  if (auto file =
          chooseConfigFile(config_path_, no_config_, trace_dir.empty() ? "." : trace_dir, cwd)) {
    errors = analyzer::loadLintConfig(*file, rules_, config);
    if (errors.empty()) errors = analyzer::loadCompareConfig(*file, gate, baseline);
  }
  if (!baseline_scope_.empty())
    analyzer::parseBaselineScope(baseline_scope_, baseline.scope);  // CLI11 checked it
  if (worse_factor_ > 0) baseline.worse_factor = worse_factor_;
  if (!max_regression_.empty()) gate.limits.clear();  // flags replace the file's limits
  for (const std::string& text : max_regression_) {
    analyzer::RegressionLimit limit;
    if (std::string problem = analyzer::parseRegressionLimit(text, limit); !problem.empty()) {
      errors.push_back({"", "--max-regression", "'" + text + "': " + problem});
      continue;
    }
    // One limit per key (step or category), the strictest: "5%,3%" gave two SL801 findings
    // with one fingerprint.
    const auto same = std::find_if(
        gate.limits.begin(), gate.limits.end(),
        [&](const analyzer::RegressionLimit& l) { return l.category == limit.category; });
    if (same == gate.limits.end())
      gate.limits.push_back(limit);
    else
      same->max_fraction = std::min(same->max_fraction, limit.max_fraction);
  }
  if (gate.limits.empty()) gate.limits.push_back({});  // the documented default: step time +5%
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

namespace {

// What the gate put into a rank's lint result: its SL801 findings and "cannot decide" entries.
void keepGateResultsOnly(analyzer::LintResult& lint) {
  const auto not_gate = [](const auto& item) { return item.code != analyzer::kRegressionCode; };
  lint.diagnostics.erase(std::remove_if(lint.diagnostics.begin(), lint.diagnostics.end(), not_gate),
                         lint.diagnostics.end());
  lint.not_checked.erase(std::remove_if(lint.not_checked.begin(), lint.not_checked.end(), not_gate),
                         lint.not_checked.end());
  lint.saving_all = {};
}

}  // namespace

bool CheckCommand::lintTraces(const std::vector<JobInput>& inputs,
                              const analyzer::LintConfig& config,
                              const analyzer::Baseline& baseline,
                              const analyzer::BaselineOptions& baseline_options,
                              const analyzer::GateOptions& gate, GateBase* base,
                              analyzer::LintReport& report, std::vector<Unfiltered>& unfiltered,
                              size_t& worse) const {
  analyzer::SummaryOptions options;
  options.steps = step_flags_.options();
  bool all_ok = true;
  for (const JobInput& input : inputs) {
    if (input.kind == JobInput::Kind::kFailed) {  // said when the inputs were sorted
      all_ok = false;
      continue;
    }
    if (input.kind ==
        JobInput::Kind::kRankSummary) {  // a rank reduced elsewhere: only the job rules use it
      ranks_.push_back(input.rank);
      continue;
    }
    const std::string& path = input.path;
    trace::TraceModel model;  // one trace in memory at a time
    bool skipped = false;
    if (!importTraceReporting(path, model, &warnings_, input.expanded ? &skipped : nullptr)) {
      all_ok = all_ok && skipped;
      continue;
    }
    analyzer::TraceReport entry;
    entry.summary = analyzer::summarize(model, options);
    entry.summary.source = path;
    entry.lint = analyzer::runLint(model, entry.summary, rules_, config);
    entry.lint.source = path;
    if (!job_first_ && inputs_.size() > 1)
      ranks_.push_back(analyzer::summarizeRank(model, entry.summary));
    const std::string scope = analyzer::traceScope(path, model.metadata, baseline_options.scope);
    if (!write_baseline_path_.empty()) unfiltered.push_back({entry.lint, scope});
    const analyzer::BaselineOutcome outcome =
        analyzer::applyBaseline(baseline, entry.lint, scope, baseline_options.worse_factor);
    entry.suppressed = outcome.suppressed;
    worse += outcome.worse;
    // After the baseline, and after --write-baseline took its copy: accepting a regression
    // would hide the next one.
    if (base) gateTrace(model, gate, *base, entry, all_ok);
    report.traces.push_back(std::move(entry));
  }
  return all_ok;
}

void CheckCommand::warn(std::string text) const {
  printWarning(text);
  warnings_.push_back(std::move(text));
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
  for (const std::string* output : {&output_path_, &write_baseline_path_}) {
    if (output->empty()) continue;
    std::vector<std::string> guarded = withExpandedInputs(traces_, *output);
    if (!config_path_.empty()) guarded.push_back(config_path_);
    const std::vector<std::string> bases = withExpandedInputs(compare_paths_, *output);
    guarded.insert(guarded.end(), bases.begin(), bases.end());
    // --write-baseline may name the --baseline file: that is how a baseline is updated.
    if (output == &output_path_ && !baseline_path_.empty()) guarded.push_back(baseline_path_);
    if (std::string problem = trace::checkOutputPath(*output, guarded); !problem.empty()) {
      printError(*output + ": " + problem);
      return false;
    }
  }
  return true;
}

bool CheckCommand::lintJobs(const analyzer::LintConfig& config, const analyzer::Baseline& baseline,
                            const analyzer::BaselineOptions& baseline_options,
                            analyzer::LintReport& report, std::vector<Unfiltered>& unfiltered,
                            size_t& worse, std::vector<JobInput>& alone) {
  bool all_ok = true;
  if (job_first_) {
    // The job alone: import several ranks at once, keep only their summaries.
    JobInputOptions options;
    options.summary.steps = step_flags_.options();
    options.workers = workers_;
    options.unranked_alone = true;
    JobInputResult result = summarizeRanks(inputs_, options);
    all_ok = result.all_imported;
    ranks_ = std::move(result.ranks);
    warnings_.insert(warnings_.end(), result.warnings.begin(), result.warnings.end());
  }
  if (!looksLikeJob(ranks_)) return all_ok;
  // A trace that names no rank is no part of the job: it keeps its own findings.
  std::vector<std::string> warnings;
  alone = takeUnranked(inputs_, ranks_, warnings);
  if (!per_rank_) {     // the job's findings replace the ranks' own; say so, so none is taken for
                        // absent
    if (alone.empty())  // the gate still compares each rank with the base
      report.selected.erase(std::remove_if(report.selected.begin(), report.selected.end(),
                                           [](const analyzer::RuleInfo& info) {
                                             return info.code != analyzer::kRegressionCode;
                                           }),
                            report.selected.end());
    printNote(
        "a job's report runs the job rules only; --per-rank also reports each rank's own findings");
  }
  for (const auto& rule : job_rules_.rules())
    if (config.selects(rule->info())) report.selected.push_back(rule->info());
  const std::vector<analyzer::JobAnalysis> jobs = analyzeJobs(std::move(ranks_), warnings);
  // The traces that keep their own findings: those that are no rank, and with --per-rank the
  // job's ranks. A second file of a rank the job already has (groupJobs kept the first) is
  // neither: its findings, not scoped by the job's waits, would count in the totals.
  std::set<std::string> kept;
  for (const JobInput& input : alone) kept.insert(input.path);
  if (per_rank_)
    for (const analyzer::JobAnalysis& job : jobs)
      for (const analyzer::JobRank& r : job.ranks) kept.insert(r.source);
  // A rank's regression against --compare stays, alone, where its own findings go.
  for (analyzer::TraceReport& t : report.traces) {
    if (kept.count(t.lint.source) == 0) keepGateResultsOnly(t.lint);
  }
  report.traces.erase(std::remove_if(report.traces.begin(), report.traces.end(),
                                     [&](const analyzer::TraceReport& t) {
                                       return kept.count(t.lint.source) == 0 &&
                                              t.lint.diagnostics.empty() &&
                                              t.lint.not_checked.empty();
                                     }),
                      report.traces.end());
  for (const analyzer::JobAnalysis& job : jobs) {
    for (const std::string& w : job.warnings) warn(w);
    for (analyzer::TraceReport& rank : report.traces) rules::scopeRankFindings(job, rank.lint);
    analyzer::TraceReport entry;
    entry.summary.source = jobSource(job);
    const analyzer::JobLintResult lint = analyzer::lintJob(job, job_rules_, config);
    entry.lint.source = entry.summary.source;
    entry.lint.diagnostics = lint.diagnostics;
    entry.lint.not_checked = lint.not_checked;
    entry.lint.saving_all = lint.saving_all;
    entry.lint.average_step_ms = job.median_step_ns / 1e6;
    // A job's findings are scoped by the job's name (its folder), like a trace's by its file.
    const std::string scope =
        analyzer::traceScope(entry.lint.source, trace::TraceMetadata{}, baseline_options.scope);
    if (!write_baseline_path_.empty()) unfiltered.push_back({entry.lint, scope});
    const analyzer::BaselineOutcome outcome =
        analyzer::applyBaseline(baseline, entry.lint, scope, baseline_options.worse_factor);
    entry.suppressed = outcome.suppressed;
    worse += outcome.worse;
    report.traces.push_back(std::move(entry));
  }
  for (const std::string& w : warnings) warn(w);
  return all_ok;
}

bool CheckCommand::resolveOptions(analyzer::LintConfig& config, analyzer::GateOptions& gate,
                                  analyzer::BaselineOptions& baseline_options,
                                  analyzer::Baseline& baseline) const {
  if (!checkOutputs() || !resolveConfig(config, gate, baseline_options)) return false;
  if (!max_regression_.empty() && compare_paths_.empty()) {
    printError("--max-regression needs --compare BASE: the run to compare against");
    return false;
  }
  if (baseline_path_.empty()) return true;
  if (std::string problem = analyzer::loadBaseline(baseline_path_, baseline); !problem.empty()) {
    printError(baseline_path_ + ": " + problem);
    return false;
  }
  return true;
}

bool CheckCommand::checkBeforeRun(const std::string& trace) {
  traces_ = {trace};
  analyzer::LintConfig config;
  analyzer::GateOptions gate;
  analyzer::BaselineOptions baseline_options;
  analyzer::Baseline baseline;
  if (!resolveOptions(config, gate, baseline_options, baseline)) return false;
  std::error_code ec;
  // A trace, or a job's folder or quoted glob (gate_base.h); a glob is checked when expanded.
  for (const std::string& base : compare_paths_) {
    if (fs::is_regular_file(base, ec) || fs::is_directory(base, ec) ||
        expandTraceInputs({base}).from_folder_or_glob)
      continue;
    printError("--compare " + base + ": " +
               (fs::exists(base, ec) ? "not a trace file" : "no such file"));
    return false;
  }
  return true;
}

int CheckCommand::runOn(std::vector<std::string> traces) {
  traces_ = std::move(traces);
  return run();
}

int CheckCommand::run() {
  warnings_.clear();
  analyzer::LintConfig config;
  analyzer::GateOptions gate;
  analyzer::BaselineOptions baseline_options;
  analyzer::Baseline baseline;
  if (!resolveOptions(config, gate, baseline_options, baseline)) return kExitUsageError;
  if (!baseline_path_.empty() && baseline.version != 2)
    printNote(baseline_path_ + " is a " +
              (baseline.version == 1 ? "steplint.baseline/1" : "hand-written") +
              " baseline: its entries apply to every trace and carry no sizes, so a finding that "
              "grew is not reported again; rewrite it with --write-baseline to scope them");
  analyzer::LintReport report;
  for (const analyzer::RuleDefinition* rule : config.selectedRules(rules_))
    report.selected.push_back(rule->info());
  // The gate is a rule too: --select SL801 runs it alone, --ignore SL801 turns it off.
  const bool gated = !compare_paths_.empty() && config.selects(analyzer::regressionRuleInfo());
  if (gated) report.selected.push_back(analyzer::regressionRuleInfo());
  report.fail_on = config.fail_on;
  report.tool_version = STEPLINT_VERSION;
  report.rule_descriptions = ruleDescriptions(rules_);

  std::vector<Unfiltered> unfiltered;
  size_t worse = 0;
  GateBase base;
  const TraceInputs inputs = expandTraceInputs(traces_);
  inputs_ = classifyInputs(inputs.files, inputs.expanded);
  // The base is read before any checked trace, as before: a base that cannot be read is an
  // error before minutes of analysis. (--ignore SL801 still reads it: the file must exist.)
  if (!compare_paths_.empty() && !openGateBase(base, gate)) return kExitUsageError;
  GateBase* base_run = gated ? &base : nullptr;
  const auto lint_each = [&](const std::vector<JobInput>& some) {
    return lintTraces(some, config, baseline, baseline_options, gate, base_run, report, unfiltered,
                      worse);
  };
  for (const std::string& problem : inputs.problems) printError(problem);
  for (const std::string& skipped : inputs.skipped) warn(skipped);
  ranks_.clear();
  // A folder or glob of a job's ranks: its traces are not linted one by one unless --per-rank
  // asks, or the gate compares each rank with the base. Whether it is a job is known from the
  // files' first bytes, so each is imported once.
  job_first_ = inputs.from_folder_or_glob && !per_rank_ && !gated && looksLikeJob(inputs_);
  bool all_ok = inputs.problems.empty();
  if (!job_first_) all_ok = lint_each(inputs_) && all_ok;
  std::vector<JobInput> alone;  // a folder's traces that name no rank: each checked on its own
  all_ok = lintJobs(config, baseline, baseline_options, report, unfiltered, worse, alone) && all_ok;
  if (job_first_ && !alone.empty()) all_ok = lint_each(alone) && all_ok;
  // The first bytes said "job" but the imported traces do not (their distributedInfo follows
  // their events, which Kineto never writes): then each trace is read once more, one by one.
  if (job_first_ && report.traces.empty() && !inputs_.empty())
    all_ok = lint_each(inputs_) && all_ok;
  if (report.traces.empty()) return kExitUsageError;  // nothing to report; errors already printed
  report.warnings = carried_warnings_;
  report.warnings.insert(report.warnings.end(), warnings_.begin(), warnings_.end());
  if (!writeReport(report)) return kExitUsageError;
  if (format_ != "text" && report.suppressedCount() > 0)
    printNote(std::to_string(report.suppressedCount()) + " finding(s) suppressed by the baseline " +
              baseline_path_);
  if (worse > 0)
    printNote(std::to_string(worse) +
              " accepted finding(s) reported again: grown beyond the baseline " + baseline_path_ +
              "'s band");
  if (!write_baseline_path_.empty()) {
    std::vector<analyzer::ScopedResult> scoped;
    for (const Unfiltered& u : unfiltered) scoped.push_back({&u.lint, u.scope});
    if (std::string problem = analyzer::writeBaseline(write_baseline_path_, scoped);
        !problem.empty()) {
      printError(write_baseline_path_ + ": " + problem);
      return kExitUsageError;
    }
    size_t count = 0;
    for (const Unfiltered& u : unfiltered) count += u.lint.diagnostics.size();
    printNote("wrote " + std::to_string(count) + " finding(s) to the baseline " +
              write_baseline_path_);
    return all_ok ? kExitOk : kExitUsageError;
  }
  if (!all_ok) return kExitUsageError;
  return report.failingCount() > 0 ? kExitFindings : kExitOk;
}

}  // namespace steplint::cli
