#include "steplint/gui/stats_models.h"

#include <QAbstractItemModelTester>
#include <QSortFilterProxyModel>
#include <catch2/catch.hpp>

#include "gui_test_traces.h"

using namespace steplint;
using gui::KernelStatsModel;
using gui::OpStatsModel;

TEST_CASE("op stats model: cpu ops by name, sortable by number and filterable by name") {
  auto trace = test::smallTrace();
  OpStatsModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  model.setTrace(trace);
  REQUIRE(model.rowCount() == 3);  // aten::linear, aten::addmm (2 calls), aten::copy_
  CHECK(model.index(0, OpStatsModel::kNameColumn).data().toString() ==
        "aten::addmm");  // 30 + 20 µs
  CHECK(model.index(0, OpStatsModel::kCountColumn).data().toString() == "2");
  CHECK(model.index(0, OpStatsModel::kTotalColumn).data().toString() == "0.050");

  QSortFilterProxyModel proxy;
  proxy.setSourceModel(&model);
  proxy.setSortRole(OpStatsModel::kSortRole);
  proxy.setFilterCaseSensitivity(Qt::CaseInsensitive);
  QAbstractItemModelTester proxy_tester(&proxy,
                                        QAbstractItemModelTester::FailureReportingMode::Fatal);
  proxy.sort(OpStatsModel::kSelfColumn, Qt::DescendingOrder);
  // Self: addmm 25+15 µs (minus the 5 µs launches), copy_ 15 µs, linear 10 µs.
  CHECK(proxy.index(0, OpStatsModel::kNameColumn).data().toString() == "aten::addmm");
  CHECK(proxy.index(2, OpStatsModel::kNameColumn).data().toString() == "aten::linear");
  proxy.setFilterFixedString("COPY");
  REQUIRE(proxy.rowCount() == 1);
  CHECK(proxy.index(0, OpStatsModel::kNameColumn).data().toString() == "aten::copy_");
}

TEST_CASE("kernel stats model: kernels by name with tensor-core flag") {
  auto trace = test::smallTrace();
  KernelStatsModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  model.setTrace(trace);
  REQUIRE(model.rowCount() == 2);  // the memcpy is not a kernel
  CHECK(model.index(0, KernelStatsModel::kNameColumn).data().toString() == "volta_sgemm_128x64_nn");
  CHECK(model.index(0, KernelStatsModel::kMeanColumn).data().toString() == "50.0");
  CHECK(model.index(1, KernelStatsModel::kTensorCoreColumn).data().toString() == "no");
  model.setTrace(nullptr);
  CHECK(model.rowCount() == 0);
}
