#include "steplint/gui/summary_models.h"

#include <QAbstractItemModelTester>
#include <QSortFilterProxyModel>
#include <catch2/catch.hpp>

#include "gui_test_traces.h"

using namespace steplint;
using gui::GpuSummaryModel;
using gui::IdleModel;
using gui::StepBreakdownModel;

TEST_CASE("step breakdown model: one row per step plus the average, one column per category") {
  auto trace = test::smallTrace();
  StepBreakdownModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  model.setTrace(trace);
  const size_t steps = trace->summary.breakdown.per_step.size();
  REQUIRE(steps == 3);
  REQUIRE(model.rowCount() == 4);
  CHECK(model.columnCount() == 2 + analyzer::kStepCategoryCount);
  CHECK(model.headerData(StepBreakdownModel::kFirstCategoryColumn, Qt::Horizontal).toString() ==
        "Kernel");
  CHECK(model.index(0, StepBreakdownModel::kStepColumn).data().toString() == "1");
  CHECK(model.index(3, StepBreakdownModel::kStepColumn).data().toString() == "Average");
  CHECK(model.isAverageRow(3));
  CHECK(model.index(3, 0).data(StepBreakdownModel::kStepRole).toLongLong() == -1);
  CHECK(model.index(1, 0).data(StepBreakdownModel::kStepRole).toLongLong() == 2);
  // Categories sum to the total on every row (priority subtraction, breakdown.h).
  for (int row = 0; row < model.rowCount(); ++row) {
    double sum = 0;
    for (int c = StepBreakdownModel::kFirstCategoryColumn; c < StepBreakdownModel::kColumnCount;
         ++c)
      sum += model.index(row, c).data(StepBreakdownModel::kSortRole).toDouble();
    CHECK(sum == Approx(model.index(row, StepBreakdownModel::kTotalColumn)
                            .data(StepBreakdownModel::kSortRole)
                            .toDouble()));
  }
  // Step 1: kernel from 20 to 70 µs of a step that runs 0..100 µs.
  CHECK(model.index(0, StepBreakdownModel::kFirstCategoryColumn).data().toString() == "0.05");

  // Sorted by step number, "Average" stays last.
  QSortFilterProxyModel proxy;
  proxy.setSourceModel(&model);
  proxy.setSortRole(StepBreakdownModel::kSortRole);
  proxy.sort(StepBreakdownModel::kStepColumn, Qt::AscendingOrder);
  CHECK(proxy.index(3, 0).data().toString() == "Average");
}

TEST_CASE("summary models: an empty trace has no rows, never a crash") {
  auto trace = std::make_shared<gui::LoadedTrace>();
  trace->summary = analyzer::summarize(trace->model);
  StepBreakdownModel steps;
  GpuSummaryModel gpus;
  IdleModel idle;
  QAbstractItemModelTester t1(&steps, QAbstractItemModelTester::FailureReportingMode::Fatal);
  QAbstractItemModelTester t2(&gpus, QAbstractItemModelTester::FailureReportingMode::Fatal);
  QAbstractItemModelTester t3(&idle, QAbstractItemModelTester::FailureReportingMode::Fatal);
  steps.setTrace(trace);
  gpus.setTrace(trace);
  idle.setTrace(trace);
  CHECK(steps.rowCount() == 0);
  CHECK(gpus.rowCount() == 0);
  CHECK(idle.rowCount() == 0);
}

TEST_CASE("GPU summary and idle models show one row per GPU and per stream") {
  auto trace = test::smallTrace();
  GpuSummaryModel gpus;
  IdleModel idle;
  QAbstractItemModelTester t1(&gpus, QAbstractItemModelTester::FailureReportingMode::Fatal);
  QAbstractItemModelTester t2(&idle, QAbstractItemModelTester::FailureReportingMode::Fatal);
  gpus.setTrace(trace);
  idle.setTrace(trace);
  REQUIRE(gpus.rowCount() == 1);
  CHECK(gpus.index(0, GpuSummaryModel::kDeviceColumn).data().toString() == "0");
  CHECK(gpus.index(0, GpuSummaryModel::kKernelCountColumn).data().toString() == "2");
  const double utilization = trace->summary.gpus[0].utilization;
  CHECK(gpus.index(0, GpuSummaryModel::kUtilizationColumn)
            .data(GpuSummaryModel::kSortRole)
            .toDouble() == Approx(utilization));
  CHECK(gpus.index(0, GpuSummaryModel::kUtilizationColumn).data().toString().endsWith(" %"));
  CHECK(gpus.index(0, GpuSummaryModel::kSmEfficiencyColumn).data().toString() ==
        "n/a");  // no "blocks per SM"
  CHECK(gpus.index(0, GpuSummaryModel::kPeakAllocatedColumn).data().toString() ==
        "n/a");  // no [memory] events
  CHECK(gpus.index(0, GpuSummaryModel::kPeakReservedColumn).data().toString() == "n/a");
  CHECK(gpus.headerData(GpuSummaryModel::kPeakAllocatedColumn, Qt::Horizontal).toString() ==
        "Peak allocated\n(GiB)");
  CHECK(gpus.headerData(GpuSummaryModel::kPeakReservedColumn, Qt::Horizontal).toString() ==
        "Peak reserved\n(GiB)");
  // One row per stream and window: the analysed steps (all three), then HTA's window, which
  // drops what the last step (ProfilerStep#3) launched.
  REQUIRE(idle.rowCount() == 2);
  CHECK(idle.index(0, IdleModel::kWindowColumn).data().toString() == "Steps");
  CHECK(idle.index(1, IdleModel::kWindowColumn).data().toString() == "HTA");
  CHECK(idle.index(1, IdleModel::kWindowColumn)
            .data(Qt::ToolTipRole)
            .toString()
            .contains("ProfilerStep#3"));
  CHECK(idle.index(0, IdleModel::kStreamColumn).data().toString() == "7");
  CHECK(idle.index(0, IdleModel::kHostWaitColumn).data(IdleModel::kSortRole).toDouble() ==
        Approx(0.140));
  CHECK(idle.index(1, IdleModel::kHostWaitColumn).data(IdleModel::kSortRole).toDouble() ==
        Approx(0.050));
}

TEST_CASE("GPU summary memory columns say allocated and reserved") {
  auto trace = test::smallTrace();
  analyzer::GpuSummary& g = trace->summary.gpus.at(0);
  g.peak_allocated_bytes = 3LL << 30;
  g.peak_reserved_bytes = 5LL << 30;
  g.memory_bytes = 40LL << 30;
  GpuSummaryModel gpus;
  gpus.setTrace(trace);
  CHECK(gpus.index(0, GpuSummaryModel::kPeakAllocatedColumn).data().toString() == "3.00 of 40.0");
  CHECK(gpus.index(0, GpuSummaryModel::kPeakReservedColumn).data().toString() == "5.00 of 40.0");
}
