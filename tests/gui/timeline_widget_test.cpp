#include "steplint/gui/timeline_widget.h"

#include <QHelpEvent>
#include <QImage>
#include <QNativeGestureEvent>
#include <QPointingDevice>
#include <QScrollBar>
#include <QSet>
#include <QSignalSpy>
#include <QTest>
#include <QTextDocument>
#include <QToolTip>
#include <QWheelEvent>
#include <catch2/catch.hpp>

#include "fixtures.h"
#include "steplint/gui/trace_loader.h"
#include "timeline_test_trace.h"

using steplint::gui::SelectionAndZoom;
using steplint::gui::TimelineWidget;
using steplint::gui::TimeRange;

namespace {

int64_t span(TimeRange r) { return r.end_ns - r.start_ns; }

bool containsLabel(const std::vector<QString>& labels, const QString& prefix) {
  for (const QString& l : labels) {
    if (l.startsWith(prefix)) return true;
  }
  return false;
}

// Distinct colours and non-background pixels inside the rows area (right of the labels,
// below the ruler).
struct PixelStats {
  int distinct = 0;
  double painted_fraction = 0;
};

PixelStats trackAreaStats(const QImage& image) {
  QSet<QRgb> colours;
  int painted = 0, total = 0;
  const QRgb background = qRgb(0xfa, 0xfa, 0xfa);
  for (int y = 30; y < image.height(); y += 2) {
    for (int x = 230; x < image.width() - 20; x += 2) {
      const QRgb c = image.pixel(x, y);
      colours.insert(c);
      ++total;
      painted += c != background ? 1 : 0;
    }
  }
  return {static_cast<int>(colours.size()), total > 0 ? static_cast<double>(painted) / total : 0.0};
}

void sendWheel(QWidget& w, QPoint pos, int delta, Qt::KeyboardModifiers mods) {
  QWheelEvent e(QPointF(pos), QPointF(w.mapToGlobal(pos)), QPoint(), QPoint(0, delta), Qt::NoButton,
                mods, Qt::NoScrollPhase, false);
  QApplication::sendEvent(&w, &e);
}

}  // namespace

TEST_CASE("timeline widget: renders the ResNet-50 trace with steps, CPU and GPU rows") {
  const std::string path = steplint::test::requireFixture(
      "kineto/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz");
  std::string error;
  auto trace = steplint::gui::TraceLoader::loadNow(path, nullptr, {}, error);
  REQUIRE(trace);
  SelectionAndZoom selection;
  TimelineWidget widget(&selection);
  widget.resize(1200, 600);
  widget.setTrace(trace);

  const auto labels = widget.trackLabels();
  CHECK(labels.front() == "Steps");
  CHECK(containsLabel(labels, "thread "));
  CHECK(containsLabel(labels, "GPU 0 · stream 7"));
  const auto full = trace->model.timeRange();
  CHECK(selection.visibleRange().start_ns == full.first);
  CHECK(selection.visibleRange().end_ns == full.second);

  const QImage image = widget.grab().toImage();
  const PixelStats stats = trackAreaStats(image);
  INFO("distinct colours " << stats.distinct << ", painted " << stats.painted_fraction);
  CHECK(stats.distinct >= 20);
  CHECK(stats.painted_fraction > 0.2);

  // Zoomed to one step, boxes carry names and colours of their own.
  const auto& step = trace->summary.steps.steps.at(1);
  selection.zoomTo({step.start_ns, step.end_ns});
  const PixelStats zoomed = trackAreaStats(widget.grab().toImage());
  CHECK(zoomed.distinct >= 20);

  widget.setTrace(nullptr);
  CHECK(widget.trackLabels().empty());
  CHECK_FALSE(widget.grab().toImage().isNull());
}

TEST_CASE("timeline widget: W/S zoom, A/D pan, F and U restore") {
  SelectionAndZoom selection;
  TimelineWidget widget(&selection);
  widget.resize(1000, 500);
  widget.setTrace(steplint::test::smallTrace());
  const TimeRange full = selection.visibleRange();
  REQUIRE(span(full) == 29'500'000);  // 0 .. the end of the last GPU kernel

  QTest::keyClick(&widget, Qt::Key_W);
  const TimeRange in = selection.visibleRange();
  CHECK(span(in) == Approx(span(full) * 0.8).epsilon(0.001));
  QTest::keyClick(&widget, Qt::Key_W);
  QTest::keyClick(&widget, Qt::Key_W);
  const TimeRange deeper = selection.visibleRange();
  CHECK(span(deeper) < span(in));

  QTest::keyClick(&widget, Qt::Key_A);
  const TimeRange left = selection.visibleRange();
  CHECK(left.start_ns < deeper.start_ns);
  CHECK(span(left) == span(deeper));
  QTest::keyClick(&widget, Qt::Key_D);
  QTest::keyClick(&widget, Qt::Key_D);
  CHECK(selection.visibleRange().start_ns > left.start_ns);

  QTest::keyClick(&widget, Qt::Key_S);
  CHECK(span(selection.visibleRange()) > span(deeper));

  QTest::keyClick(&widget, Qt::Key_F);
  CHECK(selection.visibleRange().start_ns == full.start_ns);
  CHECK(selection.visibleRange().end_ns == full.end_ns);
  QTest::keyClick(&widget, Qt::Key_U);  // F is remembered: undo goes back to the zoomed view
  CHECK(span(selection.visibleRange()) < span(full));
  QTest::keyClick(&widget, Qt::Key_0);
  CHECK(span(selection.visibleRange()) == span(full));
}

TEST_CASE("timeline widget: Ctrl+wheel zooms around the cursor, plain wheel scrolls rows") {
  SelectionAndZoom selection;
  TimelineWidget widget(&selection);
  widget.resize(1000, 120);  // short, so the rows scroll
  widget.setTrace(steplint::test::smallTrace());
  const TimeRange full = selection.visibleRange();

  const QPoint at(220 + 300, 80);  // 300 px into the time area
  const int area_width = 1000 - 220 - widget.findChild<QScrollBar*>()->sizeHint().width();
  const int64_t before = full.start_ns + (span(full) * 300) / area_width;
  sendWheel(widget, at, 120, Qt::ControlModifier);
  const TimeRange zoomed = selection.visibleRange();
  CHECK(span(zoomed) == Approx(span(full) * 0.8).epsilon(0.001));
  // The time under the cursor stays under it (to a pixel).
  const double ns_per_px = static_cast<double>(span(zoomed)) / area_width;
  const int64_t after = zoomed.start_ns + static_cast<int64_t>(300 * ns_per_px);
  CHECK(std::llabs(after - before) <= span(full) / area_width);

  sendWheel(widget, QPoint(600, 10), -120, Qt::NoModifier);  // over the ruler: zoom out
  CHECK(span(selection.visibleRange()) > span(zoomed));

  const TimeRange unchanged = selection.visibleRange();
  const QImage top = widget.grab().toImage();
  sendWheel(widget, at, -240, Qt::NoModifier);  // plain wheel: rows scroll, time stays
  CHECK(selection.visibleRange().start_ns == unchanged.start_ns);
  CHECK(selection.visibleRange().end_ns == unchanged.end_ns);
  CHECK(widget.grab().toImage() != top);
}

TEST_CASE("timeline widget: a touchpad pinch zooms around the fingers") {
  SelectionAndZoom selection;
  TimelineWidget widget(&selection);
  widget.resize(1000, 400);
  widget.setTrace(steplint::test::smallTrace());
  const TimeRange full = selection.visibleRange();
  const QPointF at(220 + 300, 80);
  QNativeGestureEvent spread(Qt::ZoomNativeGesture, QPointingDevice::primaryPointingDevice(), 2, at,
                             at, widget.mapToGlobal(at), 0.25, QPointF());
  QApplication::sendEvent(&widget, &spread);
  const TimeRange zoomed = selection.visibleRange();
  CHECK(span(zoomed) == Approx(span(full) / 1.25).epsilon(0.001));
  QNativeGestureEvent pinch(Qt::ZoomNativeGesture, QPointingDevice::primaryPointingDevice(), 2, at,
                            at, widget.mapToGlobal(at), -0.2, QPointF());
  QApplication::sendEvent(&widget, &pinch);
  CHECK(span(selection.visibleRange()) == Approx(span(zoomed) / 0.8).epsilon(0.001));
}

TEST_CASE(
    "timeline widget: click selects, double-click activates, Shift+drag and Z zoom to a range") {
  SelectionAndZoom selection;
  TimelineWidget widget(&selection);
  widget.resize(1000, 500);
  widget.setTrace(steplint::test::smallTrace());
  QSignalSpy activated(&widget, &TimelineWidget::eventActivated);

  // Row 2 (thread 1) lane 0 holds ProfilerStep#0 from 0 to 9 ms: click 100 px into it.
  const int time_left = 220;
  const int lane0_y =
      26 + 24 + 20 + 3 + 9;  // ruler, Steps row, process header, padding, half a lane
  QTest::mouseClick(&widget, Qt::LeftButton, Qt::NoModifier, QPoint(time_left + 100, lane0_y));
  const uint32_t selected = selection.selectedEvent();
  REQUIRE(selected != steplint::trace::kNoIndex);
  QTest::mouseDClick(&widget, Qt::LeftButton, Qt::NoModifier, QPoint(time_left + 100, lane0_y));
  REQUIRE(activated.count() == 1);
  CHECK(activated.at(0).at(0).value<uint32_t>() == selected);

  const TimeRange full = selection.visibleRange();
  QTest::mousePress(&widget, Qt::LeftButton, Qt::ShiftModifier, QPoint(time_left + 100, 300));
  QTest::mouseMove(&widget, QPoint(time_left + 200, 300));
  QTest::mouseRelease(&widget, Qt::LeftButton, Qt::ShiftModifier, QPoint(time_left + 200, 300));
  CHECK(span(selection.visibleRange()) == span(full));  // a Shift+drag only marks the range
  QTest::keyClick(&widget, Qt::Key_Z);
  CHECK(span(selection.visibleRange()) < span(full) / 5);
  CHECK(selection.canUndoZoom());
  QTest::keyClick(&widget, Qt::Key_Backspace);
  CHECK(span(selection.visibleRange()) == span(full));

  // Search dims the rest; a finding's evidence is outlined. Both only change pixels.
  const QImage plain = widget.grab().toImage();
  selection.setSearchText("sgemm");
  const QImage searched = widget.grab().toImage();
  CHECK(searched != plain);
  selection.setSearchText("");
  steplint::analyzer::Evidence evidence;
  evidence.events = {selected};
  evidence.ranges = {{1'000'000, 2'000'000}};
  selection.selectFinding(0, &evidence);
  CHECK(widget.grab().toImage() != plain);
}

TEST_CASE("timeline widget: ruler drag and step double-click zoom, odd traces do not crash") {
  SelectionAndZoom selection;
  TimelineWidget widget(&selection);
  widget.resize(1000, 500);
  const auto trace = steplint::test::smallTrace();
  widget.setTrace(trace);
  const TimeRange full = selection.visibleRange();

  QTest::mousePress(&widget, Qt::LeftButton, Qt::NoModifier, QPoint(320, 10));
  QTest::mouseMove(&widget, QPoint(420, 10));
  QTest::mouseRelease(&widget, Qt::LeftButton, Qt::NoModifier, QPoint(420, 10));
  CHECK(span(selection.visibleRange()) < span(full) / 5);
  REQUIRE(selection.undoZoom());

  // Steps row: Step 1 runs from 10 to 19.5 ms; double-click in it zooms to it (2 % margins).
  const int area_width = 1000 - 220 - widget.findChild<QScrollBar*>()->sizeHint().width();
  const int x = 220 + static_cast<int>(area_width * 15.0 / 29.5);
  QTest::mouseDClick(&widget, Qt::LeftButton, Qt::NoModifier, QPoint(x, 26 + 12));
  CHECK(selection.visibleRange().start_ns == 10'000'000 - 190'000);
  CHECK(selection.visibleRange().end_ns == 19'500'000 + 190'000);

  // Selecting the launching CPU op from elsewhere outlines it and draws its flow arrows.
  selection.zoomTo({0, 1'000'000}, 0.0);
  const QImage before = widget.grab().toImage();
  selection.selectEvent(steplint::test::firstNamed(trace->model, "aten::conv2d"));
  const QImage selected = widget.grab().toImage();
  CHECK(selected != before);
  selection.selectEvent(steplint::trace::kNoIndex);
  CHECK(widget.grab().toImage() == before);

  auto empty = std::make_shared<steplint::gui::LoadedTrace>();
  widget.setTrace(empty);
  CHECK(widget.trackLabels().empty());
  for (auto key : {Qt::Key_W, Qt::Key_S, Qt::Key_A, Qt::Key_D, Qt::Key_Z, Qt::Key_U, Qt::Key_F,
                   Qt::Key_Escape}) {
    QTest::keyClick(&widget, key);
  }
  QTest::mouseClick(&widget, Qt::LeftButton, Qt::NoModifier, QPoint(500, 200));
  sendWheel(widget, QPoint(500, 200), 120, Qt::ControlModifier);
  CHECK_FALSE(widget.grab().toImage().isNull());
}

TEST_CASE("timeline widget: clicking a group header folds and unfolds its rows") {
  SelectionAndZoom selection;
  TimelineWidget widget(&selection);
  widget.resize(1000, 500);
  widget.setTrace(steplint::test::smallTrace());
  const auto all = widget.trackLabels();
  REQUIRE(all.size() == 13);  // with "GPU 0 utilization" and "GPU 1 utilization"
  REQUIRE(all[1] == "Process 100");
  const QPoint header(100, 26 + 24 + 10);  // the process header, below the ruler and Steps
  QTest::mouseClick(&widget, Qt::LeftButton, Qt::NoModifier, header);
  const auto folded = widget.trackLabels();
  CHECK(folded.size() == 11);
  CHECK(folded[1] == "Process 100");
  CHECK(folded[2] == "GPU 0");
  CHECK(selection.selectedEvent() == steplint::trace::kNoIndex);
  QTest::mouseClick(&widget, Qt::LeftButton, Qt::NoModifier, header);
  CHECK(widget.trackLabels() == all);
}

TEST_CASE("timeline widget: the tooltip names the event, its duration and start") {
  SelectionAndZoom selection;
  TimelineWidget widget(&selection);
  widget.resize(1000, 500);
  widget.setTrace(steplint::test::smallTrace());
  widget.show();
  const QPoint at(220 + 100, 26 + 24 + 20 + 3 + 9);  // ProfilerStep#0 on thread 1, ~3.8 ms in
  QHelpEvent help(QEvent::ToolTip, at, widget.mapToGlobal(at));
  QApplication::sendEvent(&widget, &help);
  // The tooltip is explicit, escaped HTML (trace names may look like tags); read it as shown.
  QTextDocument shown;
  shown.setHtml(QToolTip::text());
  const QString text = shown.toPlainText();
  INFO(text.toStdString());
  CHECK(text.startsWith("ProfilerStep#0\nuser_annotation"));
  CHECK(text.contains("9.00 ms"));
  CHECK(text.contains("start 0 ns"));
  QToolTip::hideText();
}
