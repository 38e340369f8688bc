#include "steplint/gui/attribution_models.h"

#include <QAbstractItemModelTester>
#include <catch2/catch.hpp>

#include "gui_test_traces.h"

using namespace steplint;
using gui::AttributionModel;
using gui::TemporalModel;

namespace {

// The shares of one timeline ("Host", "Device 0") over all its rows.
double shareSum(const AttributionModel& model, const QString& timeline) {
  double sum = 0;
  for (int row = 0; row < model.rowCount(); ++row) {
    if (model.index(row, AttributionModel::kTimelineColumn).data().toString() == timeline)
      sum += model.index(row, AttributionModel::kShareColumn)
                 .data(AttributionModel::kSortRole)
                 .toDouble();
  }
  return sum;
}

}  // namespace

TEST_CASE("attribution model: each timeline's causes add up to the whole average step") {
  auto trace = test::smallTrace();
  AttributionModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  model.setTrace(trace);
  REQUIRE(model.rowCount() > 2);
  CHECK(model.index(0, AttributionModel::kTimelineColumn).data().toString() == "Host");
  CHECK(shareSum(model, "Host") == Approx(1.0));
  CHECK(shareSum(model, "Device 0") == Approx(1.0));
  // Device 0 runs kernels for 50 and 30 µs in steps 1 and 3 (step 2 has only a copy, which is
  // not compute): 80 µs over three steps.
  bool found_compute = false;
  for (int row = 0; row < model.rowCount(); ++row) {
    if (model.index(row, AttributionModel::kTimelineColumn).data().toString() != "Device 0")
      continue;
    if (model.index(row, AttributionModel::kCauseColumn).data().toString() != "compute") continue;
    found_compute = true;
    CHECK(model.index(row, AttributionModel::kMsColumn)
              .data(AttributionModel::kSortRole)
              .toDouble() == Approx(80.0 / 3 / 1000));
  }
  CHECK(found_compute);
}

TEST_CASE("attribution and temporal models: an empty trace has no rows") {
  auto trace = std::make_shared<gui::LoadedTrace>();
  trace->summary = analyzer::summarize(trace->model);
  AttributionModel attribution;
  TemporalModel temporal;
  QAbstractItemModelTester t1(&attribution, QAbstractItemModelTester::FailureReportingMode::Fatal);
  QAbstractItemModelTester t2(&temporal, QAbstractItemModelTester::FailureReportingMode::Fatal);
  attribution.setTrace(trace);
  temporal.setTrace(trace);
  CHECK(attribution.rowCount() == 0);
  CHECK(temporal.rowCount() == 0);
}

TEST_CASE("temporal model: one row per GPU whose parts add up to the span") {
  auto trace = test::smallTrace();
  TemporalModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  model.setTrace(trace);
  REQUIRE(model.rowCount() == static_cast<int>(trace->summary.temporal.size()));
  REQUIRE(model.rowCount() == 1);
  const auto value = [&](int column) {
    return model.index(0, column).data(TemporalModel::kSortRole).toDouble();
  };
  CHECK(value(TemporalModel::kIdleColumn) + value(TemporalModel::kComputeColumn) +
            value(TemporalModel::kNonComputeColumn) ==
        Approx(value(TemporalModel::kSpanColumn)));
  CHECK(value(TemporalModel::kIdleShareColumn) + value(TemporalModel::kComputeShareColumn) +
            value(TemporalModel::kNonComputeShareColumn) ==
        Approx(1.0));
  CHECK(model.index(0, TemporalModel::kIdleShareColumn).data().toString().endsWith(" %"));
}
