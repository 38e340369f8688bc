#include <algorithm>
#include <set>

#include "common/rule_support.h"
#include "common/run_metadata.h"
#include "steplint/analyzer/breakdown.h"
#include "steplint/analyzer/name_memo.h"
#include "steplint/analyzer/rule_registry.h"

namespace steplint::rules {

using namespace common;  // NOLINT(google-build-using-namespace): rules/src/common helpers

using analyzer::Category;
using analyzer::Severity;
using analyzer::StepCategory;

namespace {

struct Options {
  double min_wait_fraction = 0.05;
  int64_t cpu_cores = 0;
  int64_t workers_per_gpu = 4;
};

/// SL101: the training loop waits for the DataLoader for a large share of each step.
class DataLoaderWaitRule final : public analyzer::RuleWith<Options> {
 public:
  using RuleWith::RuleWith;
  void check(const analyzer::AnalysisContext& context, analyzer::DiagnosticSink& sink) const override;

 private:
  // The recommendation needs at least one worker per GPU.
  int64_t workers_per_gpu() const { return std::max<int64_t>(1, options().workers_per_gpu); }
};

}  // namespace

void registerSl101(analyzer::RuleRegistry& registry) {
  registry.add<DataLoaderWaitRule>(
      {"SL101", "dataloader-wait", Category::kInputPipeline, Severity::kWarning, true,
       "a large share of each step waits for the DataLoader"},
      {
          analyzer::option("min-wait-fraction", &Options::min_wait_fraction,
                           "flag when the DataLoader share of the average step exceeds this (tb_plugin R1)"),
          analyzer::option("cpu-cores", &Options::cpu_cores,
                           "CPU cores available to this process, caps the recommended worker count (0 = unknown)"),
          analyzer::option("workers-per-gpu", &Options::workers_per_gpu,
                           "rule-of-thumb DataLoader workers per GPU used by this process"),
      });
}

void DataLoaderWaitRule::check(const analyzer::AnalysisContext& context, analyzer::DiagnosticSink& sink) const {
  const auto& steps = context.steps().steps;
  if (steps.empty()) {
    sink.notChecked("no training steps in this trace (no ProfilerStep#N ranges and no CPU ops)");
    return;
  }
  const trace::TraceModel& model = context.model();
  EvidenceBuilder evidence(context);
  EffectBuilder effect;
  bool single_process = false, multi_process = false, any_loader = false;
  analyzer::NameMemo loader_name(model, analyzer::isDataLoaderName);
  for (uint32_t i = 0; i < model.events.size(); ++i) {
    const trace::Event& e = model.events[i];
    if (!trace::isCpuRange(e.kind) || !loader_name(e.name)) continue;
    const int step = hostStepAt(context, e.start_ns);
    if (step < 0) continue;
    any_loader = true;
    const std::string_view name = model.name(e);
    single_process |= name.find("_SingleProcessDataLoaderIter") != std::string_view::npos;
    multi_process |= name.find("_MultiProcessingDataLoaderIter") != std::string_view::npos;
    evidence.eventWithRange(i);
    effect.hostEvent(model, i);
  }
  if (!any_loader) {
    sink.notChecked("no DataLoader ranges (enumerate(DataLoader)#...__next__) inside the steps; "
                    "LibTorch loops can emit them with RECORD_USER_SCOPE");
    return;
  }
  const auto& bd = context.breakdown();
  const double fraction = bd.averageFraction(StepCategory::kDataLoader);
  const double wait_ms = bd.average_ns[static_cast<size_t>(StepCategory::kDataLoader)] / 1e6;
  if (fraction <= options().min_wait_fraction) return;

  for (size_t s = 0; s < bd.per_step.size(); ++s)
    if (bd.per_step[s].ns[static_cast<size_t>(StepCategory::kDataLoader)] > 0) evidence.step(static_cast<int>(s));
  std::set<int32_t> gpus;
  for (const trace::Event& e : model.events)
    if (trace::isDeviceOp(e.kind)) gpus.insert(model.deviceOf(e));
  const int64_t gpu_count = std::max<int64_t>(1, static_cast<int64_t>(gpus.size()));
  int64_t workers = workers_per_gpu() * gpu_count;
  const int64_t cores = hostCpuCores(model.metadata, options().cpu_cores);
  if (cores > 0) workers = std::min(workers, std::max<int64_t>(1, cores - 1));
  const std::string cap = cores > 0 ? strf("at most cpu-cores - 1 = %lld", static_cast<long long>(cores - 1))
                                    : std::string("up to the number of CPU cores");
  const std::string why = strf("%lld per GPU x %lld GPU%s used, %s", static_cast<long long>(workers_per_gpu()),
                               static_cast<long long>(gpu_count), gpu_count == 1 ? "" : "s", cap.c_str());
  evidence.metric("dataloader_fraction", fraction);
  evidence.metric("dataloader_ms_per_step", wait_ms);
  evidence.metric("threshold_fraction", options().min_wait_fraction);
  evidence.metric("gpus_used", static_cast<double>(gpus.size()));
  evidence.metric("recommended_workers", static_cast<double>(workers));

  analyzer::Diagnostic d = makeDiagnostic();
  const char* kind = single_process ? " (single-process loader: num_workers=0)"
                                    : multi_process ? " (multi-process loader)" : "";
  d.message = strf("%.1f%% of step time (%.1f ms/step) waiting for the DataLoader%s", 100.0 * fraction, wait_ms, kind);
  d.evidence = evidence.take();
  d.saving.method = "the DataLoader waits removed: enough loader workers prepare the next batches while the step "
                   "runs";
  d.effect = effect.take(/*host_factor=*/0);
  const std::string n = std::to_string(workers);
  if (single_process || !multi_process) {
    d.fix.push_back("LibTorch: torch::data::make_data_loader(dataset, torch::data::DataLoaderOptions()"
                    ".batch_size(B).workers(" + n + "))");
    d.fix.push_back("Python: DataLoader(..., num_workers=" + n + ", pin_memory=True, persistent_workers=True) (" + why +
                    ")");
  } else {
    d.fix.push_back("raise num_workers to " + n + " (" + why + ") and prefetch_factor; keep persistent_workers=True");
    d.fix.push_back("if the workers are already saturated, make decoding/augmentation cheaper "
                    "(pre-resized data, GPU augmentation, NVIDIA DALI)");
  }
  d.fingerprint_key = "dataloader";
  sink.report(std::move(d));
}

}  // namespace steplint::rules
