// Two runs of a job compared in the GUI (`steplint-gui --compare BASE_DIR NEW_DIR`) on synthetic
// jobs: the numbers are `steplint diff`'s (analyzer/job_diff.h), a rank double-clicked asks for
// its two traces, and a side that cannot be read is said in the window, never a crash.
#include "job_compare_window.h"

#include <QAbstractItemModelTester>
#include <QDir>
#include <QLabel>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <catch2/catch.hpp>

#include "gui_test_jobs.h"
#include "screenshot.h"
#include "stats_table.h"
#include "steplint/gui/comparison_models.h"
#include "steplint/gui/job_comparison_models.h"

using namespace steplint;
using gui::JobCompareWindow;
using gui::RankDeltaModel;

namespace {

struct TwoJobs {
  QTemporaryDir dir;
  QString base, next;  // rank 2 computes 8 ms longer in BASE; nobody is late in NEW
  TwoJobs() {
    base = dir.filePath(QStringLiteral("base"));
    next = dir.filePath(QStringLiteral("new"));
    REQUIRE(QDir().mkpath(base));
    REQUIRE(QDir().mkpath(next));
    test::writeJob(base, test::backwardStraggler());
    test::writeJob(next, bench::JobSynthOptions{});
  }
};

std::shared_ptr<const gui::LoadedJobComparison> load(const TwoJobs& jobs) {
  std::string error;
  auto comparison =
      gui::JobComparisonLoader::loadNow({jobs.base}, {jobs.next}, nullptr, {}, error);
  INFO(error);
  REQUIRE(comparison != nullptr);
  return comparison;
}

/// The model row of `rank` in the ranks table.
int rowOf(const RankDeltaModel& model, int64_t rank) {
  for (int row = 0; row < model.rowCount(); ++row)
    if (model.index(row, 0).data(RankDeltaModel::kRankRole).toLongLong() == rank) return row;
  FAIL("no rank " << rank);
  return -1;
}

}  // namespace

TEST_CASE("job comparison: the straggler fixed shows as the job's step, its parts and rank 2") {
  const TwoJobs jobs;
  const auto comparison = load(jobs);
  const analyzer::JobDiff& d = comparison->diff;
  CHECK(d.step_delta_ns == Approx(-8e6).epsilon(0.05));
  REQUIRE(d.step_test.tested);
  CHECK(d.step_test.significant);
  CHECK(d.base.straggler == 2);
  CHECK(d.next.straggler == -1);
  CHECK(comparison->notices.empty());
  {  // the models keep Qt's rules on this result and on none
    gui::JobPartDeltaModel parts;
    RankDeltaModel ranks;
    QAbstractItemModelTester t1(&parts, QAbstractItemModelTester::FailureReportingMode::Fatal);
    QAbstractItemModelTester t2(&ranks, QAbstractItemModelTester::FailureReportingMode::Fatal);
    parts.setComparison(comparison);
    ranks.setComparison(comparison);
    CHECK(ranks.rowCount() == 4);
    ranks.setComparison(nullptr);
    CHECK(ranks.rowCount() == 0);
  }

  JobCompareWindow window;
  window.resize(1400, 800);
  window.setComparison(comparison);
  window.show();
  REQUIRE(QTest::qWaitForWindowExposed(&window));
  const QString header = window.headerLabel()->text();
  INFO(header.toStdString());
  CHECK(header.contains(QStringLiteral("Job step time: ")));
  CHECK(header.contains(QStringLiteral("significant given the per-step spread")));
  CHECK(header.contains(QStringLiteral("straggler rank 2 in 6 of 6 steps, cause: GPU compute")));

  QAbstractItemModel* parts = window.partTable()->view()->model();
  REQUIRE(parts->rowCount() == static_cast<int>(analyzer::kJobPartCount) + 1);
  const QModelIndex step_delta = parts->index(parts->rowCount() - 1, gui::JobPartDeltaModel::kDeltaColumn);
  CHECK(step_delta.data(Qt::UserRole).toDouble() == Approx(d.step_delta_ns / 1e6));
  CHECK(step_delta.data().toString().startsWith(QLatin1Char('-')));

  auto* ranks = qobject_cast<RankDeltaModel*>(
      qobject_cast<QSortFilterProxyModel*>(window.rankTable()->view()->model())->sourceModel());
  REQUIRE(ranks != nullptr);
  REQUIRE(ranks->rowCount() == 4);
  const int late = rowOf(*ranks, 2);
  // The fixed straggler computes 8 ms less; the others wait 8 ms less.
  CHECK(ranks->index(late, RankDeltaModel::kComputeColumn).data(Qt::UserRole).toDouble() ==
        Approx(-8).margin(0.3));
  CHECK(ranks->index(rowOf(*ranks, 0), RankDeltaModel::kWaitColumn).data(Qt::UserRole).toDouble() ==
        Approx(-8).margin(0.5));
  CHECK(ranks->index(late, RankDeltaModel::kBaseLateColumn).data().toString() == "6");
  CHECK(ranks->index(late, RankDeltaModel::kNewLateColumn).data().toString() == "0");

  // The job rules' findings of both runs: the straggler fixed.
  QAbstractItemModel* findings = window.findingTable()->view()->model();
  REQUIRE(findings->rowCount() == 1);
  CHECK(findings->index(0, gui::FindingDeltaModel::kChangeColumn).data().toString() == "fixed");
  CHECK(findings->index(0, gui::FindingDeltaModel::kCodeColumn).data().toString() == "SL701");

  QSignalSpy asked(&window, &JobCompareWindow::rankComparisonRequested);
  emit window.rankTable()->rowActivated(late);
  REQUIRE(asked.size() == 1);
  CHECK(asked.front().at(0).toString() == QDir(jobs.base).filePath("rank2.pt.trace.json"));
  CHECK(asked.front().at(1).toString() == QDir(jobs.next).filePath("rank2.pt.trace.json"));
}

TEST_CASE("job comparison: a rank in one run only, and a side that cannot be read") {
  const TwoJobs jobs;
  SECTION("a rank missing from NEW: '-' on its side, nothing to compare it with") {
    REQUIRE(QFile::remove(QDir(jobs.next).filePath("rank3.pt.trace.json")));
    JobCompareWindow window;
    window.setComparison(load(jobs));
    CHECK(window.headerLabel()->text().contains(QStringLiteral("rank(s) 3 only in the base run")));
    auto* ranks = qobject_cast<RankDeltaModel*>(
        qobject_cast<QSortFilterProxyModel*>(window.rankTable()->view()->model())->sourceModel());
    const int row = rowOf(*ranks, 3);
    CHECK(ranks->index(row, RankDeltaModel::kNewStepColumn).data().toString() == "-");
    CHECK(ranks->index(row, RankDeltaModel::kComputeColumn).data().toString() == "-");
    QSignalSpy asked(&window, &JobCompareWindow::rankComparisonRequested);
    emit window.rankTable()->rowActivated(row);
    CHECK(asked.isEmpty());
  }
  SECTION("a missing folder: the error names the side, in the window") {
    JobCompareWindow window;
    window.openComparison({jobs.base}, {jobs.dir.filePath(QStringLiteral("no-such-folder"))});
    QTRY_VERIFY_WITH_TIMEOUT(!window.lastError().isEmpty(), 60000);
    CHECK(window.lastError().contains(QStringLiteral("new: ")));
    CHECK(window.lastError().contains(QStringLiteral("no-such-folder")));
    CHECK(window.headerLabel()->text().contains(QStringLiteral("Cannot compare the jobs")));
    CHECK(window.rankTable()->view()->model()->rowCount() == 0);
  }
}

TEST_CASE("job comparison: --screenshot --compare BASE_DIR NEW_DIR writes the picture") {
  const TwoJobs jobs;
  gui::ScreenshotOptions options;
  options.job = {jobs.base};
  options.compare_with = jobs.next;
  options.output = jobs.dir.filePath(QStringLiteral("jobs.png"));
  options.tab = QStringLiteral("parts");
  options.size = QSize(1000, 600);
  QString error;
  REQUIRE(gui::runScreenshot(options, error) == 0);
  const QImage image(options.output);
  CHECK(image.width() == 1000);
  CHECK(image.height() == 600);
}
