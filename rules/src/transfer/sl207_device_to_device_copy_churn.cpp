// SL207 device-to-device-copy-churn: many small copies inside the GPU per step. Each costs a
// launch on the host (and an op dispatch: aten::clone allocates, then copies) and a kernel or
// DtoD memcpy too short to use the GPU; together they can take a tenth of a step (issue 13:
// 13.75 % of a step went to a compiled graph's copy_/clone).
#include <algorithm>
#include <map>

#include "common/kernel_util.h"
#include "common/rule_support.h"
#include "common/shared_data.h"
#include "common/trace_tree.h"
#include "steplint/analyzer/name_memo.h"
#include "steplint/analyzer/rule_registry.h"

namespace steplint::rules {

using namespace common;  // rules/src/common helpers

using analyzer::Category;
using analyzer::Severity;

namespace {

struct Options {
  double min_copies_per_step = 50.0;
  double max_copy_us = 20.0;
  double min_step_share = 0.01;
};

/// SL207: hundreds of small device-to-device copies per step (Memcpy DtoD, copy kernels of
/// aten::copy_ / clone / contiguous), as eager code and torch.compile graphs produce (issue 13).
class DeviceToDeviceCopyChurnRule final : public analyzer::RuleWith<Options> {
 public:
  using RuleWith::RuleWith;
  void check(const analyzer::AnalysisContext& context,
             analyzer::DiagnosticSink& sink) const override;
};

}  // namespace

void registerSl207(analyzer::RuleRegistry& registry) {
  registry.add<DeviceToDeviceCopyChurnRule>(
      {"SL207", "device-to-device-copy-churn", Category::kTransfer, Severity::kWarning, true,
       "many small device-to-device copies per step (copy_, clone, Memcpy DtoD)"},
      {
          analyzer::option(
              "min-copies-per-step", &Options::min_copies_per_step,
              "flag when the small device-to-device copies per step reach this on average"),
          analyzer::option("max-copy-us", &Options::max_copy_us,
                           "a copy counts as small when its GPU time is below this (µs)"),
          analyzer::option(
              "min-step-share", &Options::min_step_share,
              "... and their GPU time or their ops' host time is at least this share of the average step",
              analyzer::kShareBounds),
      });
}

namespace {

// Ops whose only device work is a copy: removing the op removes the copy.
bool isCopyOpName(std::string_view n) {
  return n == "aten::copy_" || n == "aten::clone" || n == "aten::contiguous" ||
         n == "aten::reshape" || n == "aten::_reshape_copy";
}

struct DeviceCopy {
  uint32_t op = trace::kNoIndex;      // the kernel or memcpy
  uint32_t issuer = trace::kNoIndex;  // outermost copy op around its launch, else the launch call
  int step = -1;
  bool memcpy = false;
};

/// Classifies device ops: a device-to-device copy inside a kept step gets its step and issuer;
/// anything else keeps step -1.
class CopyFinder {
 public:
  explicit CopyFinder(const analyzer::AnalysisContext& context)
      : context_(context),
        model_(context.model()),
        copy_op_(model_, isCopyOpName),
        to_copy_(model_, [](std::string_view n) { return n == "aten::_to_copy"; }) {}

  DeviceCopy find(uint32_t index) {
    const trace::Event& e = model_.events[index];
    DeviceCopy c;
    c.op = index;
    c.memcpy = e.kind == trace::EventKind::kMemcpy;
    const trace::GpuDetail* g = model_.gpu(e);
    if (c.memcpy && (!g || g->copy_kind != trace::CopyKind::kDtoD)) return c;
    const uint32_t call =
        e.link != trace::kNoIndex && trace::isLaunchApi(model_.events[e.link].kind)
            ? e.link
            : trace::kNoIndex;
    if (call == trace::kNoIndex) {
      if (c.memcpy)
        c.step = context_.stepAt(e.start_ns);  // a bare DtoD memcpy: no host side to remove
      return c;
    }
    // The chain of copy ops directly around the launch (aten::contiguous > aten::clone >
    // aten::copy_); its outermost op is what the fix removes.
    uint32_t outer = trace::kNoIndex;
    for (uint32_t p = enclosingCpuRange(model_, call); p != trace::kNoIndex;
         p = model_.events[p].parent) {
      const trace::Event& r = model_.events[p];
      // Conversions (dtype, layout, device: aten::to > aten::_to_copy > aten::copy_) are
      // not churn: autocast, channels_last and input moves are other rules' business.
      if (to_copy_(r.name)) return c;
      if (r.kind != trace::EventKind::kCpuOp || !copy_op_(r.name)) break;
      outer = p;
    }
    if (outer == trace::kNoIndex && !c.memcpy) return c;  // a kernel of some other op
    c.issuer = outer != trace::kNoIndex ? outer : call;
    c.step = hostStepAt(context_, model_.events[call].start_ns);
    return c;
  }

 private:
  const analyzer::AnalysisContext& context_;
  const trace::TraceModel& model_;
  analyzer::NameMemo<bool (*)(std::string_view)> copy_op_;
  analyzer::NameMemo<bool (*)(std::string_view)> to_copy_;
};

/// The issuer's name and what it runs in ("aten::copy_ under
/// torch.distributed.ddp.reducer::copy_bucket_to_grad"): the caller is what a user changes.
std::string issuerLabel(const trace::TraceModel& model, uint32_t issuer) {
  std::string label(model.name(model.events[issuer]));
  const uint32_t parent = enclosingCpuRange(model, issuer);
  if (parent == trace::kNoIndex) return label;
  const std::string_view context = model.name(model.events[parent]);
  return common::startsWith(context, "ProfilerStep#") ? label
                                                      : label + " under " + std::string(context);
}

struct ChurnTotals {
  std::vector<int64_t> count, memcpys;
  std::vector<int64_t> durations;
  std::vector<uint32_t> ops, issuers;
  std::map<std::string, int64_t> by_issuer;  // "aten::copy_ under <enclosing range>"
  analyzer::IntervalSetBuilder host;
  int64_t gpu_ns = 0;
};

}  // namespace

void DeviceToDeviceCopyChurnRule::check(const analyzer::AnalysisContext& context,
                                        analyzer::DiagnosticSink& sink) const {
  if (!requireGpuAndSteps(context, sink)) return;
  const trace::TraceModel& model = context.model();
  const size_t n_steps = context.steps().steps.size();
  ChurnTotals t;
  t.count.assign(n_steps, 0);
  t.memcpys.assign(n_steps, 0);
  CopyFinder finder(context);
  const int64_t max_copy_ns = common::microsOptionToNs(options().max_copy_us);
  for (const uint32_t i : kindIndex(context).device_ops) {
    const trace::Event& e = model.events[i];
    if (e.kind == trace::EventKind::kMemset || e.dur_ns >= max_copy_ns) continue;
    const DeviceCopy c = finder.find(i);
    if (c.step < 0) continue;
    ++t.count[static_cast<size_t>(c.step)];
    t.memcpys[static_cast<size_t>(c.step)] += c.memcpy ? 1 : 0;
    t.durations.push_back(e.dur_ns);
    t.gpu_ns += e.dur_ns;
    t.ops.push_back(i);
    if (c.issuer == trace::kNoIndex) continue;
    const trace::Event& issuer = model.events[c.issuer];
    t.host.add(issuer.start_ns, issuer.end_ns());
    if (t.issuers.empty() || t.issuers.back() != c.issuer) {
      t.issuers.push_back(c.issuer);
      ++t.by_issuer[issuerLabel(model, c.issuer)];
    }
  }
  const double per_step = perStepAverage(t.count);
  // At least one copy: a threshold of 0 must not report "0 copies per step".
  if (per_step <= 0 || per_step < options().min_copies_per_step) return;
  const double steps = static_cast<double>(n_steps);
  const double gpu_ms = static_cast<double>(t.gpu_ns) / steps / 1e6;
  const analyzer::IntervalSet host = t.host.build();
  const double host_ms = static_cast<double>(host.length()) / steps / 1e6;
  const double step_ms = context.averageStepMs();
  if (step_ms <= 0 || std::max(gpu_ms, host_ms) < options().min_step_share * step_ms) return;

  const double memcpy_per_step = perStepAverage(t.memcpys);
  const double median_us = medianOf(t.durations) / 1e3;
  analyzer::Diagnostic d = makeDiagnostic();
  std::string top = "Memcpy DtoD without an op";
  if (!t.by_issuer.empty())
    top =
        std::max_element(t.by_issuer.begin(), t.by_issuer.end(), [](const auto& a, const auto& b) {
          return a.second < b.second;
        })->first;
  d.message = strf(
      "%s small device-to-device copies per step (%s copy kernels, %s Memcpy DtoD; median %.1f µs) take "
      "%.2f ms of GPU time and %.2f ms on the host per step; most from %s",
      formatCount(per_step).c_str(), formatCount(per_step - memcpy_per_step).c_str(),
      formatCount(memcpy_per_step).c_str(), median_us, gpu_ms, host_ms, top.c_str());
  d.evidence.steps = keptStepNumbers(context);
  d.evidence.events = sampleEvents(t.ops);
  for (uint32_t i : sampleEvents(t.issuers, kMaxEvidenceRanges))
    d.evidence.ranges.push_back({model.events[i].start_ns, model.events[i].end_ns()});
  d.evidence.metrics = {
      {"copies_per_step", per_step}, {"memcpy_dtod_per_step", memcpy_per_step},
      {"median_copy_us", median_us}, {"gpu_ms_per_step", gpu_ms},
      {"host_ms_per_step", host_ms}, {"threshold", options().min_copies_per_step}};
  EffectBuilder effect;
  for (const analyzer::Interval& iv : host.intervals()) effect.hostRange(iv.start, iv.end);
  for (uint32_t i : t.ops) effect.deviceOp(i);
  d.saving.method =
      "the small copies and their ops' host time removed (half of them at the low end)";
  d.effect = effect.take(/*host_factor=*/0, /*device_factor=*/0, /*host_factor_worst=*/0.5,
                         /*device_factor_worst=*/0.5);
  d.fix = {
      "LibTorch: drop .clone() / .contiguous() / .copy_() of small tensors from the step: write results in place or "
      "into buffers allocated once; batch per-tensor copies with at::_foreach_copy_ or one flat buffer",
      "Python: the same for tensor.clone(), .contiguous(), .copy_(); torch._foreach_copy_ for per-parameter copies "
      "(EMA, weight averaging); with torch.compile, inputs the graph mutates (BatchNorm running stats, buffers) are "
      "copied back every call, and mode=\"reduce-overhead\" (CUDA graphs) removes the launch cost"};
  // DDP's reducer copies every gradient between its bucket and .grad unless the gradients are
  // views of the buckets: one constructor argument removes all of these copies.
  if (top.find("ddp.reducer::copy") != std::string::npos)
    d.fix.insert(d.fix.begin(),
                 "DistributedDataParallel(model, ..., gradient_as_bucket_view=True) makes the "
                 "gradients views of DDP's buckets, so the reducer no longer copies each one");
  d.fingerprint_key = "dtod-copies";
  sink.report(std::move(d));
}

}  // namespace steplint::rules
