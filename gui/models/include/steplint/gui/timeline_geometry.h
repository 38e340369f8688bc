// Pure timeline geometry (docs/reference/style.md §2.11): the visible time range mapped onto a
// strip of pixels, zoom and pan as new ranges, hit-test windows and the ruler's tick marks. No Qt,
// no widget: the timeline widget, the draw lists and the tests share it.
//
/// \code
///   TimelineGeometry g{{0, 1'000'000}, 1000.0};   // 1 ms over 1000 px: 1 µs per px
///   g.xOf(500'000) == 500.0;  g.nsAt(250.0) == 250'000;
///   TimeRange in = g.zoomed(250.0, 0.5);          // {125'000, 625'000}: t at x=250 stays put
/// \endcode
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "steplint/analyzer/diagnostic.h"

namespace steplint::gui {

using analyzer::TimeRange;

struct TimelineGeometry {
  TimeRange range;        // visible range, trace clock
  double width_px = 1.0;  // width of the time area; x = 0 is range.start_ns

  int64_t spanNs() const {
    return range.end_ns > range.start_ns ? range.end_ns - range.start_ns : 1;
  }
  double nsPerPx() const { return static_cast<double>(spanNs()) / max(width_px, 1.0); }
  double xOf(int64_t ns) const { return static_cast<double>(ns - range.start_ns) / nsPerPx(); }
  int64_t nsAt(double x) const;

  /// The range after scaling the span by `factor` (< 1 zooms in) around pixel `anchor_x`:
  /// the time under the anchor stays under it. Never narrower than 1 ns.
  TimeRange zoomed(double anchor_x, double factor) const;
  /// The range moved by `dx_px` pixels (positive = later times come into view).
  TimeRange panned(double dx_px) const;
  /// The range between two pixels (in any order).
  TimeRange between(double x0, double x1) const;
  /// The times within `slop_px` of pixel `x`, for hit-testing thin events.
  TimeRange hitWindow(double x, double slop_px) const;

 private:
  static double max(double a, double b) { return a > b ? a : b; }
};

/// One ruler mark. `label` is relative to the ruler's origin (the trace start) in `unit`.
struct RulerTick {
  int64_t ns = 0;
  double x = 0;
  std::string label;  // "1.5", "20" ...
};

struct RulerTicks {
  std::string unit;     // "ns", "µs", "ms" or "s", chosen from the tick step
  int64_t step_ns = 1;  // 1, 2 or 5 × 10^k
  std::vector<RulerTick> ticks;
};

/// Ticks about every `min_spacing_px` pixels across `range`, at round multiples of the step
/// counted from `origin_ns`, e.g. range 0..10 ms over 1000 px → step 1 ms, labels "0".."10", "ms".
RulerTicks rulerTicks(TimeRange range, double width_px, int64_t origin_ns,
                      double min_spacing_px = 90.0);

/// "1.23 ms", "450 ns", "2.5 s": a duration for tooltips and labels (3 significant digits).
std::string formatDuration(int64_t ns);

}  // namespace steplint::gui
