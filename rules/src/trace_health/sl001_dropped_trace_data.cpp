#include "trace_health/sl001_dropped_trace_data.h"

#include "common/rule_support.h"

namespace steplint::rules {

using namespace common;  // NOLINT(google-build-using-namespace): rules/src/common helpers

using analyzer::Category;
using analyzer::Severity;

const analyzer::RuleInfo& DroppedTraceDataRule::info() const {
  static const analyzer::RuleInfo kInfo{"SL001", "dropped-trace-data", Category::kTraceHealth, Severity::kError,
                                        true, "the importer lost part of the trace; every figure is incomplete"};
  return kInfo;
}

void DroppedTraceDataRule::check(const analyzer::AnalysisContext& context, analyzer::DiagnosticSink& sink) const {
  const trace::ImportStats& stats = context.model().stats;
  if (!stats.hasDataLoss()) return;
  EvidenceBuilder evidence(context);
  std::string counters;
  for (size_t i = 0; i < trace::kStatCount; ++i) {
    const auto stat = static_cast<trace::Stat>(i);
    const trace::StatInfo& si = trace::statInfo(stat);
    if (si.severity != trace::StatSeverity::kDataLoss || stats.get(stat) == 0) continue;
    evidence.metric(std::string(si.name), static_cast<double>(stats.get(stat)));
    if (!counters.empty()) counters += ", ";
    counters += strf("%.*s: %s", static_cast<int>(si.name.size()), si.name.data(), std::string(si.description).c_str());
  }
  const uint64_t dropped = stats.total(trace::StatSeverity::kError);
  evidence.metric("events_dropped_or_changed", static_cast<double>(dropped));
  // The end of what was read: everything after it is missing.
  const auto [first, last] = context.model().timeRange();
  if (last > first) evidence.range(first, last);
  for (const auto& s : context.steps().steps) evidence.step(static_cast<int>(&s - context.steps().steps.data()));

  analyzer::Diagnostic d = makeDiagnostic();
  d.message = "trace data was lost during import (" + counters + "); every figure below is a lower bound";
  d.evidence = evidence.take();
  d.saving.method = "not applicable: the trace is incomplete, so savings of other findings are underestimated";
  d.fix = {
      "LibTorch: stop the profiler and let it finish writing before the process exits "
      "(torch::autograd::profiler::disableProfiler() then save the result)",
      "Python: call prof.stop() / leave the `with torch.profiler.profile(...)` block before exiting; "
      "do not copy a trace that is still being written",
      "check free disk space and re-copy the file if it was truncated in transit",
  };
  d.fingerprint_key = "import-data-loss";
  sink.report(std::move(d));
}

}  // namespace steplint::rules
