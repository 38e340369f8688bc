// The ranks view end to end on a synthetic job with a planted straggler: clicking the
// straggler finding shows the late rank's step above a waiting rank's, each zoomed to that
// step; bad inputs show a notice in the window, never a crash.
#include "job_window.h"

#include <QApplication>
#include <QComboBox>
#include <QDropEvent>
#include <QFile>
#include <QLabel>
#include <QListWidget>
#include <QMimeData>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <catch2/catch.hpp>

#include "advice_panel.h"
#include "aligned_timelines.h"
#include "gui_test_jobs.h"
#include "main_window.h"
#include "screenshot.h"
#include "stats_table.h"
#include "steplint/gui/job_loader.h"
#include "steplint/gui/job_models.h"
#include "steplint/gui/selection_and_zoom.h"

using namespace steplint;
using gui::JobWindow;

namespace {

std::shared_ptr<const gui::LoadedJob> loadJob(const QStringList& paths) {
  std::string error;
  auto job = gui::JobLoader::loadNow(paths, nullptr, {}, error);
  INFO(error);
  REQUIRE(job != nullptr);
  return job;
}

bool arrived(QSignalSpy& spy) { return !spy.isEmpty() || spy.wait(60000); }

/// Step `number` of `trace` lies whole in `visible`; returns how far into the view it starts.
int64_t stepOffset(const gui::LoadedTrace& trace, int64_t number, gui::TimeRange visible) {
  for (const analyzer::Step& s : trace.summary.steps.steps) {
    if (s.number != number) continue;
    CHECK(visible.start_ns <= s.start_ns);
    CHECK(visible.end_ns >= s.end_ns);
    return s.start_ns - visible.start_ns;
  }
  FAIL("no step " << number);
  return -1;
}

}  // namespace

TEST_CASE(
    "job window: the straggler finding shows the late rank's step above a waiting rank's (#14)") {
  QTemporaryDir dir;
  test::writeJob(dir.path(), test::backwardStraggler());
  JobWindow window;
  window.resize(1600, 1000);
  window.setJob(loadJob({dir.path()}));
  window.show();
  REQUIRE(QTest::qWaitForWindowExposed(&window));
  CHECK(window.ranksTable()->view()->model()->rowCount() == 4);
  CHECK(window.stepsTable()->view()->model()->rowCount() == 6);
  CHECK_FALSE(window.noticeLabel()->isVisible());
  CHECK_FALSE(window.jobBox()->isVisible());

  QSignalSpy shown(&window, &JobWindow::rankPairShown);
  REQUIRE(window.advicePanel()->selectFirstFinding(QStringLiteral("SL701")));
  REQUIRE(arrived(shown));
  const gui::AlignedTimelines* pair = window.pairView();
  REQUIRE(pair->upperTrace() != nullptr);
  REQUIRE(pair->lowerTrace() != nullptr);
  CHECK(QString::fromStdString(pair->upperTrace()->path)
            .endsWith(QStringLiteral("rank2.pt.trace.json")));
  CHECK_FALSE(QString::fromStdString(pair->lowerTrace()->path)
                  .endsWith(QStringLiteral("rank2.pt.trace.json")));
  CHECK(pair->upperTitle().startsWith(QStringLiteral("Rank 2, late")));
  CHECK(pair->upperTitle().contains(QStringLiteral("GPU compute")));
  CHECK(pair->lowerTitle().contains(QStringLiteral(", waiting:")));

  // Each timeline shows the step whole, from the same offset, at the same scale.
  const int64_t step = window.analysis()->steps.front().number;  // SL701's first late step
  CHECK(pair->stepBox()->currentText() == QStringLiteral("#%1").arg(step));
  const gui::TimeRange up = pair->upperSelection()->visibleRange();
  const gui::TimeRange down = pair->lowerSelection()->visibleRange();
  CHECK(up.end_ns - up.start_ns == down.end_ns - down.start_ns);
  CHECK(stepOffset(*pair->upperTrace(), step, up) == stepOffset(*pair->lowerTrace(), step, down));

  // Zooming the upper one moves the lower one with it, step N over step N.
  pair->upperSelection()->setVisibleRange(
      {up.start_ns, up.start_ns + (up.end_ns - up.start_ns) / 2});
  const gui::TimeRange followed = pair->lowerSelection()->visibleRange();
  CHECK(followed.start_ns == down.start_ns);
  CHECK(followed.end_ns - followed.start_ns == (up.end_ns - up.start_ns) / 2);

  // A late step of the steps table shows that step, from the traces already loaded.
  QTableView* steps = window.stepsTable()->view();
  shown.clear();
  const QModelIndex row = steps->model()->index(3, 0);
  steps->setCurrentIndex(row);
  REQUIRE(arrived(shown));
  const int64_t fourth = row.data(gui::JobStepsModel::kStepRole).toLongLong();
  CHECK(pair->stepBox()->currentText() == QStringLiteral("#%1").arg(fourth));
  stepOffset(*pair->upperTrace(), fourth, pair->upperSelection()->visibleRange());
}

TEST_CASE("job window: a missing folder, one rank and mixed jobs are said in the window (#14)") {
  QTemporaryDir dir;
  SECTION("nothing to open: the notice says why, no crash") {
    JobWindow window;
    window.openJob({dir.filePath(QStringLiteral("no-such-folder"))});
    QTRY_VERIFY_WITH_TIMEOUT(!window.lastError().isEmpty(), 30000);
    CHECK(window.lastError().contains(QStringLiteral("no-such-folder")));
    CHECK(window.noticeLabel()->text().contains(QStringLiteral("Cannot open the job")));
    CHECK(window.ranksTable()->view()->model()->rowCount() == 0);
  }
  SECTION("one rank: the notice offers its trace window") {
    const QStringList paths = test::writeJob(dir.path(), test::backwardStraggler());
    JobWindow window;
    window.setJob(loadJob({paths.first()}));
    window.show();
    CHECK(window.noticeLabel()->isVisible());
    CHECK(window.noticeLabel()->text().contains(QStringLiteral("one rank")));
    // The analysis's own warning is listed with the files': which ranks are missing.
    CHECK_FALSE(window.advicePanel()
                    ->healthList()
                    ->findItems(QStringLiteral("only 1 of 4 ranks"), Qt::MatchContains)
                    .isEmpty());
    CHECK(window.advicePanel()->tabs()->tabText(2) == QStringLiteral("Warnings (1)"));
    QSignalSpy requested(&window, &JobWindow::traceRequested);
    emit window.noticeLabel()->linkActivated(paths.first());
    REQUIRE(requested.size() == 1);
    CHECK(requested.first().first().toString() == paths.first());
  }
  SECTION("a trace that names no rank beside the ranks: the notice offers it on its own") {
    test::writeJob(dir.path(), test::backwardStraggler());
    const QString lone = dir.filePath(QStringLiteral("notes.json"));
    QFile file(lone);
    REQUIRE(file.open(QIODevice::WriteOnly));
    file.write(R"({"traceEvents": [{"ph": "X", "cat": "cpu_op", "name": "aten::add", "pid": 1,
                   "tid": 1, "ts": 0, "dur": 10}]})");
    file.close();
    JobWindow window;
    window.setJob(loadJob({dir.path()}));
    window.show();
    CHECK(window.ranksTable()->view()->model()->rowCount() == 4);
    const QString notice = window.noticeLabel()->text();
    CHECK(notice.contains(QStringLiteral("notes.json: no distributedInfo")));
    CHECK(notice.contains(QStringLiteral("<a href=\"%1\">Open notes.json").arg(lone)));
    QSignalSpy requested(&window, &JobWindow::traceRequested);
    emit window.noticeLabel()->linkActivated(lone);
    REQUIRE(requested.size() == 1);
    CHECK(requested.first().first().toString() == lone);
  }
  SECTION("two jobs in one folder: a job box to choose, the notice says so") {
    test::writeJob(dir.path(), test::backwardStraggler(), 6, QStringLiteral("a_"));
    bench::JobSynthOptions two;
    two.ranks = 2;
    test::writeJob(dir.path(), two, 6, QStringLiteral("b_"));
    JobWindow window;
    window.setJob(loadJob({dir.path()}));
    window.show();
    CHECK(window.jobBox()->isVisible());
    CHECK(window.jobBox()->count() == 2);
    CHECK(window.noticeLabel()->text().contains(QStringLiteral("2 different jobs")));
    const int first_rows = window.ranksTable()->view()->model()->rowCount();
    window.setJob(window.job(), 1);
    CHECK(window.ranksTable()->view()->model()->rowCount() + first_rows == 6);
  }
}

TEST_CASE("job window: the screenshot shows the ranks and the straggler's step (#14)") {
  QTemporaryDir dir;
  test::writeJob(dir.path(), test::backwardStraggler());
  gui::ScreenshotOptions options;
  options.finding = QStringLiteral("SL701");
  options.size = QSize(1200, 800);
  bool found = false;
  const QImage image = gui::renderJobWindow(loadJob({dir.path()}), options, &found);
  CHECK(found);
  REQUIRE_FALSE(image.isNull());
  CHECK(image.width() >= 1200);
}

TEST_CASE("main window: a folder opened or several traces dropped open the ranks view (#14)") {
  QTemporaryDir dir;
  const QStringList paths = test::writeJob(dir.path(), test::backwardStraggler());
  auto jobWindows = [] {
    QList<JobWindow*> out;
    for (QWidget* w : QApplication::topLevelWidgets())
      if (auto* job = qobject_cast<JobWindow*>(w)) out << job;
    return out;
  };
  gui::MainWindow window;
  window.openFile(dir.path());
  REQUIRE(jobWindows().size() == 1);
  JobWindow* opened = jobWindows().first();
  QTRY_COMPARE_WITH_TIMEOUT(opened->ranksTable()->view()->model()->rowCount(), 4, 60000);
  CHECK(window.lastError().isEmpty());
  opened->close();  // WA_DeleteOnClose
  QTRY_VERIFY(jobWindows().isEmpty());

  auto* mime = new QMimeData;
  QList<QUrl> urls;
  for (const QString& p : paths) urls << QUrl::fromLocalFile(p);
  mime->setUrls(urls);
  QDropEvent drop(QPointF(10, 10), Qt::CopyAction, mime, Qt::LeftButton, Qt::NoModifier);
  static_cast<QObject&>(window).event(
      &drop);  // as main_window_test.cpp: no real drag, no drop target
  REQUIRE(jobWindows().size() == 1);
  jobWindows().first()->close();
  QTRY_VERIFY(jobWindows().isEmpty());
  delete mime;
}
