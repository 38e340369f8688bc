// The timeline's rows, top to bottom, computed once per trace (no Qt widgets):
//
//   Steps                      one box per kept step (summary.steps)
//   <process> (pid N)          group header
//     thread 123 (python)      CPU thread rows, by sort_index then tid
//   GPU 0 (<device name>)      group header
//     GPU 0 · stream 7         GPU stream rows, by stream id
//   Counters                   group header
//     GPU 0 utilization        kernel-busy share per time bucket (utilization_series.h)
//     GPU 0 memory allocated   from memory_events (total_allocated), then counter series
//
// Heights are in pixels; rows are stacked from y = 0 (the widget adds the ruler and scroll).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "steplint/gui/loaded_trace.h"

namespace steplint::gui {

enum class RowKind : uint8_t {
  kGroupHeader,
  kSteps,
  kCpuThread,
  kGpuStream,
  kOtherTrack,
  kCounter
};

/// A counter row's samples: (time, value) sorted by time, drawn as a step chart.
struct CounterSeries {
  std::vector<int64_t> ts_ns;
  std::vector<double> values;
  double max_value = 0;
  bool bytes = false;    // memory rows: values are bytes
  bool percent = false;  // utilization rows: values are fractions, drawn against 100 %
};

struct TimelineRow {
  std::string label;
  RowKind kind = RowKind::kGroupHeader;
  uint32_t track = trace::kNoIndex;  // index into model.tracks for event rows
  int depth_count = 1;               // lanes drawn (max_depth + 1, clamped to kMaxLanes)
  int y = 0;                         // top, px from the first row
  int height = 0;
  int series = -1;         // index into TimelineLayout::counters for kCounter rows
  bool collapsed = false;  // group headers: the group's rows are hidden
};

struct TimelineLayoutOptions {
  int lane_height = 18;
  int header_height = 20;
  int counter_height = 36;
  int row_padding = 3;                        // above and below the lanes of an event row
  std::vector<std::string> collapsed_groups;  // header labels whose rows are left out
};

struct TimelineLayout {
  static constexpr int kMaxLanes = 128;  // deeper events are not drawn (huge python stacks)

  std::vector<TimelineRow> rows;
  std::vector<CounterSeries> counters;
  TimelineLayoutOptions options;
  int total_height = 0;

  /// Index of the row containing `y` (px from the first row), or -1.
  int rowAt(int y) const;
  /// The lane (depth) at `y` inside event row `row`, or -1 in the padding.
  int laneAt(const TimelineRow& row, int y) const;
  /// Top of lane `depth` of `row`.
  int laneTop(const TimelineRow& row, int depth) const {
    return row.y + options.row_padding + depth * options.lane_height;
  }
  /// The row showing `track`, or -1.
  int rowOfTrack(uint32_t track) const;

  std::vector<int> track_rows;  // track index → row index (-1 when not shown)
};

/// A counter value as shown: "5.23 GB" for memory rows, 4 significant digits otherwise.
std::string formatCounterValue(const CounterSeries& series, double value);

/// Lays out `trace` (an empty layout for nullptr). Tracks without events get no row.
TimelineLayout buildTimelineLayout(const LoadedTrace* trace,
                                   const TimelineLayoutOptions& options = {});

}  // namespace steplint::gui
