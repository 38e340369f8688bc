// The comparison view: both timelines with step N above step N and the zoom kept in step, the
// per-step breakdown of both on one scale, and the diff's tables; the ResNet-50 pair (0 vs 4
// DataLoader workers) with its known truth, and bad input shown in the window.
#include "compare_window.h"

#include <QComboBox>
#include <QLabel>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <catch2/catch.hpp>

#include "aligned_timelines.h"
#include "breakdown_chart.h"
#include "fixtures.h"
#include "gui_test_traces.h"
#include "screenshot.h"
#include "stats_table.h"
#include "steplint/gui/comparison_loader.h"
#include "steplint/gui/comparison_models.h"
#include "steplint/gui/selection_and_zoom.h"

using namespace steplint;
using gui::CompareWindow;

namespace {

/// smallTrace() against itself with every event of the new run 40 µs later and its steps
/// renumbered the same: a pair whose clocks differ, as two recordings' do.
std::shared_ptr<const gui::LoadedComparison> shiftedPair() {
  auto base = test::smallTrace();
  auto next = test::smallTrace();
  for (trace::Event& e : next->model.events) e.start_ns += 40'000;
  for (analyzer::Step& s : next->summary.steps.steps) {
    s.start_ns += 40'000;
    s.end_ns += 40'000;
  }
  auto out = std::make_shared<gui::LoadedComparison>();
  out->diff = analyzer::diffRuns(analyzer::profileRun(base->model, base->summary, nullptr),
                                 analyzer::profileRun(next->model, next->summary, nullptr));
  out->base = base;
  out->next = next;
  return out;
}

}  // namespace

TEST_CASE("compare window: step N of NEW under step N of BASE, and the zoom kept in step (#15)") {
  CompareWindow window;
  window.resize(1600, 1000);
  QSignalSpy shown(&window, &CompareWindow::comparisonShown);
  window.setComparison(shiftedPair());
  window.show();
  REQUIRE(QTest::qWaitForWindowExposed(&window));
  CHECK(shown.size() == 1);
  CHECK(window.tabs()->count() == 4);
  CHECK(window.headerLabel()->text().contains(QStringLiteral("Step time:")));

  gui::AlignedTimelines* t = window.timelines();
  CHECK(t->upperTitle().startsWith(QStringLiteral("BASE: small.json")));
  CHECK(t->lowerTitle().startsWith(QStringLiteral("NEW: small.json")));
  CHECK(t->stepBox()->count() == 3);
  REQUIRE(t->showStep(2));
  const gui::TimeRange up = t->upperSelection()->visibleRange();
  const gui::TimeRange down = t->lowerSelection()->visibleRange();
  CHECK(down.start_ns - up.start_ns == 40'000);  // step 2 under step 2
  CHECK(down.end_ns - up.end_ns == 40'000);
  CHECK(up.start_ns < 100'000);  // step 2 runs 100..200 µs, shown whole
  CHECK(up.end_ns > 200'000);

  // Zoom the lower one: the upper one follows.
  t->lowerSelection()->setVisibleRange({150'000, 170'000});
  CHECK(t->upperSelection()->visibleRange().start_ns == 110'000);
  CHECK(t->upperSelection()->visibleRange().end_ns == 130'000);
}

TEST_CASE(
    "compare window: the breakdown of both runs on one scale, the diff's tables filled (#15)") {
  CompareWindow window;
  window.resize(1600, 1000);
  window.setComparison(shiftedPair());
  window.show();
  window.tabs()->setCurrentIndex(CompareWindow::kStepsTab);
  CHECK(window.baseChart()->barCount() == 4);  // three steps and the average
  CHECK(window.newChart()->barCount() == 4);
  CHECK(window.categoryTable()->view()->model()->rowCount() == analyzer::kStepCategoryCount + 1);
  CHECK(window.stepTable()->view()->model()->rowCount() == 3);
  CHECK(window.opTable()->view()->model()->rowCount() > 0);
  CHECK(window.opTable()->view()->isColumnHidden(gui::GroupDeltaModel::kAbsDeltaColumn));

  // A step row leads to both timelines at that step.
  emit window.stepTable()->rowActivated(2);
  CHECK(window.tabs()->currentIndex() == CompareWindow::kTimelinesTab);
  CHECK(window.timelines()->stepBox()->currentText() == QStringLiteral("#3"));
}

TEST_CASE("compare window: a missing trace is said in the window, no crash (#15)") {
  QTemporaryDir dir;
  CompareWindow window;
  window.openComparison(dir.filePath(QStringLiteral("base.json")),
                        dir.filePath(QStringLiteral("new.json")));
  QTRY_VERIFY_WITH_TIMEOUT(!window.lastError().isEmpty(), 30000);
  CHECK(window.lastError().contains(QStringLiteral("base.json")));
  CHECK(window.headerLabel()->text().contains(QStringLiteral("Cannot compare")));
  CHECK(window.comparison() == nullptr);
}

TEST_CASE("compare window: ResNet-50 with 0 vs 4 workers, the DataLoader is what changed (#15)",
          "[fixture][slow]") {
  const std::string base =
      test::requireFixture("kineto/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz");
  const std::string next =
      test::requireFixture("kineto/resnet50_num_workers_4/worker0.1623212756351.pt.trace.json.gz");
  std::string error;
  const auto comparison = gui::ComparisonLoader::loadNow(base, next, true, nullptr, {}, error);
  INFO(error);
  REQUIRE(comparison != nullptr);
  // The numbers of `steplint diff` on the same pair (tests/cli/diff_exe_test.cpp).
  gui::CategoryDeltaModel categories;
  categories.setComparison(comparison);
  auto delta = [&](const QString& category) {
    for (int row = 0; row < categories.rowCount(); ++row)
      if (categories.index(row, 0).data().toString() == category)
        return categories.index(row, gui::CategoryDeltaModel::kDeltaColumn)
            .data(Qt::UserRole)
            .toDouble();
    FAIL("no row " << category.toStdString());
    return 0.0;
  };
  CHECK(delta(QStringLiteral("DataLoader")) == Approx(-58.08).margin(0.05));
  CHECK(delta(QStringLiteral("CPU Exec")) == Approx(8.99).margin(0.05));
  CHECK(delta(QStringLiteral("Step time")) == Approx(-36.52).margin(0.05));
  gui::ScreenshotOptions options;
  options.size = QSize(1600, 1000);
  options.tab = QStringLiteral("steps");
  CHECK_FALSE(gui::renderCompareWindow(comparison, options).isNull());
}
