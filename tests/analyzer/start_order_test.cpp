// forEachInStartOrder (steplint/analyzer/start_order.h): the kept events of every track, merged
// into one start order, ties in event order.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "steplint/analyzer/start_order.h"
#include "test_model.h"

using steplint::analyzer::forEachInStartOrder;
using steplint::test::TestTrace;
namespace trace = steplint::trace;

TEST_CASE("start order merges the tracks' events and skips what the predicate drops") {
  TestTrace t;
  t.orphanKernel(30, 1, "a30", 7);
  t.orphanKernel(10, 1, "a10", 7);
  t.orphanKernel(20, 1, "b20", 8);
  t.orphanKernel(10, 5, "b10", 8);  // ties a10: comes after it (stream 8's track is later)
  t.orphanKernel(15, 1, "skip", 8);
  t.orphanKernel(5, 1, "c5", 9);
  t.event(trace::EventKind::kCpuOp, "cpu", 0, 100);  // a host track, nothing kept
  t.finalize();
  std::vector<std::string> seen;
  forEachInStartOrder(
      t.model,
      [&](const trace::Event& e) { return trace::isDeviceOp(e.kind) && t.model.name(e) != "skip"; },
      [&](const trace::Event& e) { seen.emplace_back(t.model.name(e)); });
  CHECK(seen == std::vector<std::string>{"c5", "a10", "b10", "b20", "a30"});
}

TEST_CASE("start order on a model with nothing kept visits nothing") {
  TestTrace t;
  t.event(trace::EventKind::kCpuOp, "cpu", 0, 100);
  t.finalize();
  int visits = 0;
  forEachInStartOrder(
      t.model, [](const trace::Event&) { return false; }, [&](const trace::Event&) { ++visits; });
  CHECK(visits == 0);
}
