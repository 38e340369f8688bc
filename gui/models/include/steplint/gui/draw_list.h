// Per-frame level-of-detail preprocessing for the timeline (docs/reference/style.md §2.11): turns
// the events of one track and the visible range into a short flat list of boxes to paint.
//
// Folding, worked example at 1 µs per px (kMinItemPx = 3):
//   events at depth 0 (ns):  [0,500) [600,900) [1000,1800) [1900,2100) [10000,30000)
//   items:                   folded {x 0..2.1, count 4}   event {x 10..30}
// The first four are each < 3 px wide and separated by gaps < 3 px, so they merge; the last
// is 20 px wide and kept. Inside a fold, the scan jumps by binary search to the first event
// starting at the next pixel, so a depth costs O(width_px · log n) however many events
// are in view, and children are looked for only under wide (unfolded) parents.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "steplint/analyzer/steps.h"
#include "steplint/gui/timeline_geometry.h"
#include "steplint/gui/timeline_layout.h"
#include "steplint/trace/model.h"

namespace steplint::gui {

inline constexpr double kMinItemPx = 3.0;

struct DrawItem {
  int64_t start_ns = 0;  // the box in time (a fold: first start to last end), for reuse at
  int64_t end_ns = 0;    // another scale or offset (DrawListCache)
  float x0 = 0;          // px within the time area of the geometry it was built for
  float x1 = 0;          // (may be < 0 or > width for clipped boxes)
  uint16_t depth = 0;
  uint32_t index = trace::kNoIndex;  // event (or step) index; kNoIndex for a folded item
  uint32_t count = 1;                // events represented (> 1 only for folded items)
  uint32_t first = trace::kNoIndex;  // folded items: their first event (or step), for colour

  bool folded() const { return index == trace::kNoIndex; }
};

/// Per track, per depth: the global indices of that depth's events, sorted by start.
/// Built once per trace (O(events)); the binary searches of every frame run on it.
class TimelineIndex {
 public:
  static constexpr int kMaxDepth = 128;  // same clamp as TimelineLayout::kMaxLanes

  TimelineIndex() = default;
  explicit TimelineIndex(const trace::TraceModel& model);

  /// Lanes of `track` (empty for unknown tracks).
  const std::vector<std::vector<uint32_t>>& lanes(uint32_t track) const;
  size_t trackCount() const { return tracks_.size(); }

 private:
  std::vector<std::vector<std::vector<uint32_t>>> tracks_;
};

/// The boxes of `track` visible in `geometry.range`, depth by depth.
std::vector<DrawItem> buildDrawList(const trace::TraceModel& model, const TimelineIndex& index,
                                    uint32_t track, const TimelineGeometry& geometry,
                                    double min_px = kMinItemPx);
/// Same folding for the Steps row (steps never overlap; DrawItem::index is the step index).
std::vector<DrawItem> buildStepDrawList(const std::vector<analyzer::Step>& steps,
                                        const TimelineGeometry& geometry,
                                        double min_px = kMinItemPx);

/// A counter row's value per pixel column of the time area: the highest sample in the
/// column, or the value in effect at its start when no sample falls in it; NaN before the
/// first sample and after the last. O(width · log n + visible samples).
std::vector<float> counterColumns(const CounterSeries& series, const TimelineGeometry& geometry);

/// Flow arrows for a selected event, as (upstream, downstream) pairs along Event::link:
/// device op ← launch call ← CPU op. Upstream hops are followed from `selected`; for a CPU
/// op or a launch call, what it launched is found by one scan of the events (on selection
/// only), capped at `max_pairs`.
std::vector<std::pair<uint32_t, uint32_t>> flowLinks(const trace::TraceModel& model,
                                                     uint32_t selected, size_t max_pairs = 2000);

/// The step whose [start, end) holds `t_ns`, or kNoIndex. Steps are in time order.
uint32_t stepAt(const std::vector<analyzer::Step>& steps, int64_t t_ns);

/// The event of `track` at `depth` covering a time in `window` (the one nearest its centre),
/// or kNoIndex. O(log n).
uint32_t hitTestEvent(const trace::TraceModel& model, const TimelineIndex& index, uint32_t track,
                      int depth, TimeRange window);

}  // namespace steplint::gui
