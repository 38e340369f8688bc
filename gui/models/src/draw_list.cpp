#include "steplint/gui/draw_list.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace steplint::gui {

namespace {

using trace::Event;
using trace::TraceModel;

// The events of one lane, seen as spans.
struct LaneSpans {
  const TraceModel& model;
  const std::vector<uint32_t>& lane;
  size_t size() const { return lane.size(); }
  const Event& at(size_t k) const { return model.events[lane[k]]; }
  int64_t start(size_t k) const { return at(k).start_ns; }
  int64_t end(size_t k) const { return at(k).end_ns(); }
  uint32_t index(size_t k) const { return lane[k]; }
};

struct StepSpans {
  const std::vector<analyzer::Step>& steps;
  size_t size() const { return steps.size(); }
  int64_t start(size_t k) const { return steps[k].start_ns; }
  int64_t end(size_t k) const { return std::max(steps[k].end_ns, steps[k].start_ns); }
  uint32_t index(size_t k) const { return static_cast<uint32_t>(k); }
};

// Emits the items of one depth whose start lies in a window, folding narrow runs. Spans of
// one depth do not overlap (the importer puts an overlapping sibling one lane deeper), so
// the latest-starting span of a run is also the one that ends last; an overlapping one
// could at worst be swallowed by a fold at far zoom and shows again when zooming in.
template <typename Spans>
class Folder {
 public:
  Folder(const Spans& spans, const TimelineGeometry& g, double min_px, uint16_t depth,
         std::vector<DrawItem>& out)
      : spans_(spans), g_(g), min_px_(min_px), depth_(depth), out_(out) {}

  /// Items starting in `window` (plus the one reaching into it), never before span `lo`.
  /// Appends the spans drawn as wide boxes to `wide` (as span positions).
  void run(TimeRange window, size_t lo, std::vector<size_t>* wide) {
    const size_t n = spans_.size();
    size_t k = lowerBound(lo, n, window.start_ns);
    if (k > lo && spans_.end(k - 1) > window.start_ns) --k;
    while (k < n && spans_.start(k) < window.end_ns) {
      if (width(k) >= min_px_) {
        emit(spans_.start(k), spans_.end(k), spans_.index(k), 1, spans_.index(k));
        if (wide != nullptr) wide->push_back(k);
        ++k;
      } else {
        k = foldRun(k, window.end_ns);
      }
    }
  }

  size_t lowerBound(size_t lo, size_t hi, int64_t t) const {
    while (lo < hi) {
      const size_t mid = lo + (hi - lo) / 2;
      if (spans_.start(mid) < t)
        lo = mid + 1;
      else
        hi = mid;
    }
    return lo;
  }

 private:
  double width(size_t k) const { return g_.xOf(spans_.end(k)) - g_.xOf(spans_.start(k)); }

  void emit(int64_t start_ns, int64_t end_ns, uint32_t index, uint32_t count, uint32_t first) {
    out_.push_back({start_ns, end_ns, static_cast<float>(g_.xOf(start_ns)),
                    static_cast<float>(g_.xOf(end_ns)), depth_, index, count, first});
  }

  // Folds the narrow span `first` with its narrow neighbours; returns the next span to look at.
  size_t foldRun(size_t first, int64_t window_end) {
    const size_t n = spans_.size();
    int64_t fold_end = spans_.end(first);
    uint32_t count = 1;
    size_t next = first + 1;
    while (true) {
      // Everything starting before the next pixel boundary joins without looking at it...
      int64_t boundary = g_.nsAt(std::floor(g_.xOf(fold_end)) + 1.0);
      if (boundary <= fold_end) boundary = fold_end + 1;
      const size_t j = lowerBound(next, n, std::min(boundary, window_end));
      if (j > next) {
        const size_t tail = j - 1;
        if (width(tail) >= min_px_) {  // ...except a wide last one, which is drawn by itself
          if (tail > next) fold_end = std::max(fold_end, spans_.end(tail - 1));
          count += static_cast<uint32_t>(tail - next);
          next = tail;
          break;
        }
        count += static_cast<uint32_t>(j - next);
        fold_end = std::max(fold_end, spans_.end(tail));
        next = j;
      }
      // ...then the first one after it joins if it is narrow and the gap is under min_px.
      if (next >= n || spans_.start(next) >= window_end) break;
      if (g_.xOf(spans_.start(next)) - g_.xOf(fold_end) >= min_px_ || width(next) >= min_px_) break;
      fold_end = std::max(fold_end, spans_.end(next));
      ++count;
      ++next;
    }
    emit(spans_.start(first), fold_end, count == 1 ? spans_.index(first) : trace::kNoIndex, count,
         spans_.index(first));
    return next;
  }

  const Spans& spans_;
  const TimelineGeometry& g_;
  double min_px_;
  uint16_t depth_;
  std::vector<DrawItem>& out_;
};

}  // namespace

TimelineIndex::TimelineIndex(const TraceModel& model) {
  tracks_.resize(model.tracks.size());
  for (uint32_t t = 0; t < model.tracks.size(); ++t) {
    const trace::Track& track = model.tracks[t];
    const uint64_t end = static_cast<uint64_t>(track.first_event) + track.event_count;
    if (end > model.events.size()) continue;  // a malformed track: draw nothing rather than crash
    auto& lanes = tracks_[t];
    lanes.resize(std::min<size_t>(track.max_depth + 1u, kMaxDepth));
    for (uint32_t i = track.first_event; i < end; ++i) {
      const uint16_t depth = model.events[i].depth;
      if (depth >= lanes.size()) continue;  // deeper than drawn (or max_depth was wrong)
      lanes[depth].push_back(i);            // events are sorted by start within a track
    }
  }
}

const std::vector<std::vector<uint32_t>>& TimelineIndex::lanes(uint32_t track) const {
  static const std::vector<std::vector<uint32_t>> kNone;
  return track < tracks_.size() ? tracks_[track] : kNone;
}

std::vector<DrawItem> buildDrawList(const TraceModel& model, const TimelineIndex& index,
                                    uint32_t track, const TimelineGeometry& geometry,
                                    double min_px) {
  std::vector<DrawItem> out;
  const auto& lanes = index.lanes(track);
  std::vector<TimeRange> parents{geometry.range};  // depth 0: the whole visible range
  std::vector<size_t> wide;
  for (size_t depth = 0; depth < lanes.size() && !parents.empty(); ++depth) {
    const LaneSpans spans{model, lanes[depth]};
    Folder<LaneSpans> folder(spans, geometry, min_px, static_cast<uint16_t>(depth), out);
    wide.clear();
    for (const TimeRange& p : parents) {
      // Children start inside their parent: search only from the parent's start.
      const size_t lo = depth == 0 ? 0 : folder.lowerBound(0, spans.size(), p.start_ns);
      const TimeRange window{std::max(p.start_ns, geometry.range.start_ns),
                             std::min(p.end_ns, geometry.range.end_ns)};
      if (window.end_ns > window.start_ns) folder.run(window, lo, &wide);
    }
    // Folded items hide their children (docs/reference/style.md §2.11): descend only under wide
    // boxes.
    parents.clear();
    for (size_t k : wide) parents.push_back({spans.start(k), spans.end(k)});
  }
  return out;
}

std::vector<DrawItem> buildStepDrawList(const std::vector<analyzer::Step>& steps,
                                        const TimelineGeometry& geometry, double min_px) {
  std::vector<DrawItem> out;
  const StepSpans spans{steps};
  Folder<StepSpans> folder(spans, geometry, min_px, 0, out);
  folder.run(geometry.range, 0, nullptr);
  return out;
}

std::vector<float> counterColumns(const CounterSeries& series, const TimelineGeometry& geometry) {
  const int width = std::clamp(static_cast<int>(std::ceil(geometry.width_px)), 0, 1 << 16);
  std::vector<float> out(static_cast<size_t>(width), std::numeric_limits<float>::quiet_NaN());
  const auto& ts = series.ts_ns;
  if (ts.empty() || series.values.size() != ts.size()) return out;
  for (int px = 0; px < width; ++px) {
    const int64_t t0 = geometry.nsAt(px);
    const int64_t t1 = geometry.nsAt(px + 1);
    if (t0 > ts.back() || t1 <= ts.front()) continue;
    // The sample in effect at t0, then every sample inside the column.
    size_t k = static_cast<size_t>(std::upper_bound(ts.begin(), ts.end(), t0) - ts.begin());
    double v = k > 0 ? series.values[k - 1] : series.values[k];
    for (; k < ts.size() && ts[k] < t1; ++k) v = std::max(v, series.values[k]);
    out[static_cast<size_t>(px)] = static_cast<float>(v);
  }
  return out;
}

std::vector<std::pair<uint32_t, uint32_t>> flowLinks(const TraceModel& model, uint32_t selected,
                                                     size_t max_pairs) {
  std::vector<std::pair<uint32_t, uint32_t>> flows;
  const auto& events = model.events;
  if (selected >= events.size()) return flows;
  uint32_t at = selected;
  for (int hop = 0; hop < 2 && events[at].link < events.size() && flows.size() < max_pairs; ++hop) {
    flows.emplace_back(events[at].link, at);
    at = events[at].link;
  }
  if (trace::isDeviceOp(events[selected].kind)) return flows;  // nothing hangs off a device op
  for (uint32_t i = 0; i < events.size() && flows.size() < max_pairs; ++i) {
    const uint32_t up = events[i].link;
    if (up == selected) {
      flows.emplace_back(selected, i);
    } else if (up < events.size() && events[up].link == selected &&
               trace::isLaunchApi(events[up].kind)) {
      flows.emplace_back(up, i);  // CPU op selected: its launches' device ops
    }
  }
  return flows;
}

uint32_t stepAt(const std::vector<analyzer::Step>& steps, int64_t t_ns) {
  auto it = std::upper_bound(steps.begin(), steps.end(), t_ns,
                             [](int64_t t, const analyzer::Step& s) { return t < s.start_ns; });
  if (it == steps.begin()) return trace::kNoIndex;
  --it;
  return t_ns < it->end_ns ? static_cast<uint32_t>(it - steps.begin()) : trace::kNoIndex;
}

uint32_t hitTestEvent(const TraceModel& model, const TimelineIndex& index, uint32_t track,
                      int depth, TimeRange window) {
  const auto& lanes = index.lanes(track);
  if (depth < 0 || static_cast<size_t>(depth) >= lanes.size()) return trace::kNoIndex;
  const std::vector<uint32_t>& lane = lanes[static_cast<size_t>(depth)];
  // Last event starting at or before the window's end, then a few earlier ones.
  auto it = std::upper_bound(lane.begin(), lane.end(), window.end_ns,
                             [&](int64_t t, uint32_t i) { return t < model.events[i].start_ns; });
  const int64_t centre = window.start_ns + (window.end_ns - window.start_ns) / 2;
  uint32_t best = trace::kNoIndex;
  int64_t best_distance = std::numeric_limits<int64_t>::max();
  for (int tries = 0; it != lane.begin() && tries < 32; ++tries) {
    --it;
    const Event& e = model.events[*it];
    if (e.end_ns() < window.start_ns) break;  // a lane does not overlap: nothing earlier reaches it
    const int64_t distance =
        centre < e.start_ns ? e.start_ns - centre : (centre > e.end_ns() ? centre - e.end_ns() : 0);
    if (distance < best_distance) {
      best = *it;
      best_distance = distance;
    }
  }
  return best;
}

}  // namespace steplint::gui
