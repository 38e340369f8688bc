// `steplint summary TRACE...`: import each trace and print its steps, step-time breakdown,
// GPU summary, idle time and top kernels (analyzer/summary.h) as text or JSON. Traces of a
// distributed job (a folder, a glob, or several ranks' files) get the job report (job.h).
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "command.h"
#include "step_flags.h"
#include "steplint/analyzer/summary.h"

namespace steplint::cli {

/// One trace's `summary --format json` document: the summary with its "rank_summary", from
/// which a job report can be built without the trace (docs/summary-json.md).
nlohmann::json summaryDocument(const analyzer::TraceSummary& summary,
                               const trace::TraceModel& model);

class SummaryCommand final : public Command {
 public:
  std::string_view name() const override { return "summary"; }
  std::string_view description() const override {
    return "Print step times, step-time breakdown, GPU utilisation, idle time and top kernels";
  }
  void addOptions(CLI::App& app) override;
  int run() override;

 private:
  std::vector<std::string> traces_;
  std::string format_ = "text";
  std::string color_ = "auto";
  std::string output_path_;
  StepFlags step_flags_;
  bool per_rank_ = false;
  unsigned workers_ = 0;
};

}  // namespace steplint::cli
