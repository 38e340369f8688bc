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

TEST_CASE("builder: an External id naming an op at another time is no link", "[trace]") {
  // Seen on torch 2.x traces: a call made outside every op carries its correlation as its
  // External id, and that number is an unrelated op's.
  TraceModel m;
  TraceBuilder b(m);
  b.addComplete(EventKind::kCpuOp, "aten::slice", 100, 1, 50000, 5, /*external_id=*/2269);
  b.addComplete(EventKind::kCpuOp, "aten::addmm", 100, 1, 0, 100, /*external_id=*/11);
  b.addComplete(EventKind::kRuntime, "cudaLaunchKernel", 100, 1, 10, 5, 2269, 2269);
  b.addComplete(EventKind::kRuntime, "cudaEventQuery", 100, 2, 200, 1, 11, 11);
  b.addComplete(EventKind::kRuntime, "cudaMemcpyAsync", 100, 1, 50005.8, 1, 2269, 3000);
  b.finalize();
  const Event* addmm = nullptr;
  const Event* launch = nullptr;
  const Event* query = nullptr;
  const Event* at_edge = nullptr;
  for (const Event& e : m.events) {
    if (m.name(e) == "aten::addmm") addmm = &e;
    if (m.name(e) == "cudaLaunchKernel") launch = &e;
    if (m.name(e) == "cudaEventQuery") query = &e;
    if (m.name(e) == "cudaMemcpyAsync") at_edge = &e;
  }
  REQUIRE(addmm);
  REQUIRE(launch);
  REQUIRE(query);
  REQUIRE(at_edge);
  CHECK(launch->link == m.indexOf(*addmm));  // the op around it, not aten::slice 50 ms later
  CHECK(query->link == kNoIndex);            // no op around it on its thread
  CHECK(m.stats.get(Stat::launch_external_id_elsewhere) == 2);
  CHECK(m.stats.get(Stat::launch_without_op) == 1);
  // Within the clocks' 1 µs of slack the External id still links.
  CHECK(at_edge->link != kNoIndex);
  CHECK(m.name(m.events[at_edge->link]) == "aten::slice");
}

namespace {

// Three tracks, one of them over one store block (64 Ki events), written interleaved as an
// importer sees them: out-of-order and tied starts, launches whose kernels follow, dense
// correlation ids and sparse External ids (far apart, so the id index falls back to a map).
std::vector<Event> interleavedEvents(TraceBuilder& b) {
  const uint32_t cpu = b.track(100, 1), other = b.track(100, 2), stream = b.track(0, 7);
  const StringId op = b.intern("op"), call = b.intern("cudaLaunchKernel"), k = b.intern("k");
  std::vector<Event> events;
  for (int64_t i = 0; i < 70000; ++i) {
    Event e;
    e.kind = EventKind::kCpuOp;
    e.name = op;
    e.track = i % 5 == 0 ? other : cpu;
    e.start_ns = (i / 3) * 100 - (i % 7 == 0 ? 250 : 0);  // ties, and some written late
    e.dur_ns = 50 + i % 4;
    e.external_id = 1 + i * 1000003;
    events.push_back(e);
    if (i % 2 == 0) {
      Event launch = e;
      launch.kind = EventKind::kRuntime, launch.name = call, launch.dur_ns = 10;
      launch.correlation = 5000 + i;
      events.push_back(launch);
      Event kernel = launch;
      kernel.kind = EventKind::kKernel, kernel.name = k, kernel.track = stream;
      kernel.start_ns += 1000;
      events.push_back(kernel);
    }
  }
  return events;
}

bool sameEvent(const Event& a, const Event& b) {
  return a.start_ns == b.start_ns && a.dur_ns == b.dur_ns && a.external_id == b.external_id &&
         a.correlation == b.correlation && a.name == b.name && a.track == b.track &&
         a.parent == b.parent && a.link == b.link && a.kind == b.kind && a.flags == b.flags &&
         a.depth == b.depth;
}

}  // namespace

TEST_CASE("builder: appendEvent on several threads gives addEvent's model on one (#18)",
          "[trace]") {
  TraceModel one, many;
  TraceBuilder b1(one), b4(many);
  for (const Event& e : interleavedEvents(b1)) b1.addEvent(e);
  for (const Event& e : interleavedEvents(b4)) b4.appendEvent(e);
  CHECK(many.events.empty());  // kept per track until finalize()
  b1.finalize(1);
  b4.finalize(4);
  REQUIRE(one.events.size() == many.events.size());
  size_t differ = 0;
  for (size_t i = 0; i < one.events.size(); ++i)
    differ += !sameEvent(one.events[i], many.events[i]);
  CHECK(differ == 0);
  REQUIRE(one.tracks.size() == many.tracks.size());
  for (size_t t = 0; t < one.tracks.size(); ++t) {
    CHECK(one.tracks[t].first_event == many.tracks[t].first_event);
    CHECK(one.tracks[t].event_count == many.tracks[t].event_count);
    CHECK(one.tracks[t].max_depth == many.tracks[t].max_depth);
  }
  for (Stat s : {Stat::overlapping_siblings, Stat::device_op_without_launch,
                 Stat::launch_without_op, Stat::external_id_mismatch})
    CHECK(one.stats.get(s) == many.stats.get(s));
  size_t linked = 0;
  for (const Event& e : many.events) linked += e.link != kNoIndex;
  CHECK(linked == 2 * 35000);  // every launch to its op (sparse ids), every kernel to its launch
}

TEST_CASE("builder: ids outside the indexed range link to nothing (#18)", "[trace]") {
  TraceModel m;
  TraceBuilder b(m);
  b.addComplete(EventKind::kCpuOp, "op", 100, 1, 0, 100, /*external_id=*/1000);
  b.addComplete(EventKind::kRuntime, "cudaLaunchKernel", 100, 1, 10, 5, 1000, /*correlation=*/50);
  b.addComplete(EventKind::kRuntime, "cudaLaunchKernel", 100, 1, 20, 5, 999, 51);  // no such op
  b.addComplete(EventKind::kKernel, "k", 0, 7, 30, 5, 1000, 50);
  b.addComplete(EventKind::kKernel, "below", 0, 7, 40, 5, kNoId, 3);        // under the smallest
  b.addComplete(EventKind::kKernel, "above", 0, 7, 50, 5, kNoId, 1 << 30);  // past the largest
  b.finalize(2);
  for (const Event& e : m.events) {
    if (m.name(e) == "k") CHECK(m.events[e.link].correlation == 50);
    if (m.name(e) == "below" || m.name(e) == "above") CHECK(e.link == kNoIndex);
    if (m.name(e) == "cudaLaunchKernel" && e.correlation == 51)
      CHECK(m.name(m.events[e.link]) == "op");  // by nesting, as without an External id
  }
  CHECK(m.stats.get(Stat::device_op_without_launch) == 2);
}
