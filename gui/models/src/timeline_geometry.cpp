#include "steplint/gui/timeline_geometry.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace steplint::gui {

namespace {

int64_t roundToNs(double v) {
  // Clamp before converting: a huge zoom-out or a NaN must not overflow int64.
  if (!(v == v)) return 0;
  const double limit = 4.0e18;
  return static_cast<int64_t>(std::llround(std::clamp(v, -limit, limit)));
}

struct Unit {
  const char* name;
  int64_t ns;
};

Unit unitFor(int64_t step_ns) {
  if (step_ns >= 1'000'000'000) return {"s", 1'000'000'000};
  if (step_ns >= 1'000'000) return {"ms", 1'000'000};
  if (step_ns >= 1'000) return {"µs", 1'000};
  return {"ns", 1};
}

// Decimals needed to print multiples of `step` in `unit` exactly (step 500 µs in ms → 1).
int decimalsFor(int64_t step_ns, int64_t unit_ns) {
  int decimals = 0;
  for (int64_t scale = unit_ns; scale > 1 && step_ns % scale != 0; scale /= 10) ++decimals;
  return decimals;
}

}  // namespace

int64_t TimelineGeometry::nsAt(double x) const { return range.start_ns + roundToNs(x * nsPerPx()); }

TimeRange TimelineGeometry::zoomed(double anchor_x, double factor) const {
  if (!(factor > 0)) factor = 1.0;
  const double anchor_ns = static_cast<double>(range.start_ns) + anchor_x * nsPerPx();
  const double new_span = std::max(1.0, static_cast<double>(spanNs()) * factor);
  const double start = anchor_ns - (anchor_x / std::max(width_px, 1.0)) * new_span;
  const int64_t s = roundToNs(start);
  return {s, s + std::max<int64_t>(1, roundToNs(new_span))};
}

TimeRange TimelineGeometry::panned(double dx_px) const {
  const int64_t d = roundToNs(dx_px * nsPerPx());
  return {range.start_ns + d, range.end_ns + d};
}

TimeRange TimelineGeometry::between(double x0, double x1) const {
  if (x1 < x0) std::swap(x0, x1);
  return {nsAt(x0), nsAt(x1)};
}

TimeRange TimelineGeometry::hitWindow(double x, double slop_px) const {
  return {nsAt(x - slop_px), nsAt(x + slop_px)};
}

RulerTicks rulerTicks(TimeRange range, double width_px, int64_t origin_ns, double min_spacing_px) {
  RulerTicks out;
  const TimelineGeometry g{range, width_px};
  const double wanted = g.nsPerPx() * std::max(min_spacing_px, 1.0);
  int64_t step = 1;
  // 1-2-5 steps: the smallest one at least `wanted` ns apart.
  for (int64_t decade = 1; decade <= 1'000'000'000'000'000LL; decade *= 10) {
    const int64_t candidates[] = {decade, 2 * decade, 5 * decade};
    bool found = false;
    for (int64_t c : candidates) {
      if (static_cast<double>(c) >= wanted) {
        step = c;
        found = true;
        break;
      }
    }
    if (found) break;
    step = 10 * decade;
  }
  // The unit follows the largest label, the decimals the step: deep in a long trace that
  // reads "426.25 ms" rather than "426250 µs"; a half-unit step reads "1.5 ms".
  const int64_t last =
      std::max(std::llabs(range.end_ns - origin_ns), std::llabs(range.start_ns - origin_ns));
  const Unit unit = unitFor(std::max(step * 2, last));
  out.unit = unit.name;
  out.step_ns = step;
  const int decimals = std::min(decimalsFor(step, unit.ns), 9);
  // First multiple of the step (counted from the origin) at or after the range start.
  int64_t k = (range.start_ns - origin_ns) / step;
  if (origin_ns + k * step < range.start_ns) ++k;
  for (int64_t t = origin_ns + k * step; t <= range.end_ns && out.ticks.size() < 10'000;
       t += step) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.*f", decimals,
                  static_cast<double>(t - origin_ns) / static_cast<double>(unit.ns));
    out.ticks.push_back({t, g.xOf(t), buf});
  }
  return out;
}

std::string formatDuration(int64_t ns) {
  const int64_t mag = ns < 0 ? -ns : ns;
  const Unit unit = unitFor(mag == 0 ? 1 : mag);
  const double v = static_cast<double>(ns) / static_cast<double>(unit.ns);
  const double av = std::fabs(v);
  char buf[48];
  const int decimals = unit.ns == 1 ? 0 : (av >= 100 ? 0 : (av >= 10 ? 1 : 2));
  std::snprintf(buf, sizeof buf, "%.*f %s", decimals, v, unit.name);
  return buf;
}

}  // namespace steplint::gui
