#include <algorithm>
#include <cmath>

#include "common/rule_support.h"
#include "common/trace_tree.h"
#include "steplint/analyzer/name_memo.h"
#include "steplint/analyzer/rule_registry.h"

namespace steplint::rules {

using namespace common;  // rules/src/common helpers

using analyzer::Category;
using analyzer::Severity;

namespace {

bool isEmptyCacheName(std::string_view name) {
  return name.find("empty_cache") != std::string_view::npos ||
         name.find("emptyCache") != std::string_view::npos;
}
bool isFreeCall(std::string_view name) {
  return startsWith(name, "cudaFree") && !startsWith(name, "cudaFreeHost") &&
         !startsWith(name, "cudaFreeAsync");
}
bool isMallocCall(std::string_view name) {
  return startsWith(name, "cudaMalloc") && !startsWith(name, "cudaMallocHost") &&
         !startsWith(name, "cudaMallocAsync");
}

}  // namespace

namespace {

struct Options {
  double min_step_fraction = 0.5;
  double min_frees_per_step = 1.0;
};

/// SL205: the CUDA caching allocator's cache is emptied inside the training loop
/// (torch.cuda.empty_cache()), so memory is freed and re-allocated with cudaFree/cudaMalloc
/// every step.
class EmptyCacheInLoopRule final : public analyzer::RuleWith<Options> {
 public:
  using RuleWith::RuleWith;
  void check(const analyzer::AnalysisContext& context,
             analyzer::DiagnosticSink& sink) const override;
};

}  // namespace

void registerSl205(analyzer::RuleRegistry& registry) {
  registry.add<EmptyCacheInLoopRule>(
      {"SL205", "empty-cache-in-loop", Category::kTransfer, Severity::kWarning, true,
       "the CUDA allocator cache is emptied every step (cudaFree/cudaMalloc churn)"},
      {
          analyzer::option(
              "min-step-fraction", &Options::min_step_fraction,
              "flag when empty_cache or cudaFree occurs in at least this share of the steps",
              analyzer::kShareBounds),
          analyzer::option(
              "min-frees-per-step", &Options::min_frees_per_step,
              "without an empty_cache range: cudaFree calls per step that count as a storm"),
      });
}

void EmptyCacheInLoopRule::check(const analyzer::AnalysisContext& context,
                                 analyzer::DiagnosticSink& sink) const {
  if (!requireKnownDevice(context, sink, kCudaOnly, "cudaFree/cudaMalloc calls")) return;
  if (!requireGpuAndSteps(context, sink)) return;
  const auto& steps = context.steps().steps;
  if (!context.steps().stepsAreIterations()) {
    sink.notChecked(
        "no ProfilerStep#N ranges and no iterations detected: calls inside the loop cannot be told from one-time setup");
    return;
  }
  const trace::TraceModel& model = context.model();
  std::vector<int64_t> ranges(steps.size()), frees(steps.size()), mallocs(steps.size()),
      cost(steps.size());
  EvidenceBuilder evidence(context);
  EffectBuilder effect;
  analyzer::NameMemo empty_cache_name(model, isEmptyCacheName);
  analyzer::NameMemo free_name(model, isFreeCall);
  analyzer::NameMemo malloc_name(model, isMallocCall);
  for (uint32_t i = 0; i < model.events.size(); ++i) {
    const trace::Event& e = model.events[i];
    const bool range = trace::isCpuRange(e.kind) && empty_cache_name(e.name);
    const bool free_call = trace::isLaunchApi(e.kind) && free_name(e.name);
    const bool malloc_call = trace::isLaunchApi(e.kind) && malloc_name(e.name);
    if (!range && !free_call && !malloc_call) continue;
    const int step = hostStepAt(context, e.start_ns);
    if (step < 0) continue;
    // An empty_cache range covers the calls (and the nested ranges) inside it: count its time once.
    const bool inside_range = findAncestor(model, i, [&](const trace::Event& a) {
                                return trace::isCpuRange(a.kind) && empty_cache_name(a.name);
                              }) != trace::kNoIndex;
    if (range && inside_range) continue;
    if (range) ++ranges[step];
    if (free_call) ++frees[step];
    if (malloc_call) ++mallocs[step];
    if (!inside_range) {
      cost[step] += e.dur_ns;
      effect.hostEvent(model, i);
    }
    if (range || free_call) {
      evidence.step(step);
      evidence.eventWithRange(i);
    }
  }
  const size_t needed = std::max<size_t>(
      1, static_cast<size_t>(std::ceil(options().min_step_fraction * steps.size())));
  const bool explicit_calls = stepsWithAny(ranges) >= needed;
  const bool free_storm =
      stepsWithAny(frees) >= needed && perStepAverage(frees) >= options().min_frees_per_step;
  if (!explicit_calls && !free_storm) return;
  const double cost_ms = perStepAverage(cost) / 1e6;
  evidence.metric("empty_cache_steps", static_cast<double>(stepsWithAny(ranges)));
  evidence.metric("cuda_free_per_step", perStepAverage(frees));
  evidence.metric("cuda_malloc_per_step", perStepAverage(mallocs));
  evidence.metric("host_ms_per_step", cost_ms);

  analyzer::Diagnostic d = makeDiagnostic();
  const std::string what =
      explicit_calls
          ? strf("empty_cache() runs in %zu of %zu steps", stepsWithAny(ranges), steps.size())
          : strf("cudaFree runs in %zu of %zu steps", stepsWithAny(frees), steps.size());
  d.message = strf("%s: %s cudaFree + %s cudaMalloc calls/step cost %.2f ms/step of host time",
                   what.c_str(), formatCount(perStepAverage(frees)).c_str(),
                   formatCount(perStepAverage(mallocs)).c_str(), cost_ms);
  d.evidence = evidence.take();
  d.saving.method =
      "the empty_cache ranges and the cudaFree/cudaMalloc calls inside the steps removed (with the "
      "device synchronize inside cudaFree): a warm caching allocator makes none";
  d.effect = effect.take(/*host_factor=*/0);
  d.fix = {
      "LibTorch: remove c10::cuda::CUDACachingAllocator::emptyCache() from the loop; call it, if at all, between "
      "phases (after validation, before a larger model)",
      "Python: remove torch.cuda.empty_cache() from the training step; against fragmentation set "
      "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True instead",
  };
  d.fingerprint_key = explicit_calls ? "empty-cache" : "cuda-free-storm";
  sink.report(std::move(d));
}

}  // namespace steplint::rules
