// The comparison view's tables on two hand-built runs with a known difference: the sgemm kernel
// 20 µs longer per step and a device-to-device copy that appears in the new run.
#include "steplint/gui/comparison_models.h"

#include <QAbstractItemModelTester>
#include <catch2/catch.hpp>

#include "gui_test_traces.h"

using namespace steplint;
using gui::CategoryDeltaModel;
using gui::FindingDeltaModel;
using gui::GroupDeltaModel;
using gui::StepPairModel;

namespace {

std::shared_ptr<gui::LoadedTrace> run(double sgemm_us, bool extra_copy) {
  test::TestTrace t;
  for (int n = 1; n <= 3; ++n) {
    const double base = (n - 1) * 100.0;
    t.step(n, base, 100);
    t.op("aten::mm", base + 10, 50);
    t.launch(base + 12, 5, base + 20, sgemm_us, "volta_sgemm_128x64_nn");
    if (extra_copy)
      t.launch(base + 80, 2, base + 85, 10, "Memcpy DtoD (Device -> Device)",
               trace::EventKind::kMemcpy, trace::EventKind::kRuntime);
  }
  t.finalize();
  auto out = std::make_shared<gui::LoadedTrace>();
  out->path = extra_copy ? "new.json" : "base.json";
  out->model = std::move(t.model);
  analyzer::SummaryOptions options;
  options.steps.drop_incomplete_tail = false;
  out->summary = analyzer::summarize(out->model, options);
  out->summary.source = out->path;
  return out;
}

analyzer::Diagnostic finding(const char* code, double ms) {
  analyzer::Diagnostic d;
  d.code = code;
  d.message = std::string(code) + " message";
  d.fingerprint_key = "k";
  d.saving.per_step_ms = ms;
  return d;
}

std::shared_ptr<gui::LoadedComparison> comparison() {
  auto base = run(30, false);
  auto next = run(50, true);
  base->lint.diagnostics = {finding("SL201", 0.004)};
  next->lint.diagnostics = {finding("SL303", 0.02)};
  auto out = std::make_shared<gui::LoadedComparison>();
  out->diff = analyzer::diffRuns(analyzer::profileRun(base->model, base->summary, &base->lint),
                                 analyzer::profileRun(next->model, next->summary, &next->lint));
  out->base = base;
  out->next = next;
  return out;
}

int rowNamed(const QAbstractItemModel& m, int column, const QString& name) {
  for (int r = 0; r < m.rowCount(); ++r)
    if (m.index(r, column).data().toString() == name) return r;
  return -1;
}

}  // namespace

TEST_CASE("category delta model: the diff's categories, then the step time (#15)") {
  CategoryDeltaModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  model.setComparison(comparison());
  REQUIRE(model.rowCount() == analyzer::kStepCategoryCount + 1);
  const int kernel = rowNamed(model, CategoryDeltaModel::kCategoryColumn, QStringLiteral("Kernel"));
  REQUIRE(kernel >= 0);
  CHECK(model.index(kernel, CategoryDeltaModel::kBaseColumn).data().toString() == "0.030");
  CHECK(model.index(kernel, CategoryDeltaModel::kNewColumn).data().toString() == "0.050");
  CHECK(model.index(kernel, CategoryDeltaModel::kDeltaColumn).data().toString() == "+0.020");
  CHECK(model.index(kernel, CategoryDeltaModel::kDeltaPercentColumn).data().toString() == "66.7");
  const int memcpy = rowNamed(model, CategoryDeltaModel::kCategoryColumn, QStringLiteral("Memcpy"));
  CHECK(model.index(memcpy, CategoryDeltaModel::kDeltaColumn).data().toString() == "+0.010");
  CHECK(model.index(memcpy, CategoryDeltaModel::kDeltaPercentColumn).data().toString() ==
        "-");  // from 0
  const int total = model.rowCount() - 1;
  CHECK(model.index(total, 0).data().toString() == "Step time");
  CHECK(model.index(total, CategoryDeltaModel::kDeltaColumn).data().toString() ==
        "0.000");  // the steps are 100 µs
  model.setComparison(nullptr);
  CHECK(model.rowCount() == 0);
}

TEST_CASE("step pair model: steps matched by number with the category that moved most (#15)") {
  StepPairModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  model.setComparison(comparison());
  REQUIRE(model.rowCount() == 3);
  CHECK(model.index(1, StepPairModel::kStepColumn).data(StepPairModel::kStepRole).toLongLong() ==
        2);
  CHECK(model.index(1, StepPairModel::kBaseColumn).data().toString() == "0.100");
  CHECK(model.index(1, StepPairModel::kNewColumn).data().toString() == "0.100");
  // Step 2's breakdown (µs): Kernel 30 -> 50, Memcpy 0 -> 10, Runtime 5 -> 7, CPU Exec 15 -> 5
  // (the kernel now covers more of the op) and Other 50 -> 28: Other moved most.
  CHECK(model.index(1, StepPairModel::kMovedColumn).data().toString() == "Other -0.022");
}

TEST_CASE("group delta model: kernels and ops per step, matched, appeared and vanished (#15)") {
  GroupDeltaModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  const auto c = comparison();
  model.setComparison(c);
  REQUIRE(model.rowCount() == static_cast<int>(c->diff.ops.size() + c->diff.device_ops.size()));
  const int sgemm =
      rowNamed(model, GroupDeltaModel::kNameColumn, QStringLiteral("volta_sgemm_128x64_nn"));
  REQUIRE(sgemm >= 0);
  CHECK(model.index(sgemm, GroupDeltaModel::kKindColumn).data().toString() == "kernel");
  CHECK(model.index(sgemm, GroupDeltaModel::kChangeColumn).data().toString() == "matched");
  CHECK(model.index(sgemm, GroupDeltaModel::kBaseMsColumn).data().toString() == "0.030");
  CHECK(model.index(sgemm, GroupDeltaModel::kNewMsColumn).data().toString() == "0.050");
  CHECK(model.index(sgemm, GroupDeltaModel::kDeltaMsColumn).data().toString() == "+0.020");
  CHECK(model.index(sgemm, GroupDeltaModel::kBaseMeanColumn).data().toString() == "30.0");
  CHECK(model.index(sgemm, 0).data(GroupDeltaModel::kIsDeviceRole).toBool());
  const int copy = rowNamed(model, GroupDeltaModel::kNameColumn,
                            QStringLiteral("Memcpy DtoD (Device -> Device)"));
  REQUIRE(copy >= 0);
  CHECK(model.index(copy, GroupDeltaModel::kChangeColumn).data().toString() == "appeared");
  CHECK(model.index(copy, GroupDeltaModel::kBaseCountColumn).data().toString() == "0.00");
  CHECK(model.index(copy, GroupDeltaModel::kNewCountColumn).data().toString() == "1.00");
  const int mm = rowNamed(model, GroupDeltaModel::kNameColumn, QStringLiteral("aten::mm"));
  REQUIRE(mm >= 0);
  CHECK(model.index(mm, GroupDeltaModel::kKindColumn).data().toString() == "CPU op");
  CHECK(model.index(mm, GroupDeltaModel::kDeltaMsColumn).data().toString() == "0.000");
}

TEST_CASE("finding delta model: new and fixed findings with their sizes (#15)") {
  FindingDeltaModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  model.setComparison(comparison());
  REQUIRE(model.rowCount() == 2);
  const int fixed = rowNamed(model, FindingDeltaModel::kChangeColumn, QStringLiteral("fixed"));
  const int added = rowNamed(model, FindingDeltaModel::kChangeColumn, QStringLiteral("new"));
  REQUIRE(fixed >= 0);
  REQUIRE(added >= 0);
  CHECK(model.index(fixed, FindingDeltaModel::kCodeColumn).data().toString() == "SL201");
  CHECK(model.index(fixed, FindingDeltaModel::kNewSizeColumn).data().toString() == "-");
  CHECK(model.index(added, FindingDeltaModel::kCodeColumn).data().toString() == "SL303");
  CHECK(model.index(added, FindingDeltaModel::kNewSizeColumn).data().toString() == "0.02");
}
