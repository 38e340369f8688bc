#include <algorithm>
#include <optional>
#include <set>
#include <string>

#include "common/rule_support.h"
#include "common/run_metadata.h"
#include "steplint/analyzer/attribution.h"
#include "steplint/analyzer/breakdown.h"
#include "steplint/analyzer/input_wait.h"
#include "steplint/analyzer/name_memo.h"
#include "steplint/analyzer/rule_registry.h"

namespace steplint::rules {

using namespace common;  // rules/src/common helpers

using analyzer::Category;
using analyzer::Severity;
using analyzer::StepCategory;

namespace {

// Far above any real DataLoader (each worker is a process), low enough that the advice's
// workers x GPUs stays far inside int64.
constexpr double kMaxWorkersPerGpu = 1024;

struct Options {
  double min_wait_fraction = 0.05;
  int64_t cpu_cores = 0;
  int64_t workers_per_gpu = 4;
};

/// What the finding says about the wait, measured (DataLoader ranges) or inferred (input_wait.h).
struct Wait {
  double fraction = 0;
  double ms = 0;
  // The training thread's whole wait (the step attribution's DataLoader host time): the
  // breakdown's figure leaves out the part the GPU was busy, the replay removes all of it.
  double host_ms = 0;
  bool single_process = false;  // the loader runs on the training thread (num_workers=0)
  bool multi_process = false;   // loader workers exist
  const analyzer::InferredInputWait* inferred = nullptr;
};

std::string measuredMessage(const Wait& w) {
  const char* kind = w.single_process  ? " (single-process loader: num_workers=0)"
                     : w.multi_process ? " (multi-process loader)"
                                       : "";
  std::string message = strf("%.1f%% of step time (%.1f ms/step) waiting for the DataLoader%s",
                             100.0 * w.fraction, w.ms, kind);
  // Quote the whole wait when it is visibly longer, so the saving never exceeds what is quoted.
  if (w.host_ms >= w.ms + 0.05)
    message += strf("; %.1f ms/step counting the %.1f ms that overlap GPU work or runtime calls",
                    w.host_ms, w.host_ms - w.ms);
  return message;
}

std::string inferredMessage(const Wait& w) {
  const char* kind = w.multi_process
                         ? "the training thread waits for loader worker threads"
                         // What was measured: the thread's own ops fill the phase. With loader
                         // threads it may still assemble (collate, copy) what they loaded.
                         : "the training thread runs the ops of that part itself: it loads or "
                           "assembles the batches";
  return strf(
      "%.1f%% of step time (%.1f ms/step) waiting for the next batch, inferred: no DataLoader ranges, the "
      "part of each iteration before its training starts (%s)",
      100.0 * w.fraction, w.ms, kind);
}

/// SL101: the training loop waits for the DataLoader for a large share of each step.
class DataLoaderWaitRule final : public analyzer::RuleWith<Options> {
 public:
  using RuleWith::RuleWith;
  void check(const analyzer::AnalysisContext& context,
             analyzer::DiagnosticSink& sink) const override;

 private:
  // The recommendation needs at least one worker per GPU.
  int64_t workers_per_gpu() const { return std::max<int64_t>(1, options().workers_per_gpu); }
  void checkInferred(const analyzer::AnalysisContext& context,
                     analyzer::DiagnosticSink& sink) const;
  void report(const analyzer::AnalysisContext& context, analyzer::DiagnosticSink& sink,
              const Wait& wait, EvidenceBuilder& evidence, EffectBuilder& effect) const;
};

}  // namespace

void registerSl101(analyzer::RuleRegistry& registry) {
  registry.add<DataLoaderWaitRule>(
      {"SL101", "dataloader-wait", Category::kInputPipeline, Severity::kWarning, true,
       "a large share of each step waits for the DataLoader"},
      {
          analyzer::option(
              "min-wait-fraction", &Options::min_wait_fraction,
              "flag when the DataLoader share of the average step exceeds this (tb_plugin R1)",
              analyzer::kShareBounds),
          analyzer::option(
              "cpu-cores", &Options::cpu_cores,
              "CPU cores available to this process, caps the recommended worker count (0 = unknown)"),
          // At most kMaxWorkersPerGpu: the advice multiplies it by the GPUs used, and 2^62
          // per GPU overflowed int64 on a 2-GPU trace.
          analyzer::option("workers-per-gpu", &Options::workers_per_gpu,
                           "rule-of-thumb DataLoader workers per GPU used by this process", 0.0,
                           kMaxWorkersPerGpu),
      });
}

void DataLoaderWaitRule::check(const analyzer::AnalysisContext& context,
                               analyzer::DiagnosticSink& sink) const {
  const auto& steps = context.steps().steps;
  if (steps.empty()) {
    sink.notChecked("no training steps in this trace (no ProfilerStep#N ranges and no CPU ops)");
    return;
  }
  const trace::TraceModel& model = context.model();
  EvidenceBuilder evidence(context);
  EffectBuilder effect;
  Wait wait;
  bool any_loader = false;
  analyzer::NameMemo loader_name(model, analyzer::isDataLoaderName);
  for (uint32_t i = 0; i < model.events.size(); ++i) {
    const trace::Event& e = model.events[i];
    if (!trace::isCpuRange(e.kind) || !loader_name(e.name)) continue;
    const int step = hostStepAt(context, e.start_ns);
    if (step < 0) continue;
    any_loader = true;
    const std::string_view name = model.name(e);
    wait.single_process |= name.find("_SingleProcessDataLoaderIter") != std::string_view::npos;
    wait.multi_process |= name.find("_MultiProcessingDataLoaderIter") != std::string_view::npos;
    evidence.eventWithRange(i);
    effect.hostEvent(model, i);
  }
  if (!any_loader) {
    checkInferred(context, sink);
    return;
  }
  const auto& bd = context.breakdown();
  wait.fraction = bd.averageFraction(StepCategory::kDataLoader);
  wait.ms = bd.average_ns[static_cast<size_t>(StepCategory::kDataLoader)] / 1e6;
  const auto& attribution = context.summary().attribution;
  wait.host_ms =
      attribution.average_host_ns[static_cast<size_t>(analyzer::HostCause::kDataLoader)] / 1e6;
  if (wait.fraction <= options().min_wait_fraction) return;
  for (size_t s = 0; s < bd.per_step.size(); ++s)
    if (bd.per_step[s].ns[static_cast<size_t>(StepCategory::kDataLoader)] > 0)
      evidence.step(static_cast<int>(s));
  report(context, sink, wait, evidence, effect);
}

// Without DataLoader ranges (a LibTorch loop recorded without markers) the wait is the
// inferred input phase of each iteration (docs/analyses.md §2b), saved the same way.
void DataLoaderWaitRule::checkInferred(const analyzer::AnalysisContext& context,
                                       analyzer::DiagnosticSink& sink) const {
  const analyzer::InferredInputWait& inferred = context.summary().input_wait;
  if (!inferred.inferred) {
    sink.notChecked(
        "no DataLoader ranges (enumerate(DataLoader)#...__next__) inside the steps, and the wait could "
        "not be inferred: " +
        inferred.reason +
        "; LibTorch loops can emit them with steplint::"
        "DataLoaderWait or RECORD_USER_SCOPE");
    return;
  }
  const double step_ns = context.breakdown().average_total_ns;
  Wait wait;
  wait.fraction = step_ns > 0 ? inferred.average_ns / step_ns : 0;
  wait.ms = inferred.average_ns / 1e6;
  if (wait.fraction <= options().min_wait_fraction) return;
  // The training thread idles while worker threads build the batches, or builds them itself.
  wait.multi_process = inferred.average_worker_wait_ns * 2 >= inferred.average_ns;
  wait.single_process = !wait.multi_process;
  wait.inferred = &inferred;
  EvidenceBuilder evidence(context);
  EffectBuilder effect;
  for (size_t s = 0; s < inferred.per_step_ns.size(); ++s)
    if (inferred.per_step_ns[s] > 0) evidence.step(static_cast<int>(s));
  for (const analyzer::Interval& iv : inferred.ranges.intervals()) {
    evidence.range(iv.start, iv.end);
    effect.hostRange(iv.start, iv.end);
  }
  report(context, sink, wait, evidence, effect);
}

namespace {

/// The worker count to suggest and why, from the GPUs this process used (a rule of thumb per
/// GPU; none on a CPU-only trace), the cores per training process, and the count the trace
/// records (dataloader_workers: steplint record, or the trainer's own metadata).
struct WorkerAdvice {
  int64_t suggested = 0;
  std::optional<int64_t> recorded;
  int64_t cores = 0;      // of the host; 0: unknown
  int64_t processes = 1;  // training processes on the host
  std::string why;        // "4 per GPU x 1 GPU used, at most cpu-cores - 1 = 3"
  /// The recorded workers and the training processes want more cores than the host has (SL102).
  bool oversubscribed() const {
    return recorded && cores > 0 && processesWantingCores(*recorded, processes) > cores;
  }
};

WorkerAdvice adviseWorkers(const trace::TraceMetadata& meta, size_t gpus, int64_t per_gpu,
                           int64_t cpu_cores_option) {
  WorkerAdvice a;
  a.recorded = metadataInteger(meta, {"dataloader_workers", "num_workers"});
  if (a.recorded && *a.recorded < 0) a.recorded.reset();
  a.cores = hostCpuCores(meta, cpu_cores_option);
  a.processes = std::max<int64_t>(1, metadataInteger(meta, {"local_world_size"}).value_or(1));
  a.suggested = per_gpu * std::max<int64_t>(1, static_cast<int64_t>(gpus));
  std::string cap = "up to the number of CPU cores";
  if (a.cores > 0) {
    const int64_t most = std::max<int64_t>(1, a.cores / a.processes - 1);
    a.suggested = std::min(a.suggested, most);
    cap = a.processes > 1 ? strf("at most cpu-cores / %lld processes - 1 = %lld",
                                 static_cast<long long>(a.processes), static_cast<long long>(most))
                          : strf("at most cpu-cores - 1 = %lld", static_cast<long long>(most));
  }
  a.why = gpus == 0
              ? "no GPU in the trace: the workers share the CPU cores with the training, " + cap
              : strf("%lld per GPU x %zu GPU%s used, %s", static_cast<long long>(per_gpu), gpus,
                     gpus == 1 ? "" : "s", cap.c_str());
  return a;
}

/// The fix for a multi-process loader, against the count the trace records.
std::string workerFix(const WorkerAdvice& a) {
  const std::string n = std::to_string(a.suggested);
  if (!a.recorded)
    return "raise num_workers to " + n + " if it is lower (" + a.why +
           ") and prefetch_factor; keep persistent_workers=True";
  const std::string have = std::to_string(*a.recorded);
  if (a.oversubscribed())
    return strf(
        "num_workers=%s already wants more cores than the host has (%s workers + the training "
        "process on %lld CPU cores, SL102): %smake each batch cheaper to load",
        have.c_str(), have.c_str(), static_cast<long long>(a.cores),
        *a.recorded > a.suggested ? ("lower it to " + n + " and ").c_str() : "");
  if (*a.recorded >= a.suggested)
    return "keep num_workers=" + have + " (at least the " + n + " suggested: " + a.why +
           "); more workers will not help when they are saturated";
  return "raise num_workers from " + have + " to " + n + " (" + a.why +
         ") and prefetch_factor; keep persistent_workers=True";
}

}  // namespace

void DataLoaderWaitRule::report(const analyzer::AnalysisContext& context,
                                analyzer::DiagnosticSink& sink, const Wait& wait,
                                EvidenceBuilder& evidence, EffectBuilder& effect) const {
  const trace::TraceModel& model = context.model();
  std::set<int32_t> gpus;
  for (const trace::Event& e : model.events)
    if (trace::isDeviceOp(e.kind)) gpus.insert(model.deviceOf(e));
  const WorkerAdvice advice =
      adviseWorkers(model.metadata, gpus.size(), workers_per_gpu(), options().cpu_cores);
  evidence.metric("dataloader_fraction", wait.fraction);
  evidence.metric("dataloader_ms_per_step", wait.ms);
  if (!wait.inferred) evidence.metric("host_wait_ms_per_step", wait.host_ms);
  evidence.metric("threshold_fraction", options().min_wait_fraction);
  evidence.metric("gpus_used", static_cast<double>(gpus.size()));
  evidence.metric("recommended_workers", static_cast<double>(advice.suggested));
  if (advice.recorded) evidence.metric("dataloader_workers", static_cast<double>(*advice.recorded));
  if (wait.inferred) {
    evidence.metric("dataloader_inferred", 1);
    evidence.metric("worker_wait_ms_per_step", wait.inferred->average_worker_wait_ns / 1e6);
  }

  analyzer::Diagnostic d = makeDiagnostic();
  d.message = wait.inferred ? inferredMessage(wait) : measuredMessage(wait);
  d.evidence = evidence.take();
  d.saving.method =
      "the DataLoader waits removed: enough loader workers prepare the next batches while the step "
      "runs";
  if (wait.inferred) d.saving.method += "; the wait is " + wait.inferred->method();
  // The replay removes the waits only; workers that take the training thread's cores also slow
  // its own work, which removing the loading would give back too.
  if (advice.oversubscribed())
    d.saving.method += strf(
        "; the %lld workers also compete with the training thread for the %lld CPU cores (SL102), "
        "which is not counted: removing the loading cost may save more",
        static_cast<long long>(*advice.recorded), static_cast<long long>(advice.cores));
  d.effect = effect.take(/*host_factor=*/0);
  const std::string n = std::to_string(advice.suggested);
  if (wait.single_process || !wait.multi_process) {
    d.fix.push_back(
        "LibTorch: torch::data::make_data_loader(dataset, torch::data::DataLoaderOptions()"
        ".batch_size(B).workers(" +
        n + "))");
    // Pinned memory speeds up host-to-device copies: nothing to pin for without a GPU.
    d.fix.push_back("Python: DataLoader(..., num_workers=" + n +
                    (gpus.empty() ? "" : ", pin_memory=True") + ", persistent_workers=True) (" +
                    advice.why + ")");
  } else {
    d.fix.push_back(workerFix(advice));
    d.fix.push_back(gpus.empty() ? "if the workers are already saturated, make decoding/"
                                   "augmentation cheaper (pre-processed or pre-resized data)"
                                 : "if the workers are already saturated, make decoding/"
                                   "augmentation cheaper (pre-resized data, GPU augmentation, "
                                   "NVIDIA DALI)");
  }
  if (wait.inferred)
    d.fix.push_back(
        "LibTorch: mark the wait for an exact figure: steplint::DataLoaderWait (steplint/collector.h)");
  d.fingerprint_key = "dataloader";
  sink.report(std::move(d));
}

}  // namespace steplint::rules
