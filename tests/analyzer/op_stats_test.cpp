#include "steplint/analyzer/op_stats.h"

#include <catch2/catch.hpp>

#include "test_model.h"

using namespace steplint;
using test::TestTrace;

TEST_CASE("cpu ops are grouped by name with self time and sorted by total", "[ops]") {
  TestTrace t;
  t.op("aten::linear", 0, 10);
  t.op("aten::addmm", 2, 6);  // child of linear
  t.op("aten::linear", 20, 4);
  t.launch(21, 1, 30, 5);  // runtime call inside the second linear: subtracted from its self time
  t.annotation("DataLoader", 40, 50);  // not a cpu_op
  t.finalize();
  const auto all = analyzer::computeOpStats(t.model);
  REQUIRE(all.size() == 2);
  CHECK(all[0].name == "aten::linear");
  CHECK(all[0].count == 2);
  CHECK(all[0].total_ns == 14'000);
  CHECK(all[0].self_ns == 4'000 + 3'000);
  CHECK(all[0].max_ns == 10'000);
  CHECK(all[0].mean_ns() == Approx(7'000));
  CHECK(all[1].name == "aten::addmm");
  CHECK(all[1].self_ns == 6'000);
  CHECK(analyzer::computeOpStats(t.model, 1).size() == 1);
  CHECK(analyzer::computeOpStats(trace::TraceModel{}).empty());
}
