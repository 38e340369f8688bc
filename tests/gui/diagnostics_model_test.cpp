#include "steplint/gui/diagnostics_model.h"

#include <QAbstractItemModelTester>
#include <QSortFilterProxyModel>
#include <catch2/catch.hpp>

#include "gui_test_traces.h"

using steplint::gui::DiagnosticsModel;
using steplint::gui::NotCheckedModel;
using steplint::gui::TimeRange;

TEST_CASE("diagnostics model: one row per finding with severity, message and saving") {
  steplint::test::SmallTraceEvents events;
  auto trace = steplint::test::smallTrace(&events);
  steplint::test::addFindings(*trace, events);
  DiagnosticsModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  CHECK(model.rowCount() == 0);
  model.setTrace(trace);
  REQUIRE(model.rowCount() == 2);
  CHECK(model.columnCount() == DiagnosticsModel::kColumnCount);
  CHECK(model.index(0, DiagnosticsModel::kSeverityColumn).data().toString() == "warning");
  CHECK(model.index(0, DiagnosticsModel::kCodeColumn).data().toString() == "SL201");
  CHECK(model.index(0, DiagnosticsModel::kMessageColumn).data().toString() ==
        "1 pageable host-to-device copy per step");
  CHECK(model.index(0, DiagnosticsModel::kSavingMsColumn).data().toString() == "0.00");
  CHECK(model.index(1, DiagnosticsModel::kSavingStepColumn).data().toString() == "20.0 %");
  CHECK(model.headerData(DiagnosticsModel::kSavingMsColumn, Qt::Horizontal).toString() ==
        "Saving (ms/step)");

  // Evidence extent: the memcpy event for SL201, the range for SL303.
  const auto copy = model.index(0, 0).data(DiagnosticsModel::kEvidenceRole).value<TimeRange>();
  const auto& memcpy = trace->model.events[events.memcpy];
  CHECK(copy.start_ns == memcpy.start_ns);
  CHECK(copy.end_ns == memcpy.end_ns());
  const auto range = model.index(1, 0).data(DiagnosticsModel::kEvidenceRole).value<TimeRange>();
  CHECK(range.start_ns == 200'000);
  CHECK(range.end_ns == 250'000);
  CHECK(model.firstRowWithCode("SL303") == 1);
  CHECK(model.firstRowWithCode("SL999") == -1);

  model.setTrace(nullptr);
  CHECK(model.rowCount() == 0);
}

TEST_CASE("diagnostics model: sorting by saving uses numbers, by severity uses rank") {
  steplint::test::SmallTraceEvents events;
  auto trace = steplint::test::smallTrace(&events);
  steplint::test::addFindings(*trace, events);
  DiagnosticsModel model;
  model.setTrace(trace);
  QSortFilterProxyModel proxy;
  proxy.setSourceModel(&model);
  proxy.setSortRole(DiagnosticsModel::kSortRole);
  QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::Fatal);
  proxy.sort(DiagnosticsModel::kSavingMsColumn, Qt::DescendingOrder);
  CHECK(proxy.index(0, DiagnosticsModel::kCodeColumn).data().toString() == "SL303");
  proxy.sort(DiagnosticsModel::kSeverityColumn, Qt::DescendingOrder);
  CHECK(proxy.index(0, DiagnosticsModel::kCodeColumn).data().toString() ==
        "SL201");  // warning > note
  CHECK(proxy.index(0, 0).data(DiagnosticsModel::kDiagnosticIndexRole).toInt() == 0);
}

TEST_CASE("not-checked model lists the rule and the reason") {
  steplint::test::SmallTraceEvents events;
  auto trace = steplint::test::smallTrace(&events);
  steplint::test::addFindings(*trace, events);
  NotCheckedModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  model.setTrace(trace);
  REQUIRE(model.rowCount() == 1);
  CHECK(model.index(0, NotCheckedModel::kCodeColumn).data().toString() == "SL501");
  CHECK(model.index(0, NotCheckedModel::kReasonColumn).data().toString() ==
        "no distributed info in this trace");
  CHECK(model.index(0, 0).data(NotCheckedModel::kCodeRole).toString() == "SL501");
}
