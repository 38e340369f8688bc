// SL102 dataloader-workers-exceed-cores: each DataLoader worker is a process that wants a core
// of its own, and so does each training process. With more of them than cores the workers
// time-slice against each other and against the thread that launches GPU work. Neither count
// is in a torch.profiler trace by itself: the worker count comes from metadata the trainer
// adds, the core count from `steplint record` (cpu_cores) or the rule's option.
#include <algorithm>

#include "common/rule_support.h"
#include "common/run_metadata.h"
#include "steplint/analyzer/rule_registry.h"

namespace steplint::rules {

using namespace common;  // rules/src/common helpers

namespace {

struct Options {
  int64_t cpu_cores = 0;
  int64_t processes_per_host = 0;
};

/// SL102: more DataLoader workers than the host has CPU cores for them.
class DataLoaderWorkersExceedCoresRule final : public analyzer::RuleWith<Options> {
 public:
  using RuleWith::RuleWith;
  void check(const analyzer::AnalysisContext& context,
             analyzer::DiagnosticSink& sink) const override;
};

}  // namespace

void registerSl102(analyzer::RuleRegistry& registry) {
  registry.add<DataLoaderWorkersExceedCoresRule>(
      {"SL102", "dataloader-workers-exceed-cores", analyzer::Category::kInputPipeline,
       analyzer::Severity::kWarning, true, "more DataLoader workers than CPU cores to run them"},
      {
          analyzer::option(
              "cpu-cores", &Options::cpu_cores,
              "CPU cores of the host (0 = the trace's cpu_cores, written by steplint record)"),
          analyzer::option(
              "processes-per-host", &Options::processes_per_host,
              "training processes sharing the host (0 = the trace's local_world_size, else 1)"),
      });
}

void DataLoaderWorkersExceedCoresRule::check(const analyzer::AnalysisContext& context,
                                             analyzer::DiagnosticSink& sink) const {
  const trace::TraceMetadata& meta = context.model().metadata;
  const auto workers = metadataInteger(meta, {"dataloader_workers", "num_workers"});
  if (!workers || *workers < 0)
    return sink.notChecked(
        "the DataLoader worker count is not in the trace; record it as metadata: "
        "steplint::annotate(\"dataloader_workers\", N) or, in Python, "
        "prof.add_metadata_json(\"dataloader_workers\", str(N)) (steplint record writes it for "
        "Python programs)");
  const int64_t cores = hostCpuCores(meta, options().cpu_cores);
  if (cores <= 0)
    return sink.notChecked(
        "the host's CPU core count is unknown: record with steplint record (it writes "
        "cpu_cores) or set cpu-cores in [lint.options.SL102]");
  const int64_t processes =
      options().processes_per_host > 0
          ? options().processes_per_host
          : std::max<int64_t>(1, metadataInteger(meta, {"local_world_size"}).value_or(1));
  const int64_t wanted = processesWantingCores(*workers, processes);
  if (wanted <= cores) return;
  const int64_t recommended = std::max<int64_t>(1, cores / processes - 1);
  analyzer::Diagnostic d = makeDiagnostic();
  d.message = strf(
      "%lld DataLoader workers + 1 training process%s on %lld CPU cores: %lld processes want a "
      "core each",
      static_cast<long long>(*workers),
      processes > 1
          ? strf(", x %lld processes on this host", static_cast<long long>(processes)).c_str()
          : "",
      static_cast<long long>(cores), static_cast<long long>(wanted));
  d.evidence.metrics = {{"dataloader_workers", static_cast<double>(*workers)},
                        {"cpu_cores", static_cast<double>(cores)},
                        {"processes_per_host", static_cast<double>(processes)},
                        {"recommended_workers", static_cast<double>(recommended)}};
  d.saving.method =
      "not estimated: the trace shows the counts, not how much the oversubscribed workers slow "
      "each other and the training thread (SL101 measures the resulting DataLoader wait)";
  const std::string n = std::to_string(recommended);
  d.fix = {
      "LibTorch: torch::data::DataLoaderOptions().workers(" + n +
          ") (CPU cores / processes per host - 1)",
      "Python: DataLoader(..., num_workers=" + n +
          ", persistent_workers=True); if loading is still the "
          "bottleneck, make it cheaper (pre-processed data, GPU decoding/augmentation) rather than adding workers",
      "set torch.set_num_threads(1) in worker_init_fn so each worker's intra-op pool does not multiply the "
      "threads further"};
  d.fingerprint_key = "dataloader-workers";
  sink.report(std::move(d));
}

}  // namespace steplint::rules
