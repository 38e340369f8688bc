// `steplint check TRACE...`: run the selected rules on each trace and report the findings in
// one of the emitter formats (text, json, sarif, junit, github, markdown). Exit 1 when a
// finding is at or above fail-on — the CI gate.
#pragma once

#include <string>
#include <vector>

#include "command.h"
#include "gate_base.h"
#include "job_inputs.h"
#include "step_flags.h"
#include "steplint/analyzer/baseline.h"
#include "steplint/analyzer/compare_config.h"
#include "steplint/analyzer/emitters.h"
#include "steplint/analyzer/job_rule.h"
#include "steplint/analyzer/rank_summary.h"
#include "steplint/analyzer/regression.h"
#include "steplint/analyzer/rule_registry.h"
#include "steplint/analyzer/run_diff.h"

namespace CLI {
class Option;
}

namespace steplint::cli {

class CheckCommand final : public Command {
 public:
  CheckCommand();
  std::string_view name() const override { return "check"; }
  std::string_view description() const override {
    return "Run the rules on traces and report findings (exit 1 on findings at or above fail-on)";
  }
  void addOptions(CLI::App& app) override;
  int run() override;

  /// Declares every option except TRACE; the report's file is -o/--output when `with_output`,
  /// else --report-output (for commands that end in a check, such as `steplint record`, whose
  /// -o is the trace).
  void addReportOptions(CLI::App& app, bool with_output);
  /// Runs the check on `traces` with the options parsed so far; returns an ExitCode.
  int runOn(std::vector<std::string> traces);
  /// What runOn({trace}) would refuse before reading a trace (the config file and the
  /// selectors, --max-regression, the --compare and --baseline files, the outputs), checked
  /// up front: a trainer is not run for minutes only to have its report refused. Prints why.
  bool checkBeforeRun(const std::string& trace);
  /// The report's format when it is not text and goes to standard output (else empty): after
  /// `steplint record` it would follow the trainer's own output there.
  std::string machineFormatOnStdout() const {
    return format_ != "text" && output_path_.empty() ? format_ : std::string();
  }
  /// A warning the caller printed about the traces before the check (`steplint record`: the
  /// recording did not finish): the report carries it with its own (LintReport::warnings).
  void carryWarning(std::string text) { carried_warnings_.push_back(std::move(text)); }
  /// As --per-rank: a job's report keeps each rank's own findings besides the job's.
  void keepRankFindings() { per_rank_ = true; }

 private:
  /// Loads the config file and applies the flags; prints errors and returns false on any.
  /// `gate` gets the [compare] limits, replaced by --max-regression flags when given.
  bool resolveConfig(analyzer::LintConfig& config, analyzer::GateOptions& gate,
                     analyzer::BaselineOptions& baseline) const;
  /// Everything run() and checkBeforeRun() refuse before reading a trace: the outputs, the
  /// config and flags, --max-regression without --compare, the --baseline file (loaded into
  /// `baseline`). Prints why and returns false on any.
  bool resolveOptions(analyzer::LintConfig& config, analyzer::GateOptions& gate,
                      analyzer::BaselineOptions& baseline_options,
                      analyzer::Baseline& baseline) const;
  /// --compare BASE: reads the base run (a trace now; a job's ranks listed), and for a job
  /// divides `gate`'s significance level by the traces checked; false (after printing why)
  /// when it cannot be read.
  bool openGateBase(GateBase& base, analyzer::GateOptions& gate) const;
  /// Runs the gate of `gate` for one trace against its base in `bases` into its lint result,
  /// and says on stderr what each limit decided; without a base (a rank the base job lacks) a
  /// "cannot decide" entry. `all_ok` turns false when the base's trace could not be read.
  void gateTrace(const trace::TraceModel& model, const analyzer::GateOptions& gate, GateBase& bases,
                 analyzer::TraceReport& entry, bool& all_ok) const;
  /// One trace's findings before the baseline, with the trace's scope key (--write-baseline).
  struct Unfiltered {
    analyzer::LintResult lint;
    std::string scope;
  };
  /// Imports, analyses and lints each trace into `report`, hiding findings in `baseline`;
  /// `unfiltered` (for --write-baseline) gets every finding. False if any trace failed.
  bool lintTraces(const std::vector<JobInput>& inputs, const analyzer::LintConfig& config,
                  const analyzer::Baseline& baseline,
                  const analyzer::BaselineOptions& baseline_options,
                  const analyzer::GateOptions& gate, GateBase* base, analyzer::LintReport& report,
                  std::vector<Unfiltered>& unfiltered, size_t& worse) const;
  /// When the traces are a distributed job's: runs the job rules on each job and adds one
  /// report entry per job (replacing the ranks' own entries unless --per-rank). A folder or
  /// glob is imported here, several traces at once; its traces that name no rank go to
  /// `alone`, for lintTraces. False if any trace failed to import.
  bool lintJobs(const analyzer::LintConfig& config, const analyzer::Baseline& baseline,
                const analyzer::BaselineOptions& baseline_options, analyzer::LintReport& report,
                std::vector<Unfiltered>& unfiltered, size_t& worse, std::vector<JobInput>& alone);
  /// False (after printing why) when -o or --write-baseline names a directory or an input
  /// (a trace or --config; for -o also --baseline).
  bool checkOutputs() const;
  /// Prints a warning and keeps it for the report (LintReport::warnings).
  void warn(std::string text) const;
  /// Renders the report to stdout or -o FILE; false (after printing why) on a write error.
  bool writeReport(const analyzer::LintReport& report) const;

  analyzer::RuleRegistry rules_;
  analyzer::JobRuleRegistry job_rules_;
  analyzer::EmitterRegistry emitters_;
  bool per_rank_ = false;
  unsigned workers_ = 0;
  // The TRACE arguments, expanded and sorted by their first bytes (job_inputs.h).
  std::vector<JobInput> inputs_;
  bool job_first_ = false;  // a folder or glob of a job's ranks, without --per-rank
  // Filled by lintTraces (several traces) or lintJobs: each rank's compact summary.
  mutable std::vector<analyzer::RankSummary> ranks_;
  std::vector<std::string> carried_warnings_;
  mutable std::vector<std::string> warnings_;  // this run's, as printed

  std::vector<std::string> traces_;
  std::string format_ = "text";
  std::string output_path_;
  std::string config_path_;
  bool no_config_ = false;
  std::vector<std::string> select_, extend_select_, ignore_;
  CLI::Option* select_option_ =
      nullptr;  // --select given at all (even empty) replaces the config's
  std::string fail_on_;
  std::string baseline_path_;
  std::string write_baseline_path_;
  std::string baseline_scope_;               // --baseline-scope (empty: config, else "file")
  double worse_factor_ = 0;                  // --worse-factor (0: config, else 2)
  std::vector<std::string> compare_paths_;   // --compare BASE...: the regression gate's base runs
  std::vector<std::string> max_regression_;  // --max-regression LIMIT...
  StepFlags step_flags_;
  std::string color_ = "auto";
};

}  // namespace steplint::cli
