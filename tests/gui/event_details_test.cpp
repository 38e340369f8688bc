#include "steplint/gui/event_details.h"

#include <catch2/catch.hpp>

#include "gui_test_traces.h"
#include "steplint/gui/event_search.h"
#include "steplint/gui/format.h"

using namespace steplint;
using gui::EventDetails;
using gui::EventDetailsIndex;

namespace {

std::string rowValue(const EventDetails& d, const std::string& key) {
  for (const auto& row : d.rows) {
    if (row.key == key) return row.value;
  }
  return "<absent>";
}

std::vector<std::string> relations(const EventDetails& d) {
  std::vector<std::string> out;
  for (const auto& link : d.links) out.push_back(link.relation + " " + link.label);
  return out;
}

}  // namespace

TEST_CASE("event details: a kernel links to its launch call and CPU op, and knows its step") {
  test::SmallTraceEvents ev;
  auto trace = test::smallTrace(&ev);
  trace->model.gpu_details[trace->model.events[ev.kernel].detail].grid[0] = 80;
  trace->model.gpu_details[trace->model.events[ev.kernel].detail].grid[1] = 2;
  trace->model.gpu_details[trace->model.events[ev.kernel].detail].grid[2] = 1;
  EventDetailsIndex index(trace->model, trace->summary.steps);
  const EventDetails d = index.describe(ev.kernel);
  CHECK(d.title == "volta_sgemm_128x64_nn");
  CHECK(rowValue(d, "Kind") == "kernel");
  CHECK(rowValue(d, "Start") == "20.0 µs after trace start");
  CHECK(rowValue(d, "Duration") == "50.0 µs");
  CHECK(rowValue(d, "Grid") == "[80, 2, 1]");
  CHECK(rowValue(d, "Stream") == "7");
  CHECK(relations(d) ==
        std::vector<std::string>{"Launch call cudaLaunchKernel", "CPU op aten::addmm"});
  REQUIRE(d.in_step);
  CHECK(d.step_number == 1);
  CHECK(d.parents.empty());  // device ops have no CPU nesting
}

TEST_CASE("event details: a CPU op lists its launches and their kernels (reverse index)") {
  test::SmallTraceEvents ev;
  auto trace = test::smallTrace(&ev);
  EventDetailsIndex index(trace->model, trace->summary.steps);
  const EventDetails d = index.describe(ev.addmm);
  CHECK(relations(d) == std::vector<std::string>{"Launch call cudaLaunchKernel",
                                                 "Device op volta_sgemm_128x64_nn"});
  REQUIRE(d.links.size() == 2);
  CHECK(d.links[1].event == ev.kernel);
  // Parent chain, innermost first: aten::linear, then ProfilerStep#1.
  REQUIRE(d.parents.size() == 2);
  CHECK(d.parents[0].event == ev.linear);
  CHECK(d.parents[1].event == ev.step1);
  CHECK(index.linkedFrom(ev.linear).empty());  // launches link to the innermost op only

  const EventDetails memcpy = index.describe(ev.memcpy);
  CHECK(rowValue(memcpy, "Copy kind") == "HtoD");
  CHECK(rowValue(memcpy, "Source memory") == "Pageable");
  CHECK(memcpy.step_number == 2);
}

TEST_CASE("event details: out-of-range index and capped links never crash") {
  test::SmallTraceEvents ev;
  auto trace = test::smallTrace(&ev);
  EventDetailsIndex index(trace->model, trace->summary.steps);
  CHECK(index.describe(trace::kNoIndex).title.empty());
  CHECK(index.linkedFrom(trace::kNoIndex).empty());
  const EventDetails capped = index.describe(ev.addmm, 1);
  CHECK(capped.links.size() == 1);
  CHECK(capped.links_not_shown == 1);
  trace::TraceModel empty;
  analyzer::StepResult no_steps;
  EventDetailsIndex empty_index(empty, no_steps);
  CHECK(empty_index.describe(0).title.empty());
}

TEST_CASE("event search: next match after the selection in time order, wrapping around") {
  test::SmallTraceEvents ev;
  auto trace = test::smallTrace(&ev);
  const auto& m = trace->model;
  const uint32_t first = gui::findNextEvent(m, "ADDMM", trace::kNoIndex);
  CHECK(first == ev.addmm);
  const uint32_t second = gui::findNextEvent(m, "addmm", first);
  REQUIRE(second != trace::kNoIndex);
  CHECK(m.events[second].start_ns == 210'000);
  CHECK(gui::findNextEvent(m, "addmm", second) == first);  // wraps
  CHECK(gui::findNextEvent(m, "no such op", trace::kNoIndex) == trace::kNoIndex);
  CHECK(gui::findNextEvent(m, "", trace::kNoIndex) == trace::kNoIndex);
}

TEST_CASE("format: durations, fractions and bytes") {
  CHECK(gui::formatDurationNs(850) == "850 ns");
  CHECK(gui::formatDurationNs(12'345) == "12.3 µs");
  CHECK(gui::formatDurationNs(1'234'567) == "1.235 ms");
  CHECK(gui::formatFraction(0.334) == "33.4 %");
  CHECK(gui::formatFraction(-1) == "n/a");
  CHECK(gui::formatBytes(1536) == "1.5 KiB");
}
