// `steplint record [options] -- ./train args...`: runs an unmodified LibTorch trainer with the
// collector injected (LD_PRELOAD of libsteplint_preload.so), then prints the same report as
// `steplint check` on the trace it wrote. The exit code is the trainer's (128 + signal when it
// was killed); findings never change it — `steplint check` is the gate (docs/cli.md). An -o that
// cannot be written, or a bad --schedule, is refused (exit 2) before the trainer starts.
#pragma once

#include <string>
#include <vector>

#include "check_command.h"
#include "command.h"
#include "record_output.h"

namespace steplint::collector {
struct StatusMessage;
}

namespace steplint::cli {

/// Where the collector's two libraries are, found relative to the steplint executable.
struct CollectorLibraries {
  std::string preload;      // libsteplint_preload.so
  std::string collector;    // libsteplint_collector.so
  std::string python_hook;  // steplint_python/ (sitecustomize.py), next to the preload
};

/// PYTHONPATH with `hook_dir` first, so Python runs steplint's sitecustomize (which chains to
/// the one it shadows).
std::string prependPythonPath(const char* existing, const std::string& hook_dir);

/// Looks in STEPLINT_PRELOAD_LIB, then next to `exe_path` in the build tree
/// (<build>/cli/steplint → <build>/collector/) and in an install layout (bin/ → lib/).
/// Empty paths when nothing was found.
CollectorLibraries findCollectorLibraries(const std::string& exe_path);

/// `existing` with `library` appended, colon-separated (LD_PRELOAD's own syntax).
std::string appendPreload(const char* existing, const std::string& library);

/// 128 + signal for a killed child, else its exit status (what shells report).
int exitCodeOf(int wait_status);

class RecordCommand final : public Command {
 public:
  std::string_view name() const override { return "record"; }
  std::string_view description() const override {
    return "Run a LibTorch trainer with the collector injected, then report its findings";
  }
  void addOptions(CLI::App& app) override;
  int run() override;

 private:
  /// Sets the STEPLINT_* / LD_PRELOAD / NVTX variables in the child (the collector writes
  /// `trace_path` and reports on `status_fd`), then execvp. Never returns.
  [[noreturn]] void execTrainer(const CollectorLibraries& libs, const std::string& trace_path,
                                int status_fd) const;
  /// Forks the trainer, forwards SIGINT/SIGTERM, waits; returns its wait status or -1, and in
  /// *status_text what the collector reported (status_channel.h).
  int runTrainer(const CollectorLibraries& libs, const std::string& trace_path,
                 std::string* status_text) const;
  /// Reports on the traces (or their .partial); prints why when none was written or one is cut
  /// short. A run of several ranks is reported as one job. Returns the exit code: the
  /// trainer's, or 2 when it succeeded but the trace is lost.
  int reportTraces(std::vector<StagedTrace> traces, int wait_status,
                   const std::string& status_text);
  /// --summary-dir: each trace's `summary --format json` document (with its rank summary) as
  /// DIR/<trace name>.summary.json. False after printing why one could not be written.
  bool writeSummaries(const std::vector<StagedTrace>& traces) const;
  /// Warns about a trace that is not where it should be or is cut short; the report carries
  /// the warning too.
  void warnAbout(const StagedTrace& trace, const collector::StatusMessage* failure,
                 int wait_status);

  CheckCommand check_;
  std::vector<std::string> command_;
  std::string output_path_;
  std::string schedule_;
  std::string summary_dir_;
  bool shapes_ = false;
  bool modules_ = false;
  bool no_cupti_ = false;
  bool no_report_ = false;
};

}  // namespace steplint::cli
