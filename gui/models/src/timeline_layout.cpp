#include "steplint/gui/timeline_layout.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <tuple>

#include "steplint/gui/utilization_series.h"

namespace steplint::gui {

namespace {

using trace::TraceModel;
using trace::Track;
using trace::TrackKind;

class LayoutBuilder {
 public:
  LayoutBuilder(const LoadedTrace& trace, const TimelineLayoutOptions& options) : trace_(trace) {
    out_.options = options;
    out_.track_rows.assign(trace.model.tracks.size(), -1);
  }

  TimelineLayout build() {
    if (!trace_.summary.steps.steps.empty()) addRow("Steps", RowKind::kSteps, trace::kNoIndex, 1);
    addCpuProcesses();
    addGpuDevices();
    addCounters();
    return std::move(out_);
  }

 private:
  const TraceModel& model() const { return trace_.model; }

  /// Appends a row unless it belongs to a collapsed group; returns whether it was added.
  bool addRow(std::string label, RowKind kind, uint32_t track, int depth_count) {
    const bool header = kind == RowKind::kGroupHeader;
    if (header) {
      const auto& collapsed = out_.options.collapsed_groups;
      in_collapsed_group_ = std::find(collapsed.begin(), collapsed.end(), label) != collapsed.end();
    } else if (in_collapsed_group_ && kind != RowKind::kSteps) {
      return false;
    }
    TimelineRow row;
    row.collapsed = header && in_collapsed_group_;
    row.label = std::move(label);
    row.kind = kind;
    row.track = track;
    row.depth_count = std::clamp(depth_count, 1, TimelineLayout::kMaxLanes);
    row.y = out_.total_height;
    const TimelineLayoutOptions& o = out_.options;
    if (kind == RowKind::kGroupHeader) {
      row.height = o.header_height;
    } else if (kind == RowKind::kCounter) {
      row.height = o.counter_height;
    } else {
      row.height = row.depth_count * o.lane_height + 2 * o.row_padding;
    }
    out_.total_height += row.height;
    if (track != trace::kNoIndex && track < out_.track_rows.size()) {
      out_.track_rows[track] = static_cast<int>(out_.rows.size());
    }
    out_.rows.push_back(std::move(row));
    return true;
  }

  void addTrackRow(uint32_t index, RowKind kind, std::string label) {
    addRow(std::move(label), kind, index, model().tracks[index].max_depth + 1);
  }

  std::string threadLabel(const Track& t) const {
    std::string name(model().str(t.thread_name));
    if (!name.empty()) return name;
    if (t.tid_label != 0) return std::string(model().str(t.tid_label));
    return "thread " + std::to_string(t.tid);
  }

  std::string processLabel(const Track& t) const {
    std::string pid =
        t.pid_label != 0 ? std::string(model().str(t.pid_label)) : std::to_string(t.pid);
    std::string name(model().str(t.process_name));
    return name.empty() ? "Process " + pid : name + " (pid " + pid + ")";
  }

  void addCpuProcesses() {
    // Processes in pid order; threads by sort_index, then tid (Chrome's trace viewer order).
    std::map<std::tuple<int64_t, trace::StringId>, std::vector<uint32_t>> processes;
    for (uint32_t i = 0; i < model().tracks.size(); ++i) {
      const Track& t = model().tracks[i];
      if (t.kind != TrackKind::kGpuStream && t.event_count > 0)
        processes[{t.pid, t.pid_label}].push_back(i);
    }
    for (auto& [key, tracks] : processes) {
      std::sort(tracks.begin(), tracks.end(), [&](uint32_t a, uint32_t b) {
        const Track& ta = model().tracks[a];
        const Track& tb = model().tracks[b];
        return std::tie(ta.sort_index, ta.tid, a) < std::tie(tb.sort_index, tb.tid, b);
      });
      addRow(processLabel(model().tracks[tracks.front()]), RowKind::kGroupHeader, trace::kNoIndex,
             1);
      for (uint32_t i : tracks) {
        const Track& t = model().tracks[i];
        addTrackRow(i, t.kind == TrackKind::kCpuThread ? RowKind::kCpuThread : RowKind::kOtherTrack,
                    threadLabel(t));
      }
    }
  }

  // "GPU 0", or "MTIA 0" ...: what the trace's accelerator calls a device.
  std::string deviceName(int64_t device) const {
    return std::string(trace::deviceNoun(model().metadata.accelerator)) + " " +
           std::to_string(device);
  }

  std::string deviceLabel(int64_t device) const {
    std::string label = deviceName(device);
    for (const trace::DeviceProperties& d : model().metadata.devices) {
      if (d.id == device && !d.name.empty()) return label + " (" + d.name + ")";
    }
    return label;
  }

  void addGpuDevices() {
    std::map<int64_t, std::vector<uint32_t>> devices;
    for (uint32_t i = 0; i < model().tracks.size(); ++i) {
      const Track& t = model().tracks[i];
      if (t.kind == TrackKind::kGpuStream && t.event_count > 0) devices[t.pid].push_back(i);
    }
    for (auto& [device, tracks] : devices) {
      std::sort(tracks.begin(), tracks.end(), [&](uint32_t a, uint32_t b) {
        return std::tie(model().tracks[a].tid, a) < std::tie(model().tracks[b].tid, b);
      });
      addRow(deviceLabel(device), RowKind::kGroupHeader, trace::kNoIndex, 1);
      for (uint32_t i : tracks) {
        const Track& t = model().tracks[i];
        std::string stream =
            t.tid_label != 0 ? std::string(model().str(t.tid_label)) : std::to_string(t.tid);
        addTrackRow(i, RowKind::kGpuStream, deviceName(device) + " · stream " + stream);
      }
    }
  }

  void addSeries(std::string label, CounterSeries series) {
    if (series.ts_ns.empty()) return;
    series.max_value =
        series.percent ? 1.0 : *std::max_element(series.values.begin(), series.values.end());
    if (!addRow(std::move(label), RowKind::kCounter, trace::kNoIndex, 1)) return;
    out_.rows.back().series = static_cast<int>(out_.counters.size());
    out_.counters.push_back(std::move(series));
  }

  void addCounters();

  const LoadedTrace& trace_;
  TimelineLayout out_;
  bool in_collapsed_group_ = false;
};

void LayoutBuilder::addCounters() {
  // Memory: allocator samples per device (memory_events are sorted by time already).
  std::map<std::pair<int32_t, int32_t>, CounterSeries> memory;
  for (const trace::MemoryEvent& m : model().memory_events) {
    if (m.total_allocated < 0) continue;
    CounterSeries& s = memory[{m.device_type, m.device_id}];
    s.bytes = true;
    s.ts_ns.push_back(m.ts_ns);
    s.values.push_back(static_cast<double>(m.total_allocated));
  }
  std::map<std::pair<trace::StringId, trace::StringId>, CounterSeries> counters;
  for (const trace::CounterSample& c : model().counters) {
    CounterSeries& s = counters[{c.name, c.series}];
    s.ts_ns.push_back(c.ts_ns);
    s.values.push_back(c.value);
  }
  std::map<int32_t, CounterSeries> busy = kernelBusySeries(model());
  if (busy.empty() && memory.empty() && counters.empty()) return;
  addRow("Counters", RowKind::kGroupHeader, trace::kNoIndex, 1);
  for (auto& [device, series] : busy)
    addSeries(deviceName(device) + " utilization", std::move(series));
  for (auto& [key, series] : memory) {
    // c10::DeviceType: 0 = CPU, 1 = CUDA.
    std::string label =
        key.first == 1
            ? "GPU " + std::to_string(key.second) + " memory allocated"
            : (key.first == 0 ? std::string("CPU memory allocated")
                              : "Device " + std::to_string(key.first) + " memory allocated");
    addSeries(std::move(label), std::move(series));
  }
  for (auto& [key, series] : counters) {
    std::string name(model().str(key.first));
    std::string series_name(model().str(key.second));
    addSeries(series_name.empty() || series_name == name ? name : name + " · " + series_name,
              std::move(series));
  }
}

}  // namespace

int TimelineLayout::rowAt(int y) const {
  if (y < 0 || y >= total_height || rows.empty()) return -1;
  auto it = std::upper_bound(rows.begin(), rows.end(), y,
                             [](int v, const TimelineRow& r) { return v < r.y; });
  return static_cast<int>(it - rows.begin()) - 1;
}

int TimelineLayout::laneAt(const TimelineRow& row, int y) const {
  const int inside = y - row.y - options.row_padding;
  if (inside < 0 || options.lane_height <= 0) return -1;
  const int lane = inside / options.lane_height;
  return lane < row.depth_count ? lane : -1;
}

int TimelineLayout::rowOfTrack(uint32_t track) const {
  return track < track_rows.size() ? track_rows[track] : -1;
}

std::string formatCounterValue(const CounterSeries& series, double value) {
  char buf[64];
  if (series.percent) {
    std::snprintf(buf, sizeof buf, "%.0f %%", 100.0 * value);
    return buf;
  }
  if (!series.bytes) {
    std::snprintf(buf, sizeof buf, "%.4g", value);
    return buf;
  }
  static const char* const kUnits[] = {"B", "kB", "MB", "GB", "TB"};
  int unit = 0;
  while (std::fabs(value) >= 1000.0 && unit < 4) {
    value /= 1000.0;
    ++unit;
  }
  std::snprintf(buf, sizeof buf, "%.*f %s", unit == 0 ? 0 : 2, value, kUnits[unit]);
  return buf;
}

TimelineLayout buildTimelineLayout(const LoadedTrace* trace, const TimelineLayoutOptions& options) {
  if (trace == nullptr) {
    TimelineLayout empty;
    empty.options = options;
    return empty;
  }
  return LayoutBuilder(*trace, options).build();
}

}  // namespace steplint::gui
