#include "common/rule_support.h"
#include "steplint/analyzer/rule_registry.h"

namespace steplint::rules {

using namespace common;  // rules/src/common helpers

using analyzer::Category;
using analyzer::Severity;
using trace::Stat;

namespace {

// Data lost before the file was written (the collector's own counts) needs a different fix
// from a file cut short afterwards, so each cause gets its own phrase and advice.
struct LossReport {
  std::string causes;  // "13852 host events dropped at the collector's buffer cap, ..."
  std::vector<std::string> fix;
  bool while_recording = false;
  bool during_import = false;

  void cause(const std::string& text) { causes += (causes.empty() ? "" : "; ") + text; }
};

std::string countText(uint64_t n) { return strf("%llu", static_cast<unsigned long long>(n)); }

void describeRecorderLoss(const trace::TraceModel& model, LossReport& report) {
  const trace::ImportStats& stats = model.stats;
  if (const uint64_t n = stats.get(Stat::recorder_dropped_events)) {
    report.cause(countText(n) + " host events dropped at the collector's buffer cap");
    report.fix.push_back(
        "record again with a larger host buffer cap (STEPLINT_MAX_BUFFER_MB, default 256) or drain "
        "it more often (a lower STEPLINT_FLUSH_MS, default 1000)");
  }
  if (const uint64_t n = stats.get(Stat::recorder_dropped_gpu_records)) {
    report.cause(countText(n) + " GPU activity records dropped by CUPTI");
    report.fix.push_back(
        "CUPTI filled its 128 MiB of buffers faster than they were drained: record fewer steps "
        "(steplint record --schedule W,WU,A), a lower STEPLINT_FLUSH_MS, or leave out driver and "
        "sync records (STEPLINT_CUPTI_DRIVER=0, STEPLINT_CUPTI_SYNC=0)");
  }
  if (stats.get(Stat::recorder_stopped_early)) {
    const std::string& reason = model.metadata.stopped_early_reason;
    const std::string why = reason.empty() ? "no reason recorded" : reason;
    report.cause("recording stopped before the program ended (" + why + ")");
    report.fix.push_back("the collector stopped early because: " + why +
                         "; remove that cause and record again to capture the later steps");
  }
  report.while_recording = !report.causes.empty();
}

bool isRecorderLoss(Stat stat) {
  return stat == Stat::recorder_dropped_events || stat == Stat::recorder_dropped_gpu_records ||
         stat == Stat::recorder_stopped_early;
}

// Every other data-loss counter (json_truncated, gzip_error, input_read_error) means the file
// was cut short.
void describeImportLoss(const trace::ImportStats& stats, LossReport& report) {
  for (size_t i = 0; i < trace::kStatCount; ++i) {
    const auto stat = static_cast<Stat>(i);
    const trace::StatInfo& si = trace::statInfo(stat);
    if (si.severity != trace::StatSeverity::kDataLoss || stats.get(stat) == 0 ||
        isRecorderLoss(stat))
      continue;
    report.cause(std::string(si.name) + ": " + std::string(si.description));
    report.during_import = true;
  }
  if (!report.during_import) return;
  report.fix.insert(
      report.fix.end(),
      {"LibTorch: stop the profiler and let it finish writing before the process exits "
       "(torch::autograd::profiler::disableProfiler() then save the result)",
       "Python: call prof.stop() / leave the `with torch.profiler.profile(...)` block before exiting; "
       "do not copy a trace that is still being written",
       "check free disk space and re-copy the file if it was truncated in transit"});
}

std::string whenLost(const LossReport& report) {
  if (report.while_recording && report.during_import) return "while recording and during import";
  return report.while_recording ? "while recording" : "during import";
}

}  // namespace

namespace {

struct Options {};

/// SL001: the importer lost data (truncated JSON or gzip), so every figure is incomplete.
class DroppedTraceDataRule final : public analyzer::RuleWith<Options> {
 public:
  using RuleWith::RuleWith;
  void check(const analyzer::AnalysisContext& context,
             analyzer::DiagnosticSink& sink) const override;

 private:
  void reportNoEvents(analyzer::DiagnosticSink& sink) const;
};

}  // namespace

void registerSl001(analyzer::RuleRegistry& registry) {
  registry.add<DroppedTraceDataRule>(
      {"SL001", "dropped-trace-data", Category::kTraceHealth, Severity::kError, true,
       "part of the run is missing from the trace; every figure is incomplete"});
}

// A well-formed trace of metadata alone (a profiler stopped before its schedule's active steps)
// would otherwise pass `check` as "No findings": every rule has nothing to judge.
void DroppedTraceDataRule::reportNoEvents(analyzer::DiagnosticSink& sink) const {
  analyzer::Diagnostic d = makeDiagnostic();
  d.message = "the trace holds no events: nothing of the run was recorded, so nothing was checked";
  d.saving.method = "not applicable: nothing was recorded";
  d.fix = {
      "torch.profiler with a schedule: call prof.step() once per iteration and run at least "
      "wait + warmup + active iterations inside the profiler, or its active window never opens",
      "check that the profiled code ran between the profiler's start and stop"};
  d.fingerprint_key = "no-events";
  sink.report(std::move(d));
}

void DroppedTraceDataRule::check(const analyzer::AnalysisContext& context,
                                 analyzer::DiagnosticSink& sink) const {
  const trace::ImportStats& stats = context.model().stats;
  if (!stats.hasDataLoss()) {
    if (context.model().events.empty()) reportNoEvents(sink);
    return;
  }
  LossReport report;
  describeRecorderLoss(context.model(), report);
  describeImportLoss(stats, report);

  EvidenceBuilder evidence(context);
  for (size_t i = 0; i < trace::kStatCount; ++i) {
    const auto stat = static_cast<Stat>(i);
    const trace::StatInfo& si = trace::statInfo(stat);
    if (si.severity == trace::StatSeverity::kDataLoss && stats.get(stat) > 0)
      evidence.metric(std::string(si.name), static_cast<double>(stats.get(stat)));
  }
  evidence.metric("events_dropped_or_changed",
                  static_cast<double>(stats.total(trace::StatSeverity::kError)));
  // The span that was kept: whatever was lost lies around or inside it.
  const auto [first, last] = context.model().timeRange();
  if (last > first) evidence.range(first, last);
  for (const auto& s : context.steps().steps)
    evidence.step(static_cast<int>(&s - context.steps().steps.data()));

  analyzer::Diagnostic d = makeDiagnostic();
  d.message = "trace data was lost " + whenLost(report) + " (" + report.causes +
              "); every figure below is a lower bound";
  d.evidence = evidence.take();
  d.saving.method =
      "not applicable: the trace is incomplete, so savings of other findings are underestimated";
  d.fix = std::move(report.fix);
  d.fingerprint_key = "import-data-loss";
  sink.report(std::move(d));
}

}  // namespace steplint::rules
