#include "optimizer/sl606_clip_regions.h"

#include <algorithm>
#include <limits>
#include <string_view>

#include "common/optimizer_ranges.h"
#include "common/trace_tree.h"
#include "steplint/analyzer/name_memo.h"

namespace steplint::rules {
namespace {

using trace::Event;
using trace::kNoIndex;

bool isClipRangeName(std::string_view n) {
  return n.find("clip_grad_norm") != std::string_view::npos ||
         n.find("clip_grad_value") != std::string_view::npos;
}

bool isNormOp(std::string_view n) {
  return n == "aten::linalg_vector_norm" || n == "aten::norm" || n == "aten::frobenius_norm";
}

// Ops between the per-parameter ones that do no work of their own: g.detach(), .to(device)
// on a tensor already there, Tensor::data().
bool isPassThrough(std::string_view n) {
  return n == "aten::detach" || n == "aten::to" || n == "aten::alias";
}

// The total norm and the clip coefficient: stack, norm, max_norm / (total + eps), clamp, and
// error_if_nonfinite's check.
bool isTotalNormOp(std::string_view n) {
  static constexpr std::string_view kNames[] = {"aten::stack",
                                                "aten::linalg_vector_norm",
                                                "aten::norm",
                                                "aten::add",
                                                "aten::div",
                                                "aten::mul",
                                                "aten::reciprocal",
                                                "aten::clamp",
                                                "aten::clamp_max",
                                                "aten::detach",
                                                "aten::to",
                                                "aten::_to_copy",
                                                "aten::isnan",
                                                "aten::isinf",
                                                "aten::logical_or",
                                                "aten::item",
                                                "aten::_local_scalar_dense",
                                                "aten::is_nonzero"};
  return std::find(std::begin(kNames), std::end(kNames), n) != std::end(kNames);
}

bool isScalarRead(std::string_view n) {
  return n == "aten::item" || n == "aten::_local_scalar_dense" || n == "aten::is_nonzero";
}

/// The next event on the track with the same parent as `index`, or kNoIndex (skips the
/// events nested in `index`).
uint32_t nextSibling(const trace::TraceModel& model, uint32_t index) {
  const Event& e = model.events[index];
  const trace::Track& track = model.tracks[e.track];
  const uint32_t end = track.first_event + track.event_count;
  for (uint32_t k = index + 1; k < end; ++k) {
    const Event& n = model.events[k];
    if (n.depth > e.depth) continue;
    return n.depth == e.depth && n.parent == e.parent ? k : kNoIndex;
  }
  return kNoIndex;
}

/// torch::nn::utils::clip_grad_norm_'s loop starting at the norm op `first`: per-parameter
/// norms, the total norm, per-parameter mul_. Returns the region, or one with norm_ops 0.
ClipRegion unnamedRegionAt(const trace::TraceModel& model, uint32_t first) {
  ClipRegion r;
  uint32_t i = first, last = first;
  int64_t norms = 0;
  for (; i != kNoIndex; i = nextSibling(model, i)) {  // per-parameter norms
    const std::string_view n = model.name(model.events[i]);
    if (!isNormOp(n) && !isPassThrough(n)) break;
    norms += isNormOp(n) ? 1 : 0;
    r.scanned_end_ns = model.events[i].end_ns();
  }
  constexpr int kMaxTotalOps = 16;  // the total norm and the coefficient take a handful of ops
  for (int k = 0; i != kNoIndex && k < kMaxTotalOps; ++k, i = nextSibling(model, i)) {
    const std::string_view n = model.name(model.events[i]);
    if (n == "aten::mul_" || !isTotalNormOp(n)) break;
    last = i;
  }
  int64_t scaled = 0;  // at most one mul_ per parameter: the optimizer's own mul_ come after
  for (; i != kNoIndex && scaled < norms; i = nextSibling(model, i)) {
    const std::string_view n = model.name(model.events[i]);
    if (n != "aten::mul_" && !isPassThrough(n)) break;
    scaled += n == "aten::mul_" ? 1 : 0;
    last = i;
  }
  if (scaled == 0) return r;  // norms without scaling (gradient-norm logging): not clipping
  r.first = first;
  r.start_ns = model.events[first].start_ns;
  r.end_ns = model.events[last].end_ns();
  r.norm_ops = norms;
  return r;
}

}  // namespace

std::vector<ClipRegion> findClipRegions(const trace::TraceModel& model, const StepWindow& window,
                                        int64_t min_norm_run) {
  std::vector<ClipRegion> out;
  analyzer::NameMemo clip_name(model, isClipRangeName);
  for (uint32_t i : common::outermostRangesInWindow(model, window, clip_name))
    out.push_back({i, model.events[i].start_ns, model.events[i].end_ns(), true, 0});
  analyzer::NameMemo norm_name(model, isNormOp);
  auto inNamed = [&](const Event& a) { return trace::isCpuRange(a.kind) && clip_name(a.name); };
  for (const trace::Track& track : model.tracks) {
    // Norm ops before this time were part of a run already scanned (a region or not): scanning
    // each of them again would make a long run quadratic.
    int64_t scanned_until = std::numeric_limits<int64_t>::min();
    for (uint32_t i = track.first_event; i < track.first_event + track.event_count; ++i) {
      const Event& e = model.events[i];
      if (e.kind != trace::EventKind::kCpuOp || !window.contains(e.start_ns) ||
          e.start_ns < scanned_until || !norm_name(e.name) ||
          common::findAncestor(model, i, inNamed) != kNoIndex)
        continue;
      const ClipRegion r = unnamedRegionAt(model, i);
      scanned_until = std::max(r.scanned_end_ns, r.end_ns);
      if (r.norm_ops >= min_norm_run) out.push_back(r);
    }
  }
  return out;
}

analyzer::IntervalSet clipHostTime(const trace::TraceModel& model, const ClipRegion& region) {
  std::vector<analyzer::Interval> reads;
  const trace::Track& track = model.tracks[model.events[region.first].track];
  for (uint32_t i = region.first; i < track.first_event + track.event_count; ++i) {
    const Event& e = model.events[i];
    if (e.start_ns >= region.end_ns) break;
    if (trace::isCpuRange(e.kind) && isScalarRead(model.name(e)))
      reads.push_back({e.start_ns, e.end_ns()});
  }
  return analyzer::IntervalSet::fromUnsorted({{region.start_ns, region.end_ns}})
      .subtract(analyzer::IntervalSet::fromUnsorted(std::move(reads)));
}

std::vector<uint32_t> clipLaunchCalls(const trace::TraceModel& model, const ClipRegion& region) {
  std::vector<uint32_t> calls;
  const trace::Track& track = model.tracks[model.events[region.first].track];
  for (uint32_t i = region.first; i < track.first_event + track.event_count; ++i) {
    const Event& e = model.events[i];
    if (e.start_ns >= region.end_ns) break;
    if (trace::isLaunchApi(e.kind)) calls.push_back(i);
  }
  return calls;
}

}  // namespace steplint::rules
