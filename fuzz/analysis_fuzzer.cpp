// libFuzzer target for everything `steplint check`, `summary` and `diff` compute on an imported
// trace (docs/fuzzing.md): the analyses, every rule with the savings replay, the rank summary,
// the run diff and gate (of the run against itself) and every report format. The importer has its
// own target (kineto_import_fuzzer.cpp); a trace the importer accepts is still hostile to the
// analyses (steps of any length, timestamps at the ends of int64, kernels without launches,
// collectives on every stream), and a crash there is a crash of `steplint check`.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string_view>

#include <nlohmann/json.hpp>

#include "steplint/analyzer/emitters.h"
#include "steplint/analyzer/json_text.h"
#include "steplint/analyzer/lint.h"
#include "steplint/analyzer/rank_summary.h"
#include "steplint/analyzer/regression.h"
#include "steplint/analyzer/run_diff.h"
#include "steplint/analyzer/summary.h"
#include "steplint/rules/builtin.h"
#include "steplint/trace/importer.h"

#include "fuzz_invariants.h"

namespace {

namespace analyzer = steplint::analyzer;
namespace trace = steplint::trace;
using steplint::fuzz::checkSavings;

// Every nanosecond of a step is counted once: the breakdown's categories and the attribution's
// host causes and each device's causes add up to the step, none negative (docs/analyses.md).
template <typename Parts>
void checkAddsUp(const Parts& parts, int64_t total) {
  int64_t sum = 0;
  for (int64_t ns : parts) {
    if (ns < 0) __builtin_trap();
    sum += ns;
  }
  if (sum != total || total < 0) __builtin_trap();
}

// A share is in [0, 1] and a percentage in [0, 100]; -1 says unknown.
bool outside(double value, double top) {
  return std::isnan(value) || (value != -1 && (value < 0 || value > top + 1e-9));
}

void checkGpus(const analyzer::TraceSummary& summary) {
  for (const analyzer::GpuSummary& gpu : summary.gpus) {
    if (gpu.kernel_busy_ns < 0 || gpu.kernel_busy_ns > gpu.window_ns) __builtin_trap();
    if (outside(gpu.utilization, 1) || outside(gpu.sm_efficiency, 1) ||
        outside(gpu.achieved_occupancy, 100) || outside(gpu.tensor_core_share, 1))
      __builtin_trap();
  }
}

void checkAccounting(const analyzer::TraceSummary& summary) {
  for (const analyzer::StepBreakdown& step : summary.breakdown.per_step)
    checkAddsUp(step.ns, step.total_ns);
  for (const analyzer::StepAttribution& step : summary.attribution.per_step) {
    checkAddsUp(step.host_ns, step.total_ns);
    for (const analyzer::DeviceAttribution& device : step.devices)
      checkAddsUp(device.ns, step.total_ns);
  }
}

struct Catalog {
  analyzer::RuleRegistry rules;
  analyzer::EmitterRegistry emitters;
  analyzer::GateOptions gate;  // `--max-regression 5%,kernel=10%,dataloader=0%`
  Catalog() {
    steplint::rules::registerBuiltinRules(rules);
    analyzer::registerBuiltinEmitters(emitters);
    for (const char* text : {"5%", "kernel=10%", "dataloader=0%"}) {
      analyzer::RegressionLimit limit;
      if (!analyzer::parseRegressionLimit(text, limit).empty()) __builtin_trap();
      gate.limits.push_back(limit);
    }
  }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const Catalog catalog;
  trace::ImportOptions import;
  import.max_event_bytes = 4096;  // as kineto_import_fuzzer: the limit is reachable
  import.threads = 1;
  trace::TraceModel model;
  const trace::ImportStatus status = trace::importTraceBytes(
      std::string_view(reinterpret_cast<const char*>(data), size), model, import, "fuzz");
  if (!status.ok()) return 0;  // kineto_import_fuzzer covers the failures

  analyzer::SummaryOptions options;
  options.threads = 1;  // deterministic: a finding reproduces from its input alone
  analyzer::TraceReport entry;
  entry.summary = analyzer::summarize(model, options);
  checkAccounting(entry.summary);
  checkGpus(entry.summary);
  analyzer::LintConfig config;
  config.select = {"ALL"};
  entry.lint = analyzer::runLint(model, entry.summary, catalog.rules, config);
  checkSavings(entry.lint);

  // What `summary --format json` and a job's rank see of the same analyses.
  std::ostringstream out;
  out << analyzer::jsonText(analyzer::summaryToJson(entry.summary, model), -1);
  out << analyzer::jsonText(
      analyzer::rankSummaryToJson(analyzer::summarizeRank(model, entry.summary)), -1);
  analyzer::printSummaryText(out, entry.summary, model);

  // `steplint diff` and the gate of the run against itself: every ratio has a zero to divide by.
  const analyzer::RunProfile profile = analyzer::profileRun(model, entry.summary, &entry.lint);
  const analyzer::RunDiff diff = analyzer::diffRuns(profile, profile);
  analyzer::printRunDiffText(out, diff);
  analyzer::printRunDiffMarkdown(out, diff);
  out << analyzer::jsonText(analyzer::runDiffToJson(diff), -1) << analyzer::runDiffHeadline(diff);
  for (const analyzer::GateCheck& check : analyzer::runGate(profile, profile, catalog.gate))
    if (check.verdict == analyzer::GateVerdict::kRegressed) __builtin_trap();  // no change

  analyzer::LintReport report;
  for (const analyzer::RuleDefinition* rule : config.selectedRules(catalog.rules))
    report.selected.push_back(rule->info());
  report.traces.push_back(std::move(entry));
  for (const auto& emitter : catalog.emitters.emitters()) emitter->emit(report, {}, out);
  return 0;
}
