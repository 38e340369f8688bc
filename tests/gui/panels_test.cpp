#include <QLineEdit>
#include <QListWidget>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTextBrowser>
#include <catch2/catch.hpp>

#include "advice_panel.h"
#include "breakdown_chart.h"
#include "gui_test_traces.h"
#include "overview_page.h"
#include "stats_table.h"
#include "steplint/gui/selection_and_zoom.h"

using namespace steplint;

TEST_CASE("overview page: chart bars, sortable and filterable op table") {
  gui::OverviewPage page;
  page.setTrace(test::smallTrace());
  CHECK(page.chart()->barCount() == 4);  // three steps and the average
  QSortFilterProxyModel* ops = page.opTable()->proxy();
  REQUIRE(ops->rowCount() == 3);
  CHECK(ops->index(0, 0).data().toString() == "aten::addmm");  // biggest total first
  page.opTable()->filterEdit()->setText(QStringLiteral("linear"));
  REQUIRE(ops->rowCount() == 1);
  CHECK(ops->index(0, 0).data().toString() == "aten::linear");
  CHECK(page.kernelTable()->proxy()->rowCount() == 2);
  CHECK_FALSE(page.gpuTable()->view()->isHidden());
}

TEST_CASE("overview page: an empty trace shows the no-data states") {
  auto empty = std::make_shared<gui::LoadedTrace>();
  empty->summary = analyzer::summarize(empty->model);
  gui::OverviewPage page;
  page.setTrace(empty);
  CHECK(page.chart()->barCount() == 0);
  CHECK(page.gpuTable()->view()->isHidden());
  CHECK(page.idleTable()->view()->isHidden());
  CHECK(page.stepTable()->view()->isHidden());
  CHECK(page.chart()->grab().size().isValid());  // paints "No steps found" without crashing
  page.setTrace(nullptr);
  CHECK(page.chart()->barCount() == 0);
}

TEST_CASE("advice panel: findings, not-checked rules and trace-health warnings") {
  test::SmallTraceEvents ev;
  auto trace = test::smallTrace(&ev);
  test::addFindings(*trace, ev);
  gui::SelectionAndZoom selection;
  selection.reset({0, 300'000});
  gui::AdvicePanel panel(&selection);
  panel.setTrace(trace);
  CHECK(panel.findingsView()->model()->rowCount() == 2);
  CHECK(panel.notCheckedView()->model()->rowCount() == 1);
  REQUIRE(panel.healthList()->count() == 1);
  CHECK(panel.healthList()->item(0)->text().startsWith(QStringLiteral("unknown_category")));

  REQUIRE(panel.selectFirstFinding(QStringLiteral("SL303")));
  CHECK(selection.selectedFinding() == 1);
  CHECK(selection.highlightedRanges().size() == 1);
  CHECK(selection.visibleRange().start_ns <= 200'000);
  CHECK(selection.visibleRange().end_ns >= 250'000);
  CHECK(selection.visibleRange().end_ns - selection.visibleRange().start_ns < 300'000);
  CHECK(panel.docBrowser()->toPlainText().contains(QStringLiteral("kernels are small")));
  CHECK_FALSE(panel.selectFirstFinding(QStringLiteral("SL999")));

  const QString md = gui::findingMarkdown(trace->lint.diagnostics[0]);
  CHECK(md.contains(QStringLiteral("0.00 ms/step (4.0 % of the step)")));
  CHECK(md.contains(QStringLiteral("# SL201 pageable-h2d-copy")));  // the embedded doc page

  panel.setTrace(nullptr);  // no trace: no rows, no crash
  CHECK(panel.findingsView()->model()->rowCount() == 0);
}

TEST_CASE("advice panel: the overview text gives what fixing all findings saves (#13)") {
  analyzer::SavingsTotal total;
  total.per_step_ms = 9.06;
  total.low_ms = 6.5;
  total.fraction_of_step = 0.375;
  total.step_ms = 24.2;
  total.profiler_overhead_ms = 1.3;
  const QString md = gui::savingAllMarkdown(total);
  INFO(md.toStdString());
  CHECK(md.startsWith(QStringLiteral("**Fixing all findings:** ~6.5–9.1 ms/step (")));
  CHECK(md.contains(
      QStringLiteral("of the 24.2 ms step), after taking out the profiler's ~1.3 ms/step.")));
  CHECK(md.contains(QStringLiteral("never count a millisecond twice")));
  CHECK(
      gui::savingAllMarkdown(analyzer::SavingsTotal{}).isEmpty());  // no time savings: nothing said
  analyzer::SavingsTotal withheld;
  withheld.not_estimated = "not estimated: the replay strays";
  CHECK(gui::savingAllMarkdown(withheld) ==
        QStringLiteral("**Savings** not estimated: the replay strays.\n\n"));
  // Findings without a time saving are named, as in the text report; and a whole-trace step.
  total.whole_trace_step = true;
  const QString named = gui::savingAllMarkdown(total, {"SL102", "SL304"});
  INFO(named.toStdString());
  CHECK(named.contains(QStringLiteral(
      "~1.3 ms/step; SL102, SL304 not estimated, not included; no iterations were found, so the "
      "step is the whole trace")));
}
