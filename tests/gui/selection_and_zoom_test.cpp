#include "steplint/gui/selection_and_zoom.h"

#include <QSignalSpy>
#include <catch2/catch.hpp>

using steplint::analyzer::TimeRange;
using steplint::gui::SelectionAndZoom;

TEST_CASE("selection and zoom: ranges are clamped to the trace and keep their centre") {
  SelectionAndZoom sz;
  sz.reset({1'000'000, 2'000'000});
  QSignalSpy changed(&sz, &SelectionAndZoom::visibleRangeChanged);

  sz.setVisibleRange({1'900'000, 2'300'000});  // runs past the end: slid back, width kept
  CHECK(sz.visibleRange().start_ns == 1'600'000);
  CHECK(sz.visibleRange().end_ns == 2'000'000);

  sz.setVisibleRange({0, 10'000'000});  // wider than the trace: the whole trace
  CHECK(sz.visibleRange().start_ns == 1'000'000);
  CHECK(sz.visibleRange().end_ns == 2'000'000);

  sz.setVisibleRange({1'500'000, 1'500'010});  // narrower than 1 µs: widened around the centre
  CHECK(sz.visibleRange().end_ns - sz.visibleRange().start_ns == SelectionAndZoom::kMinSpanNs);
  CHECK(changed.count() == 3);
}

TEST_CASE("selection and zoom: zoomTo adds a margin and undo walks back") {
  SelectionAndZoom sz;
  sz.reset({0, 1'000'000});
  sz.zoomTo({100'000, 200'000}, 0.1);
  CHECK(sz.visibleRange().start_ns == 90'000);
  CHECK(sz.visibleRange().end_ns == 210'000);
  sz.setVisibleRange({300'000, 400'000});  // a drag: not remembered
  REQUIRE(sz.canUndoZoom());
  CHECK(sz.undoZoom());
  CHECK(sz.visibleRange().start_ns == 0);
  CHECK(sz.visibleRange().end_ns == 1'000'000);
  CHECK_FALSE(sz.undoZoom());
}

TEST_CASE("selection and zoom: a finding highlights its evidence, deselecting clears it") {
  SelectionAndZoom sz;
  sz.reset({0, 100});
  steplint::analyzer::Evidence evidence;
  evidence.events = {3, 5};
  evidence.ranges = {{10, 20}};
  QSignalSpy finding(&sz, &SelectionAndZoom::selectedFindingChanged);
  sz.selectFinding(2, &evidence);
  CHECK(sz.selectedFinding() == 2);
  CHECK(sz.highlightedEvents() == std::vector<uint32_t>{3, 5});
  REQUIRE(sz.highlightedRanges().size() == 1);
  sz.selectFinding(-1, nullptr);
  CHECK(sz.highlightedEvents().empty());
  CHECK(finding.count() == 2);
}

TEST_CASE("selection and zoom: evidence extent covers ranges and events, ignores bad indices") {
  steplint::trace::TraceModel model;
  model.events.resize(2);
  model.events[0].start_ns = 50;
  model.events[0].dur_ns = 10;
  model.events[1].start_ns = 5;
  model.events[1].dur_ns = 1;
  steplint::analyzer::Evidence evidence;
  evidence.ranges = {{20, 30}};
  evidence.events = {0, 99};
  TimeRange extent = steplint::gui::evidenceExtent(evidence, model);
  CHECK(extent.start_ns == 20);
  CHECK(extent.end_ns == 60);
  CHECK(steplint::gui::evidenceExtent({}, model).end_ns == 0);
}
