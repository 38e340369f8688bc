#include <catch2/catch.hpp>

#include "steplint/trace/builder.h"

using namespace steplint::trace;

TEST_CASE("builder sorts per track and nests by containment", "[trace]") {
  TraceModel m;
  TraceBuilder b(m);
  b.addComplete(EventKind::kCpuOp, "child", 1, 1, 20, 5);
  b.addComplete(EventKind::kCpuOp, "parent", 1, 1, 10, 50);
  b.addComplete(EventKind::kCpuOp, "sibling", 1, 1, 70, 5);
  b.addComplete(EventKind::kCpuOp, "other_thread", 1, 2, 0, 5);
  b.finalize();
  REQUIRE(m.tracks.size() == 2);
  const auto [begin, end] = m.trackEvents(0);
  REQUIRE(end - begin == 3);
  CHECK(m.name(begin[0]) == "parent");
  CHECK(m.name(begin[1]) == "child");
  CHECK(begin[1].depth == 1);
  CHECK(begin[1].parent == m.indexOf(begin[0]));
  CHECK(begin[2].depth == 0);
  CHECK(m.tracks[0].max_depth == 1);
  CHECK(m.tracks[0].kind == TrackKind::kCpuThread);
}

TEST_CASE("builder flags partially overlapping siblings", "[trace]") {
  TraceModel m;
  TraceBuilder b(m);
  b.addComplete(EventKind::kCpuOp, "a", 1, 1, 0, 10);
  b.addComplete(EventKind::kCpuOp, "b", 1, 1, 5, 10);  // starts inside a, ends after it
  b.finalize();
  CHECK(m.stats.get(Stat::overlapping_siblings) == 1);
  CHECK((m.events[1].flags & kFlagOverlapsSibling) != 0);
}

TEST_CASE("builder links device op to launch and launch to op", "[trace]") {
  TraceModel m;
  TraceBuilder b(m);
  b.addComplete(EventKind::kCpuOp, "aten::mm", 100, 1, 0, 50, /*external_id=*/7);
  b.addComplete(EventKind::kRuntime, "cudaLaunchKernel", 100, 1, 10, 5, /*external_id=*/7,
                /*correlation=*/42);
  b.addComplete(EventKind::kRuntime, "cudaMemsetAsync", 100, 1, 20, 5, kNoId,
                43);  // no External id: nesting
  b.addComplete(EventKind::kKernel, "gemm", 0, 7, 30, 100, 7, 42);
  b.addComplete(EventKind::kMemset, "Memset (Device)", 0, 7, 140, 1, kNoId, 43);
  b.addComplete(EventKind::kKernel, "orphan", 0, 7, 200, 1, kNoId, 99);
  b.finalize();
  const Event* op = nullptr;
  const Event* launch = nullptr;
  const Event* memset_call = nullptr;
  for (const Event& e : m.events) {
    if (m.name(e) == "aten::mm") op = &e;
    if (m.name(e) == "cudaLaunchKernel") launch = &e;
    if (m.name(e) == "cudaMemsetAsync") memset_call = &e;
  }
  REQUIRE(op);
  REQUIRE(launch);
  CHECK(launch->link == m.indexOf(*op));
  CHECK(memset_call->link == m.indexOf(*op));
  for (const Event& e : m.events) {
    if (m.name(e) == "gemm") CHECK(e.link == m.indexOf(*launch));
    if (m.name(e) == "Memset (Device)") CHECK(e.link == m.indexOf(*memset_call));
    if (m.name(e) == "orphan") CHECK(e.link == kNoIndex);
  }
  CHECK(m.stats.get(Stat::device_op_without_launch) == 1);
  CHECK(m.tracks[m.events.back().track].kind == TrackKind::kGpuStream);
}
