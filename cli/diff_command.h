// `steplint diff BASE NEW`: what changed between two runs of a trainer — step time and its
// split by category, per-step distributions, op and device-op deltas, findings new / fixed /
// worse / better, and run metadata (analyzer/run_diff.h) — as text, JSON or Markdown. Two job
// folders (or globs) compare as jobs instead: the job's mean step and its parts, the slowest
// rank, rank by rank (analyzer/job_diff.h).
#pragma once

#include <cstddef>
#include <functional>
#include <iosfwd>
#include <optional>
#include <string>

#include "command.h"
#include "step_flags.h"
#include "steplint/analyzer/job.h"
#include "steplint/analyzer/lint_config.h"
#include "steplint/analyzer/rule_registry.h"
#include "steplint/analyzer/run_diff.h"

namespace steplint::cli {

class DiffCommand final : public Command {
 public:
  DiffCommand();
  std::string_view name() const override { return "diff"; }
  std::string_view description() const override {
    return "Compare two runs: step-time change by category, op and kernel deltas, findings new/fixed/worse";
  }
  void addOptions(CLI::App& app) override;
  int run() override;

 private:
  /// Imports one trace, analyses and lints it; nullopt (after printing why) when it cannot be
  /// read. One trace is in memory at a time: only the profile is kept.
  std::optional<analyzer::RunProfile> profile(const std::string& path,
                                              const analyzer::LintConfig* config) const;
  /// The rules' configuration (steplint.toml as `check` finds it); false after printing errors.
  bool loadConfig(analyzer::LintConfig& config) const;
  /// Reads a folder, glob or trace as one job's ranks; nullopt (after printing why) when no
  /// rank could be read. `all_read` turns false when an input failed.
  std::optional<analyzer::JobAnalysis> readJob(const std::string& path, bool& all_read) const;
  int runJobs();
  bool resolveSides();
  /// Renders to stdout or -o FILE; false (after printing why) on a write error.
  bool write(const std::function<void(std::ostream&)>& render) const;

  analyzer::RuleRegistry rules_;
  std::string base_path_;
  std::string new_path_;
  std::string format_ = "text";
  std::string output_path_;
  std::string config_path_;
  bool no_config_ = false;
  bool no_findings_ = false;
  size_t top_ = 15;
  unsigned workers_ = 0;
  double finding_factor_ = 1.25;
  StepFlags step_flags_;
};

}  // namespace steplint::cli
