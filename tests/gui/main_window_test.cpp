#include "main_window.h"

#include <QApplication>
#include <QDropEvent>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QMimeData>
#include <QSettings>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>
#include <catch2/catch.hpp>

#include "advice_panel.h"
#include "details_pane.h"
#include "fixtures.h"
#include "gui_test_traces.h"
#include "overview_page.h"
#include "stats_table.h"
#include "steplint/gui/diagnostics_model.h"
#include "steplint/gui/selection_and_zoom.h"
#include "steplint/gui/timeline_widget.h"
#include "steplint/gui/trace_loader.h"

using namespace steplint;
using gui::DiagnosticsModel;
using gui::MainWindow;

namespace {

std::shared_ptr<const gui::LoadedTrace> loadResNet() {
  const std::string path =
      test::requireFixture("kineto/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz");
  std::string error;
  auto trace = gui::TraceLoader::loadNow(path, nullptr, {}, error);
  INFO(error);
  REQUIRE(trace != nullptr);
  return trace;
}

int rowWithCode(QAbstractItemModel* model, const QString& code) {
  for (int row = 0; row < model->rowCount(); ++row) {
    if (model->index(row, DiagnosticsModel::kCodeColumn).data().toString() == code) return row;
  }
  return -1;
}

}  // namespace

TEST_CASE("main window: clicking the DataLoader finding zooms to its evidence and shows its doc",
          "[fixture]") {
  const auto trace = loadResNet();
  MainWindow window;
  window.resize(1400, 900);
  window.setTrace(trace);
  window.show();
  REQUIRE(QTest::qWaitForWindowExposed(&window));

  QTableView* view = window.advicePanel()->findingsView();
  const int row = rowWithCode(view->model(), QStringLiteral("SL101"));
  REQUIRE(row >= 0);
  const QModelIndex index = view->model()->index(row, DiagnosticsModel::kMessageColumn);
  view->scrollTo(index);
  QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, view->visualRect(index).center());

  gui::SelectionAndZoom* selection = window.selection();
  REQUIRE(selection->selectedFinding() >= 0);
  const analyzer::Diagnostic& finding =
      trace->lint.diagnostics[static_cast<size_t>(selection->selectedFinding())];
  CHECK(finding.code == "SL101");
  CHECK(selection->highlightedEvents() == finding.evidence.events);
  const gui::TimeRange extent = gui::evidenceExtent(finding.evidence, trace->model);
  const gui::TimeRange visible = selection->visibleRange();
  const gui::TimeRange full = selection->fullRange();
  REQUIRE(extent.end_ns > extent.start_ns);
  CHECK(visible.start_ns <= extent.start_ns);
  CHECK(visible.end_ns >= extent.end_ns);
  CHECK(visible.end_ns - visible.start_ns < full.end_ns - full.start_ns);
  CHECK(selection->canUndoZoom());
  const QString doc = window.advicePanel()->docBrowser()->toPlainText();
  CHECK(doc.contains(QStringLiteral("SL101 dataloader-wait")));
  CHECK(doc.contains(QStringLiteral("What it does")));
  CHECK(doc.contains(QStringLiteral("How to fix")));
}

TEST_CASE("main window: a bad file reports an error naming it and keeps the window usable") {
  QTemporaryDir dir;
  const QString path = dir.filePath(QStringLiteral("image.json"));
  QFile file(path);
  REQUIRE(file.open(QIODevice::WriteOnly));
  file.write("\x89PNG\r\n\x1a\n not a trace");
  file.close();
  MainWindow window;  // error dialogs are off by default: nothing modal blocks the test
  window.openFile(path);
  for (int i = 0; i < 500 && window.lastError().isEmpty(); ++i) QTest::qWait(20);
  CHECK(window.lastError().contains(QStringLiteral("image.json")));
  CHECK(window.lastError().contains(QStringLiteral("not a trace")));
  CHECK(window.trace() == nullptr);
  window.setTrace(test::smallTrace());  // still works afterwards
  CHECK(window.trace() != nullptr);
}

TEST_CASE("main window: details links select the linked event, search jumps to the next match") {
  test::SmallTraceEvents ev;
  auto trace = test::smallTrace(&ev);
  MainWindow window;
  window.setTrace(trace);
  gui::SelectionAndZoom* selection = window.selection();

  selection->selectEvent(ev.kernel);
  const QString text = window.detailsPane()->browser()->toPlainText();
  CHECK(text.contains(QStringLiteral("volta_sgemm_128x64_nn")));
  CHECK(text.contains(QStringLiteral("cudaLaunchKernel")));
  CHECK(text.contains(QStringLiteral("aten::addmm")));
  window.detailsPane()->activateLink(QUrl(QStringLiteral("event:%1").arg(ev.addmm)));
  CHECK(selection->selectedEvent() == ev.addmm);
  const auto& addmm = trace->model.events[ev.addmm];
  CHECK(selection->visibleRange().start_ns <= addmm.start_ns);
  CHECK(selection->visibleRange().end_ns >= addmm.end_ns());

  window.searchEdit()->setText(QStringLiteral("sgemm"));
  CHECK(selection->searchText() == QStringLiteral("sgemm"));
  REQUIRE(window.findNext());
  CHECK(selection->selectedEvent() == ev.kernel);
  window.searchEdit()->setText(QStringLiteral("no such event"));
  CHECK_FALSE(window.findNext());
  CHECK(selection->selectedEvent() == ev.kernel);

  // Overview rows lead to the timeline: a kernel row finds the kernel, a step row zooms to it.
  window.centralTabs()->setCurrentWidget(window.overviewPage());
  emit window.overviewPage()->kernelTable()->rowActivated(0);  // volta_sgemm: the biggest total
  CHECK(window.searchEdit()->text() == QStringLiteral("volta_sgemm_128x64_nn"));
  CHECK(selection->selectedEvent() == ev.kernel);
  CHECK(window.centralTabs()->currentWidget() == window.timeline());
  window.centralTabs()->setCurrentWidget(window.overviewPage());
  emit window.overviewPage()->stepTable()->rowActivated(1);  // step 2
  const analyzer::Step& step2 = trace->summary.steps.steps[1];
  CHECK(selection->visibleRange().start_ns <= step2.start_ns);
  CHECK(selection->visibleRange().end_ns >= step2.end_ns);
  CHECK(selection->visibleRange().end_ns - selection->visibleRange().start_ns < 200'000);
  CHECK(window.centralTabs()->currentWidget() == window.timeline());
}

TEST_CASE("main window: drag and drop opens a trace, recent files and geometry persist",
          "[fixture]") {
  const std::string path =
      test::requireFixture("kineto/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz");
  QTemporaryDir settings_dir;
  QSettings::setDefaultFormat(QSettings::IniFormat);  // never the user's own settings
  QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, settings_dir.path());
  {
    MainWindow window;
    window.setPersistent(true);
    window.resize(1000, 700);
    auto* mime = new QMimeData;
    mime->setUrls({QUrl::fromLocalFile(QString::fromStdString(path))});
    QDropEvent drop(QPointF(10, 10), Qt::CopyAction, mime, Qt::LeftButton, Qt::NoModifier);
    // QApplication routes drops to the drag manager's target, which only a real drag sets:
    // deliver straight to the window's event handler (QObject::event is public).
    static_cast<QObject&>(window).event(&drop);
    for (int i = 0; i < 1000 && window.trace() == nullptr; ++i) QTest::qWait(20);
    REQUIRE(window.trace() != nullptr);
    CHECK(window.windowTitle().contains(QStringLiteral("worker0")));
    REQUIRE(window.recentFiles().size() == 1);
    window.close();  // saves the settings
    delete mime;
  }
  MainWindow reopened;
  reopened.setPersistent(true);
  REQUIRE(reopened.recentFiles().size() == 1);
  CHECK(reopened.recentFiles().first().endsWith(
      QStringLiteral("worker0.1623143089861.pt.trace.json.gz")));
  CHECK(reopened.size() == QSize(1000, 700));
}

TEST_CASE("overview: what the recording cost, in summary's words, above the chart (#16)") {
  std::string error;
  auto trace = gui::TraceLoader::loadNow(
      test::testDataPath("gpu/python_slow_loader.pt.trace.json.gz"), nullptr, {}, error);
  INFO(error);
  REQUIRE(trace != nullptr);
  MainWindow window;
  window.setTrace(trace);
  const QLabel* label = window.overviewPage()->profilerLabel();
  CHECK_FALSE(label->isHidden());
  const QString text = label->text();
  CHECK(text.contains("Profiler overhead"));
  CHECK(text.contains("ms per step"));  // the collector's measured cost, taken out of savings
  CHECK(text.contains("CUPTI's own work"));
  CHECK(text.contains("Activity Buffer Request x12"));
  // A torch.profiler trace carries no measurement: the estimate per event, said as such.
  window.setTrace(test::smallTrace());
  CHECK_FALSE(label->isHidden());
  INFO(label->text().toStdString());
  CHECK(label->text().contains("estimate"));
  CHECK_FALSE(label->text().contains("CUPTI"));
  window.setTrace(nullptr);
  CHECK(label->isHidden());
}
