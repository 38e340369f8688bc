// Issue 13: the overview's tables must be readable in the default 1600x1000 window (advice
// dock open): no header cut short, no column pushed behind a horizontal scroll bar.
#include <QApplication>
#include <QHeaderView>
#include <QScrollBar>
#include <QTabWidget>
#include <QTableView>
#include <catch2/catch.hpp>

#include "fixtures.h"
#include "gui_test_traces.h"
#include "main_window.h"
#include "overview_page.h"
#include "stats_table.h"
#include "steplint/gui/trace_loader.h"

using namespace steplint;

namespace {

void checkTablesFit(std::shared_ptr<const gui::LoadedTrace> trace) {
  gui::MainWindow window;
  window.resize(1600, 1000);
  window.setTrace(std::move(trace));
  window.show();
  window.centralTabs()->setCurrentIndex(1);
  QApplication::processEvents();
  const gui::OverviewPage* page = window.overviewPage();
  int visible = 0;
  for (const gui::StatsTable* table : {page->stepTable(), page->gpuTable(), page->idleTable(),
                                       page->opTable(), page->kernelTable()}) {
    const QTableView* view = table->view();
    if (view->isHidden()) continue;
    ++visible;
    const QHeaderView* header = view->horizontalHeader();
    INFO("table with first column "
         << view->model()->headerData(0, Qt::Horizontal).toString().toStdString() << ", viewport "
         << view->viewport()->width() << " px");
    CHECK(view->horizontalScrollBar()->maximum() == 0);  // every column on screen
    for (int c = 0; c < header->count(); ++c) {
      INFO("column " << view->model()->headerData(c, Qt::Horizontal).toString().toStdString());
      CHECK(header->sectionSize(c) >= header->sectionSizeHint(c));  // the header text is whole
    }
  }
  CHECK(visible == 5);
}

}  // namespace

TEST_CASE("overview page: every table fits at 1600x1000 on a small trace") {
  checkTablesFit(test::smallTrace());
}

TEST_CASE("overview page: every table fits at 1600x1000 on ResNet-50", "[fixture]") {
  const std::string path =
      test::requireFixture("kineto/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz");
  std::string error;
  auto trace = gui::TraceLoader::loadNow(path, nullptr, {}, error);
  REQUIRE(trace != nullptr);
  checkTablesFit(trace);
}
