// Draw lists kept across frames (docs/reference/style.md §2.11). Two modes:
//
//  * margin 0 (the default, what the widget uses): a memo of the last list per row, reused
//    while the range and width are unchanged — vertical scrolling, selection, search and
//    tooltip repaints skip the preprocessing entirely;
//  * margin m > 0: the list is built for a data window of the visible range plus m spans on
//    each side, at a power-of-two ns-per-pixel level, and reused while the view pans inside
//    the window and zooms within the level (frames only re-project DrawItem::start_ns/end_ns).
//    Folding then happens at the level's scale: runs narrower than 1.5–3 px are merged.
//
// Measured on the 5.1 M-event bench trace (docs/benchmarks.md): margin 1 (a 3× window) gave
// the same median frame as margin 0 but worse maxima (10–15 ms against 5–11 ms), because a
// rebuild covers three views and the zoom script changes level every four frames; the
// preprocessing is a small part of a frame, painting dominates. Hence the default.
//
/// \code
///   DrawListCache cache;
///   for (row on screen) for (const DrawItem& i : cache.events(model, index, row.track, geometry))
///     paint(geometry.xOf(i.start_ns), geometry.xOf(i.end_ns), i.depth, ...);
/// \endcode
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "steplint/gui/draw_list.h"

namespace steplint::gui {

class DrawListCache {
 public:
  explicit DrawListCache(double margin_spans = 0.0)
      : margin_spans_(margin_spans > 0 ? margin_spans : 0.0) {}

  /// Forgets everything (a new trace).
  void clear() { entries_.clear(); }

  /// The items of event row `track` covering `geometry.range`.
  const std::vector<DrawItem>& events(const trace::TraceModel& model, const TimelineIndex& index,
                                      uint32_t track, const TimelineGeometry& geometry);
  /// The items of the Steps row covering `geometry.range`.
  const std::vector<DrawItem>& steps(const std::vector<analyzer::Step>& steps,
                                     const TimelineGeometry& geometry);

  /// Draw lists built since construction (tests check that panning reuses them).
  uint64_t builds() const { return builds_; }

  /// The power-of-two ns-per-pixel level of a scale: 2^level <= ns_per_px < 2^(level+1).
  static int levelOf(double ns_per_px);
  /// The window and scale the lists are built at for `geometry` (itself for margin 0).
  static TimelineGeometry dataWindow(const TimelineGeometry& geometry, double margin_spans);

 private:
  struct Entry {
    int level = 0;
    TimeRange window{0, 0};
    double width_px = 0;  // of the geometry asked for (margin 0 reuses only an equal one)
    std::vector<DrawItem> items;
  };

  /// Stores a list built for `geometry` under `key`.
  template <typename Build>
  const std::vector<DrawItem>& rebuild(uint64_t key, const TimelineGeometry& geometry, Build build);

  /// The entry for `key`, or nullptr when it must be rebuilt for `geometry`.
  Entry* reusable(uint64_t key, const TimelineGeometry& geometry);

  std::unordered_map<uint64_t, Entry> entries_;  // key: track index; kStepsKey for the Steps row
  double margin_spans_ = 0;
  uint64_t builds_ = 0;
};

}  // namespace steplint::gui
