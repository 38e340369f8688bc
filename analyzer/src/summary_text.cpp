// `steplint summary` as aligned text tables.
#include <functional>
#include <ostream>

#include "steplint/analyzer/summary.h"
#include "text_table.h"

namespace steplint::analyzer {
namespace {

using Align = TextTable::Align;

constexpr size_t kKernelNameWidth = 90;

class Printer {
 public:
  Printer(std::ostream& out, bool color) : out_(out), color_(color) {}
  // Lines quote the trace (GPU names, paths, the job's backend): each shown as displayText().
  void heading(const std::string& text) {
    out_ << '\n'
         << (color_ ? "\033[1m" : "") << displayText(text) << (color_ ? "\033[0m" : "") << '\n';
  }
  void line(const std::string& text) { out_ << "  " << displayText(text) << '\n'; }
  void note(const std::string& text) {
    out_ << "  " << (color_ ? "\033[33mnote:\033[0m " : "note: ") << displayText(text) << '\n';
  }
  std::ostream& out() { return out_; }

 private:
  std::ostream& out_;
  bool color_;
};

std::string stepSourceText(StepSource source) {
  switch (source) {
    case StepSource::kProfilerStep:
      return "ProfilerStep#N ranges";
    case StepSource::kWholeTrace:
      return "the whole trace (no ProfilerStep#N)";
    case StepSource::kDetected:
      return "detected training-loop iterations (no ProfilerStep#N)";
    case StepSource::kNone:
      return "none";
  }
  return "?";
}

std::string optionalPercent(double value, double scale) {
  return value < 0 ? std::string("n/a") : formatPercent(value / scale);
}

void printHeader(Printer& p, const TraceSummary& s, const trace::TraceModel& model) {
  p.out() << "steplint summary: " << (s.source.empty() ? "<memory>" : displayText(s.source))
          << '\n';
  const auto [lo, hi] = model.timeRange();
  std::string format = model.metadata.format.empty() ? "" : model.metadata.format + ", ";
  p.line(format + formatCount(s.event_count) + " events on " + formatCount(s.track_count) +
         " tracks, " + formatMs(static_cast<double>(hi - lo)) + " ms from ts " + formatUsExact(lo) +
         " µs to " + formatUsExact(hi) + " µs (trace clock)");
  const trace::Accelerator accelerator = model.metadata.accelerator;
  if (accelerator != trace::Accelerator::kNone)
    p.line("accelerator: " + std::string(trace::acceleratorName(accelerator)));
  const std::string noun(trace::deviceNoun(accelerator));
  for (const trace::DeviceProperties& d : model.metadata.devices)
    p.line(noun + " " + std::to_string(d.id) + ": " + d.name);
}

void printSteps(Printer& p, const TraceSummary& s) {
  const StepResult& st = s.steps;
  p.heading("Steps");
  std::string text = std::to_string(st.steps.size()) + " step(s) from " + stepSourceText(st.source);
  if (!st.steps.empty())
    text += ", numbers " + std::to_string(st.steps.front().number) + ".." +
            std::to_string(st.steps.back().number);
  if (st.dropped_warmup_steps > 0)
    text += ", " + std::to_string(st.dropped_warmup_steps) + " warm-up dropped";
  if (st.dropped_tail_steps > 0)
    text += ", " + std::to_string(st.dropped_tail_steps) + " dropped at the tail";
  p.line(text);
  for (const std::string& n : st.notes) p.note(n);
}

void printBreakdown(Printer& p, const BreakdownResult& b) {
  p.heading("Step-time breakdown (average over " + std::to_string(b.per_step.size()) + " step(s))");
  TextTable t({{"Category", Align::kLeft}, {"Avg ms"}, {"% of step"}});
  for (int c = 0; c < kStepCategoryCount; ++c) {
    const auto cat = static_cast<StepCategory>(c);
    t.addRow({std::string(stepCategoryName(cat)), formatMs(b.average_ns[c]),
              formatPercent(b.averageFraction(cat))});
  }
  t.addRow({"Step time", formatMs(b.average_total_ns),
            formatPercent(b.average_total_ns > 0 ? 1.0 : 0.0)});
  t.print(p.out());

  p.heading("Per step (ms)");
  std::vector<TextTable::Column> cols = {{"Step"}, {"Total"}};
  for (int c = 0; c < kStepCategoryCount; ++c)
    cols.push_back({std::string(stepCategoryName(static_cast<StepCategory>(c)))});
  TextTable per(cols);
  for (const StepBreakdown& row : b.per_step) {
    std::vector<std::string> cells = {std::to_string(row.step_number),
                                      formatMs(static_cast<double>(row.total_ns))};
    for (int64_t v : row.ns) cells.push_back(formatMs(static_cast<double>(v)));
    per.addRow(std::move(cells));
  }
  per.print(p.out());
}

// The inferred input phase is not a breakdown category: that table stays tb_plugin's, where
// this time is CPU Exec or Other (docs/analyses.md §2b).
void printInferredWait(Printer& p, const TraceSummary& s) {
  const InferredInputWait& w = s.input_wait;
  const double total = s.breakdown.average_total_ns;
  p.line("DataLoader (inferred; inside CPU Exec / Other above): " + formatMs(w.average_ns) +
         " ms/step, " + formatPercent(total > 0 ? w.average_ns / total : 0));
  p.note(w.method());
}

void printCauses(Printer& p, const std::string& title, const double* ns, int count, double total,
                 const std::function<std::string(int)>& name) {
  TextTable t({{title, Align::kLeft}, {"Avg ms"}, {"% of step"}});
  for (int c = 0; c < count; ++c) {
    if (ns[c] <= 0) continue;  // a cause that never happened is noise in a table
    t.addRow({name(c), formatMs(ns[c]), formatPercent(total > 0 ? ns[c] / total : 0)});
  }
  t.print(p.out());
}

void printAttribution(Printer& p, const AttributionResult& a, const std::string& noun) {
  p.heading("Step attribution (average over " + std::to_string(a.per_step.size()) +
            " step(s); every ns once; docs/analyses.md 2a)");
  printCauses(p, "Host", a.average_host_ns.data(), kHostCauseCount, a.average_total_ns,
              [&a](int c) { return hostCauseLabel(a, static_cast<HostCause>(c)); });
  for (const auto& [device, ns] : a.average_device_ns)
    printCauses(p, noun + " " + std::to_string(device), ns.data(), kDeviceCauseCount,
                a.average_total_ns,
                [](int c) { return std::string(deviceCauseName(static_cast<DeviceCause>(c))); });
}

/// What the recording itself cost each step, which the savings take out, and CUPTI's records.
void printProfilerCost(Printer& p, const StepProfilerCost& cost, double step_ns, size_t steps) {
  const std::vector<std::string> lines = profilerCostLines(cost, step_ns, steps);
  if (lines.empty()) return;
  p.heading("Profiler overhead");
  for (const std::string& line : lines) p.note(line);
}

/// "0.52 / 79.2 GiB" (peak / capacity), "0.52 GiB" without capacity, "-" unknown.
std::string peakMemory(int64_t peak_bytes, int64_t capacity_bytes) {
  constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;
  if (peak_bytes < 0) return "-";
  const std::string peak = formatFixed(static_cast<double>(peak_bytes) / kGiB, 2);
  if (capacity_bytes <= 0) return peak + " GiB";
  return peak + " / " + formatFixed(static_cast<double>(capacity_bytes) / kGiB, 1) + " GiB";
}

// `noun`: what a device is called on this trace's accelerator ("GPU", "MTIA").
void printGpus(Printer& p, const TraceSummary& s, const std::string& noun) {
  if (s.gpus.empty()) return;
  p.heading(
      noun +
      " summary (kernels over the kept steps; peak allocated and reserved memory over the whole trace)");
  TextTable t({{noun},
               {"Window ms"},
               {"Kernels"},
               {"Utilization"},
               {"Est. SM eff."},
               {"Est. occupancy"},
               {"Tensor cores"},
               {"Peak allocated"},
               {"Peak reserved"},
               {"Name", Align::kLeft}});
  for (const GpuSummary& g : s.gpus)
    t.addRow({std::to_string(g.device), formatMs(static_cast<double>(g.window_ns)),
              formatCount(static_cast<uint64_t>(g.kernel_count)), formatPercent(g.utilization),
              optionalPercent(g.sm_efficiency, 1.0), optionalPercent(g.achieved_occupancy, 100.0),
              optionalPercent(g.tensor_core_share, 1.0),
              peakMemory(g.peak_allocated_bytes, g.memory_bytes),
              peakMemory(g.peak_reserved_bytes, g.memory_bytes), g.name});
  t.print(p.out());
}

// "steps 5..10 (1065.553 ms from the first step's start to the last one's end)".
std::string stepsWindowText(const TraceSummary& s) {
  const std::string length = formatMs(static_cast<double>(s.steps_window.length())) + " ms";
  if (s.steps.steps.empty()) return "window: the whole trace, no steps (" + length + ")";
  return "window: steps " + std::to_string(s.steps.steps.front().number) + ".." +
         std::to_string(s.steps.steps.back().number) + ", device ops starting in the " + length +
         " from the first step's start to the last one's end";
}

std::string htaWindowText(const HtaWindow& w) {
  if (!w.filtered)
    return "window: the whole trace (fewer than 2 ProfilerStep#N, so HTA drops no step)";
  return "window: device ops launched before the last step, " + w.last_step + ", starts at ts " +
         formatUsExact(w.cutoff_ns) + " µs (HTA's default drops the last step)";
}

void printIdleTable(Printer& p, const std::string& title, const std::string& window,
                    const std::vector<StreamIdle>& streams, const IdleOptions& options,
                    const std::string& noun) {
  p.heading(title);
  p.line(window);
  p.line("kernel wait = gap < " +
         formatFixed(static_cast<double>(options.kernel_wait_threshold_ns) / 1e3, 0) +
         " µs; host wait, kernel wait and other as shares of the idle time");
  if (streams.empty()) return p.line("no device ops in this window");
  TextTable t({{noun},
               {"Stream"},
               {"Span ms"},
               {"Busy ms"},
               {"Idle ms"},
               {"Host wait"},
               {"Kernel wait"},
               {"Other"}});
  for (const StreamIdle& i : streams) {
    const double idle = static_cast<double>(i.idle_ns());
    auto share = [&](int64_t v) {
      return idle > 0 ? formatPercent(static_cast<double>(v) / idle) : std::string("-");
    };
    t.addRow({std::to_string(i.device), std::to_string(i.stream),
              formatMs(static_cast<double>(i.span_ns)), formatMs(static_cast<double>(i.busy_ns)),
              formatMs(idle), share(i.host_wait_ns), share(i.kernel_wait_ns), share(i.other_ns)});
  }
  t.print(p.out());
}

void printTemporal(Printer& p, const TraceSummary& s, const std::string& noun) {
  p.heading(noun +
            " temporal breakdown over HTA's window (what HTA's get_temporal_breakdown reports)");
  p.line(htaWindowText(s.hta));
  p.line(
      "kernel time = first to last GPU event (device ops and stream syncs); compute = HTA's computation kernels");
  TextTable t({{noun},
               {"Kernel time ms"},
               {"Idle ms"},
               {"Idle"},
               {"Compute ms"},
               {"Compute"},
               {"Non-compute ms"},
               {"Non-compute"}});
  for (const TemporalBreakdown& g : s.temporal)
    t.addRow({std::to_string(g.device), formatMs(static_cast<double>(g.kernel_time_ns)),
              formatMs(static_cast<double>(g.idle_ns)), formatPercent(g.fraction(g.idle_ns)),
              formatMs(static_cast<double>(g.compute_ns)), formatPercent(g.fraction(g.compute_ns)),
              formatMs(static_cast<double>(g.non_compute_ns)),
              formatPercent(g.fraction(g.non_compute_ns))});
  t.print(p.out());
}

void printIdle(Printer& p, const TraceSummary& s, const std::string& noun) {
  if (s.idle.empty()) return;
  printIdleTable(p, noun + " idle time per stream over the analysed steps (HTA's definition)",
                 stepsWindowText(s), s.idle_steps, s.idle_options, noun);
  printIdleTable(
      p,
      noun + " idle time per stream over HTA's window (what HTA's get_idle_time_breakdown reports)",
      htaWindowText(s.hta), s.idle_hta, s.idle_options, noun);
  if (!s.temporal.empty()) printTemporal(p, s, noun);
}

void printKernels(Printer& p, const TraceSummary& s) {
  if (s.top_kernels.empty()) return;
  p.heading("Top kernels by total time (whole trace)");
  TextTable t({{"Total ms"}, {"Count"}, {"Mean µs"}, {"TC"}, {"Name", Align::kLeft}});
  for (const KernelStat& k : s.top_kernels)
    t.addRow({formatMs(static_cast<double>(k.total_ns)),
              formatCount(static_cast<uint64_t>(k.count)), formatFixed(k.mean_ns() / 1e3, 1),
              k.tensor_core ? "yes" : "", truncateMiddle(k.name, kKernelNameWidth)});
  t.print(p.out());
}

void printImportStats(Printer& p, const trace::TraceModel& model) {
  TextTable t(
      {{"Severity", Align::kLeft}, {"Count"}, {"Stat", Align::kLeft}, {"Meaning", Align::kLeft}});
  for (size_t i = 0; i < trace::kStatCount; ++i) {
    const auto stat = static_cast<trace::Stat>(i);
    if (model.stats.get(stat) == 0) continue;
    const trace::StatInfo& info = trace::statInfo(stat);
    t.addRow({std::string(trace::statSeverityName(info.severity)),
              formatCount(model.stats.get(stat)), std::string(info.name),
              std::string(info.description)});
  }
  p.heading("Trace import");
  if (t.empty())
    p.line("nothing repaired, dropped or skipped");
  else
    t.print(p.out());
  if (model.stats.get(trace::Stat::recorder_stopped_early) > 0 &&
      !model.metadata.stopped_early_reason.empty())
    p.note("recording stopped early: " + model.metadata.stopped_early_reason);
}

}  // namespace

void printSummaryText(std::ostream& out, const TraceSummary& summary,
                      const trace::TraceModel& model, bool color) {
  Printer p(out, color);
  printHeader(p, summary, model);
  printSteps(p, summary);
  if (!summary.breakdown.per_step.empty()) printBreakdown(p, summary.breakdown);
  if (summary.input_wait.inferred) printInferredWait(p, summary);
  const std::string noun(trace::deviceNoun(model.metadata.accelerator));
  if (!summary.attribution.per_step.empty()) printAttribution(p, summary.attribution, noun);
  printProfilerCost(p, summary.profiler, summary.attribution.average_total_ns,
                    summary.steps.steps.size());
  printGpus(p, summary, noun);
  printIdle(p, summary, noun);
  printKernels(p, summary);
  if (!summary.notes.empty()) p.heading("Not computed");
  for (const std::string& n : summary.notes) p.note(n);
  printImportStats(p, model);
}

}  // namespace steplint::analyzer
