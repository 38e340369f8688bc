#include "steplint/gui/timeline_layout.h"
#include "steplint/gui/utilization_series.h"

#include <algorithm>

#include <catch2/catch.hpp>

#include "timeline_test_trace.h"

using steplint::gui::buildTimelineLayout;
using steplint::gui::RowKind;
using steplint::gui::TimelineLayout;

namespace {

std::vector<std::string> labels(const TimelineLayout& layout) {
  std::vector<std::string> out;
  for (const auto& row : layout.rows) out.push_back(row.label);
  return out;
}

}  // namespace

TEST_CASE("timeline layout: steps, CPU threads per process, GPU streams per device, counters") {
  const auto trace = steplint::test::smallTrace();
  const TimelineLayout layout = buildTimelineLayout(trace.get());
  const std::vector<std::string> expected = {
      "Steps",
      "Process 100",
      "thread 1 (python)",  // sort_index 1 before 2
      "thread 2 (autograd)",
      "GPU 0",
      "GPU 0 · stream 7",
      "GPU 0 · stream 20",
      "GPU 1",
      "GPU 1 · stream 7",
      "Counters",
      "GPU 0 utilization",
      "GPU 1 utilization",
      "GPU 0 memory allocated",
  };
  CHECK(labels(layout) == expected);
  REQUIRE(layout.rows.size() == expected.size());
  CHECK(layout.rows[0].kind == RowKind::kSteps);
  CHECK(layout.rows[1].kind == RowKind::kGroupHeader);
  CHECK(layout.rows[2].kind == RowKind::kCpuThread);
  CHECK(layout.rows[2].depth_count == 3);  // ProfilerStep > op > launch
  CHECK(layout.rows[5].kind == RowKind::kGpuStream);
  CHECK(layout.rows[5].depth_count == 1);
  CHECK(layout.rows[10].kind == RowKind::kCounter);
  CHECK(layout.counters[0].percent);
  CHECK(layout.counters[0].max_value == 1.0);  // utilization is drawn against 100 %
  REQUIRE(layout.rows[12].series == 2);
  CHECK(layout.counters[2].ts_ns.size() == 10);
  CHECK(layout.counters[2].max_value == Approx(3'000'000));

  // Rows are stacked without gaps, and every shown track maps back to its row.
  int y = 0;
  for (const auto& row : layout.rows) {
    CHECK(row.y == y);
    y += row.height;
  }
  CHECK(layout.total_height == y);
  CHECK(layout.rowOfTrack(1) == 2);
  CHECK(layout.rowOfTrack(5) == -1);  // the thread without events
  CHECK(layout.rowAt(0) == 0);
  CHECK(layout.rowAt(layout.rows[3].y + 1) == 3);
  CHECK(layout.rowAt(-1) == -1);
  CHECK(layout.rowAt(layout.total_height) == -1);
  const auto& cpu = layout.rows[2];
  CHECK(layout.laneAt(cpu, layout.laneTop(cpu, 2) + 1) == 2);
}

TEST_CASE("timeline layout: device rows are named after the trace's accelerator") {
  // An MTIA trace's device rows say MTIA, not GPU (issue 13); CUDA, ROCm and XPU stay "GPU".
  const auto trace = steplint::test::smallTrace();
  trace->model.metadata.accelerator = steplint::trace::Accelerator::kMtia;
  const std::vector<std::string> rows = labels(buildTimelineLayout(trace.get()));
  for (const char* label :
       {"MTIA 0", "MTIA 0 · stream 7", "MTIA 1 · stream 7", "MTIA 0 utilization"}) {
    INFO(label);
    CHECK(std::find(rows.begin(), rows.end(), label) != rows.end());
  }
  CHECK(std::find(rows.begin(), rows.end(), "GPU 0 · stream 7") == rows.end());
}

TEST_CASE("timeline layout: empty and odd traces") {
  CHECK(buildTimelineLayout(nullptr).rows.empty());
  steplint::gui::LoadedTrace empty;
  CHECK(buildTimelineLayout(&empty).rows.empty());

  // A huge depth is clamped to kMaxLanes lanes.
  steplint::gui::LoadedTrace deep;
  steplint::test::addTrack(deep.model, steplint::trace::TrackKind::kCpuThread, 1, 1,
                           {{0, 10, "a", steplint::trace::EventKind::kCpuOp, 0},
                            {0, 5, "b", steplint::trace::EventKind::kCpuOp, 60000}});
  const TimelineLayout layout = buildTimelineLayout(&deep);
  REQUIRE(layout.rows.size() == 2);
  CHECK(layout.rows[1].depth_count == TimelineLayout::kMaxLanes);
}

TEST_CASE("timeline layout: counter values are printed with units for memory") {
  steplint::gui::CounterSeries memory;
  memory.bytes = true;
  CHECK(steplint::gui::formatCounterValue(memory, 5'234'000'000.0) == "5.23 GB");
  CHECK(steplint::gui::formatCounterValue(memory, 512.0) == "512 B");
  steplint::gui::CounterSeries plain;
  CHECK(steplint::gui::formatCounterValue(plain, 0.123456) == "0.1235");
}

TEST_CASE("timeline layout: GPU utilization is the kernel-busy share of each time bucket") {
  steplint::trace::TraceModel model;
  // Trace range [0, 10 ms): a CPU op spans it; GPU 0 runs kernels over [0, 2.5 ms) twice
  // (overlapping, counted once) and [5, 6 ms).
  steplint::test::addTrack(model, steplint::trace::TrackKind::kCpuThread, 1, 1,
                           {{0, 10'000'000, "op"}});
  const uint32_t gpu =
      steplint::test::addTrack(model, steplint::trace::TrackKind::kGpuStream, 0, 7,
                               {{0, 2'500'000, "k1", steplint::trace::EventKind::kKernel},
                                {1'000'000, 1'000'000, "k2", steplint::trace::EventKind::kKernel},
                                {5'000'000, 1'000'000, "k3", steplint::trace::EventKind::kKernel}});
  (void)gpu;
  const auto series = steplint::gui::kernelBusySeries(model, 10);  // 1 ms buckets
  REQUIRE(series.size() == 1);
  const auto& s = series.at(0);
  CHECK(s.percent);
  const std::vector<double> expected = {1, 1, 0.5, 0, 0, 1, 0, 0, 0, 0};
  REQUIRE(s.values.size() == expected.size());
  for (size_t i = 0; i < expected.size(); ++i) {
    INFO(i);
    CHECK(s.values[i] == Approx(expected[i]));
    CHECK(s.ts_ns[i] == static_cast<int64_t>(i) * 1'000'000);
  }
  CHECK(steplint::gui::formatCounterValue(s, 0.425) == "42 %");
  CHECK(steplint::gui::kernelBusySeries(steplint::trace::TraceModel{}).empty());
}
