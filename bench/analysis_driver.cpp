// steplint-analysis-bench: imports one trace, then times the analysis side alone: each part of
// summarize(), summarize() as a whole, every built-in rule's check() on its own, and runLint()
// with the default configuration (what `steplint check` and the GUI loader run). Prints a table
// of each part's time and its peak of temporaries (heap_meter.h: the most it held through
// operator new above what was held when it started; for the import, the model's size):
//
//   part                              seconds  peak MiB
//   import                              3.100     512.0
//   summary.steps                       0.400      12.5
//   ...
//   rule SL101 dataloader-wait          0.050       0.1
//   lint (runLint, default rules)       2.000      40.0
//
// Rules are timed one at a time on a shared AnalysisContext, so a cost the context computes
// lazily on first use is charged to the first rule that asks for it.
//
// With `--dump FILE`, also writes the summary JSON and the `steplint check --format json`
// report, so two builds can be compared byte for byte on big traces.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "heap_meter.h"

#include "steplint/analyzer/emitters.h"
#include "steplint/analyzer/lint.h"
#include "steplint/analyzer/summary.h"
#include "steplint/rules/builtin.h"
#include "steplint/trace/importer.h"

namespace {

namespace an = steplint::analyzer;

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

namespace bench = steplint::bench;

double mib(size_t bytes) { return static_cast<double>(bytes) / (1024.0 * 1024.0); }

/// The peak since the last reset above `held_before`; then starts the next part's peak.
size_t peakAbove(size_t held_before) {
  const size_t peak = bench::heapPeakBytes();
  bench::resetHeapPeak();
  return peak > held_before ? peak - held_before : 0;
}

void row(const std::string& part, double seconds, size_t peak_bytes) {
  std::printf("%-40s %8.3f %9.1f\n", part.c_str(), seconds, mib(peak_bytes));
}

class CountingSink final : public an::DiagnosticSink {
 public:
  void report(an::Diagnostic d) override {
    (void)d;
    ++count;
  }
  void notChecked(std::string reason) override { (void)reason; }
  size_t count = 0;
};

// Times each part of summarize() separately (the same calls, in the same order).
void timeSummaryParts(const steplint::trace::TraceModel& model) {
  const an::SummaryOptions options;
  auto t = Clock::now();
  size_t held = bench::heapBytes();
  auto lap = [&t, &held](const char* part) {
    row(part, secondsSince(t), peakAbove(held));
    held = bench::heapBytes();
    t = Clock::now();
  };
  const an::StepResult steps = an::computeSteps(model, options.steps);
  lap("summary.steps");
  (void)an::computeBreakdown(model, steps);
  lap("summary.breakdown");
  const an::InferredInputWait wait = an::inferInputWait(model, steps);
  lap("summary.input_wait");
  (void)an::computeAttribution(model, steps, wait.ranges);
  lap("summary.attribution");
  (void)an::profilerCostPerStep(model, steps);
  lap("summary.profiler");
  (void)an::computeGpuSummary(model, steps);
  lap("summary.gpu");
  (void)an::computeIdleBreakdown(model, options.idle);
  lap("summary.idle");
  const an::Interval w = an::analysisWindow(model, steps);
  (void)an::computeIdleBreakdown(model, options.idle, [w](const steplint::trace::Event& op) {
    return op.start_ns >= w.start && op.start_ns < w.end;
  });
  lap("summary.idle (steps window)");
  const an::HtaWindow hta = an::computeHtaWindow(model);
  lap("summary.hta_window");
  (void)an::computeIdleBreakdown(
      model, options.idle, [&](const steplint::trace::Event& op) { return hta.keeps(model, op); });
  lap("summary.idle (HTA window)");
  (void)an::computeTemporalBreakdown(model, hta);
  lap("summary.temporal");
  (void)an::computeKernelStats(model, options.top_kernels);
  lap("summary.kernel_stats");
}

// Every built-in rule (enabled by default or not), each with its default options.
void timeRules(const steplint::trace::TraceModel& model, const an::TraceSummary& summary,
               const an::RuleRegistry& registry) {
  size_t held = bench::heapBytes();
  auto t = Clock::now();
  const an::AnalysisContext context(model, summary);
  row("lint.context", secondsSince(t), peakAbove(held));
  for (const auto& definition : registry.rules()) {
    const std::unique_ptr<an::Rule> rule = definition->create();
    CountingSink sink;
    held = bench::heapBytes();
    t = Clock::now();
    rule->check(context, sink);
    row("rule " + std::string(rule->info().code) + " " + std::string(rule->info().name),
        secondsSince(t), peakAbove(held));
  }
}

// The savings attribution alone, on the default run's findings (runLint calls it once).
void timeSavings(const steplint::trace::TraceModel& model, const an::TraceSummary& summary,
                 an::LintResult lint) {
  const an::AnalysisContext context(model, summary);
  const size_t held = bench::heapBytes();
  bench::resetHeapPeak();
  const auto t = Clock::now();
  (void)an::attributeSavings(context, lint.diagnostics);
  row("lint.savings (attributeSavings)", secondsSince(t), peakAbove(held));
}

void dump(const std::string& path, const steplint::trace::TraceModel& model,
          const an::TraceSummary& summary, const an::LintResult& lint) {
  std::ofstream out(path);
  out << an::summaryToJson(summary, model).dump(1) << "\n";
  an::LintReport report;
  report.traces.push_back({lint, summary, 0});
  an::EmitterRegistry emitters;
  an::registerBuiltinEmitters(emitters);
  emitters.find("json")->emit(report, {}, out);
}

}  // namespace

int main(int argc, char** argv) {
  const bool dumping = argc == 4 && std::strcmp(argv[2], "--dump") == 0;
  if (argc != 2 && !dumping) {
    std::fprintf(stderr, "usage: steplint-analysis-bench TRACE [--dump FILE]\n");
    return 2;
  }
  steplint::trace::TraceModel model;
  auto t = Clock::now();
  steplint::trace::ImportStatus status = steplint::trace::importTraceFile(argv[1], model);
  if (!status.ok()) {
    std::fprintf(stderr, "steplint-analysis-bench: %s\n", status.message.c_str());
    return 1;
  }
  std::printf("%-40s %8s %9s\n", "part", "seconds", "peak MiB");
  // The import's row shows what the model holds after it (its peak is the merge's).
  row("import (" + std::to_string(model.events.size()) + " events)", secondsSince(t),
      bench::heapBytes());
  bench::resetHeapPeak();
  timeSummaryParts(model);
  size_t held = bench::heapBytes();
  t = Clock::now();
  const an::TraceSummary summary = an::summarize(model);
  const double summary_s = secondsSince(t);
  const size_t summary_peak = peakAbove(held);
  row("summarize (total)", summary_s, summary_peak);
  an::RuleRegistry registry;
  steplint::rules::registerBuiltinRules(registry);
  timeRules(model, summary, registry);
  held = bench::heapBytes();
  bench::resetHeapPeak();
  t = Clock::now();
  const an::LintResult lint = an::runLint(model, summary, registry, an::LintConfig{});
  const double lint_s = secondsSince(t);
  const size_t lint_peak = peakAbove(held);
  timeSavings(model, summary, lint);
  row("lint (runLint, default rules)", lint_s, lint_peak);
  row("summarize + lint", summary_s + lint_s, std::max(summary_peak, lint_peak));
  std::printf("diagnostics=%zu not_checked=%zu\n", lint.diagnostics.size(),
              lint.not_checked.size());
  if (dumping) dump(argv[3], model, summary, lint);
  return 0;
}
