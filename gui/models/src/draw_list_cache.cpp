#include "steplint/gui/draw_list_cache.h"

#include <algorithm>
#include <cmath>

namespace steplint::gui {

namespace {

constexpr uint64_t kStepsKey = uint64_t{1} << 40;  // never a track index (those are uint32)

}  // namespace

int DrawListCache::levelOf(double ns_per_px) {
  // Below 1 ns per px every level looks the same: the events are already far apart.
  if (!(ns_per_px >= 1.0)) return 0;
  return std::min(62, static_cast<int>(std::floor(std::log2(ns_per_px))));
}

TimelineGeometry DrawListCache::dataWindow(const TimelineGeometry& geometry, double margin_spans) {
  if (!(margin_spans > 0)) return geometry;
  const double level_ns_per_px = std::ldexp(1.0, levelOf(geometry.nsPerPx()));
  const auto margin =
      static_cast<int64_t>(static_cast<double>(geometry.spanNs()) * std::min(margin_spans, 16.0));
  // Clamped so the window stays well inside int64.
  constexpr int64_t kLimit = int64_t{1} << 61;
  const int64_t lo = std::max(geometry.range.start_ns, -kLimit + margin) - margin;
  const int64_t hi = std::min(geometry.range.end_ns, kLimit - margin) + margin;
  return {{lo, hi}, static_cast<double>(hi - lo) / level_ns_per_px};
}

DrawListCache::Entry* DrawListCache::reusable(uint64_t key, const TimelineGeometry& geometry) {
  auto it = entries_.find(key);
  if (it == entries_.end()) return nullptr;
  const Entry& e = it->second;
  if (margin_spans_ == 0) {
    const bool same = e.window.start_ns == geometry.range.start_ns &&
                      e.window.end_ns == geometry.range.end_ns && e.width_px == geometry.width_px;
    return same ? &it->second : nullptr;
  }
  const bool inside =
      geometry.range.start_ns >= e.window.start_ns && geometry.range.end_ns <= e.window.end_ns;
  return inside && e.level == levelOf(geometry.nsPerPx()) ? &it->second : nullptr;
}

template <typename Build>
const std::vector<DrawItem>& DrawListCache::rebuild(uint64_t key, const TimelineGeometry& geometry,
                                                    Build build) {
  const TimelineGeometry window = dataWindow(geometry, margin_spans_);
  Entry& e = entries_[key];
  e.level = levelOf(geometry.nsPerPx());
  e.window = window.range;
  e.width_px = geometry.width_px;
  e.items = build(window);
  ++builds_;
  return e.items;
}

const std::vector<DrawItem>& DrawListCache::events(const trace::TraceModel& model,
                                                   const TimelineIndex& index, uint32_t track,
                                                   const TimelineGeometry& geometry) {
  if (Entry* e = reusable(track, geometry)) return e->items;
  return rebuild(track, geometry,
                 [&](const TimelineGeometry& w) { return buildDrawList(model, index, track, w); });
}

const std::vector<DrawItem>& DrawListCache::steps(const std::vector<analyzer::Step>& steps,
                                                  const TimelineGeometry& geometry) {
  if (Entry* e = reusable(kStepsKey, geometry)) return e->items;
  return rebuild(kStepsKey, geometry,
                 [&](const TimelineGeometry& w) { return buildStepDrawList(steps, w); });
}

}  // namespace steplint::gui
