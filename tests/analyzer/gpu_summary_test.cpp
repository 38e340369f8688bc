#include "steplint/analyzer/gpu_summary.h"

#include <catch2/catch.hpp>

#include "test_model.h"

using namespace steplint;
using test::TestTrace;

namespace {

std::vector<analyzer::GpuSummary> summaryOf(const trace::TraceModel& model) {
  analyzer::StepOptions keep;
  keep.drop_incomplete_tail = false;
  return analyzer::computeGpuSummary(model, analyzer::computeSteps(model, keep));
}

}  // namespace

TEST_CASE("utilization is kernel busy time inside the kept steps", "[gpu_summary]") {
  TestTrace t;
  t.step(1, 100, 100);
  t.orphanKernel(50, 80);  // [50,130): 30 µs inside the window
  t.launch(110, 5, 120,
           40);  // [120,160): overlaps the orphan, union inside the window is [100,160)
  t.launch(120, 5, 170, 20, "Memcpy DtoD (Device -> Device)",
           trace::EventKind::kMemcpy);  // copies never count
  t.finalize();
  const auto g = summaryOf(t.model);
  REQUIRE(g.size() == 1);
  CHECK(g[0].device == 0);
  CHECK(g[0].window_ns == 100'000);
  CHECK(g[0].kernel_count == 2);
  CHECK(g[0].kernel_busy_ns == 60'000);
  CHECK(g[0].utilization == Approx(0.6));
}

TEST_CASE("SM efficiency clamps the sum of concurrent kernels (TB-Q11)", "[gpu_summary]") {
  TestTrace t;
  t.step(1, 0, 200);
  const uint32_t a =
      t.launch(1, 1, 0, 100, "a", trace::EventKind::kKernel, trace::EventKind::kRuntime, 7);
  const uint32_t b =
      t.launch(2, 1, 0, 100, "b", trace::EventKind::kKernel, trace::EventKind::kRuntime, 8);
  const uint32_t c = t.launch(3, 1, 100, 100, "c");
  const uint32_t d = t.launch(4, 1, 150, 10, "d");  // no "blocks per SM": skipped
  t.gpu(a).blocks_per_sm = 0.6f;
  t.gpu(b).blocks_per_sm = 0.6f;  // together 1.2 -> clamped to 1 over [0,100)
  t.gpu(c).blocks_per_sm = 0.25f;
  (void)d;
  t.finalize();
  const auto g = summaryOf(t.model);
  REQUIRE(g.size() == 1);
  CHECK(g[0].sm_efficiency == Approx((1.0 * 100 + 0.25 * 100) / 200.0));
}

TEST_CASE("SM efficiency and occupancy are unknown without the kernel args", "[gpu_summary]") {
  TestTrace t;
  t.step(1, 0, 100);
  t.launch(1, 1, 10, 10);
  t.finalize();
  const auto g = summaryOf(t.model);
  REQUIRE(g.size() == 1);
  CHECK(g[0].sm_efficiency == -1);
  CHECK(g[0].achieved_occupancy == -1);
}

TEST_CASE("achieved occupancy is weighted by kernel time inside the window", "[gpu_summary]") {
  TestTrace t;
  t.step(1, 100, 100);
  const uint32_t a = t.launch(101, 1, 110, 30);  // occ 40 for 30 µs
  const uint32_t b = t.launch(102, 1, 150, 10);  // occ 80 for 10 µs
  const uint32_t c = t.orphanKernel(190, 40);    // occ 0 (valid) for 10 µs inside the window
  const uint32_t d = t.orphanKernel(20, 10);     // outside the window: ignored
  t.gpu(a).occupancy_pct = 40;
  t.gpu(b).occupancy_pct = 80;
  t.gpu(c).occupancy_pct = 0;
  t.gpu(d).occupancy_pct = 100;
  t.finalize();
  const auto g = summaryOf(t.model);
  REQUIRE(g.size() == 1);
  CHECK(g[0].achieved_occupancy == Approx((40.0 * 30 + 80.0 * 10 + 0.0 * 10) / 50.0));
}

TEST_CASE("tensor-core share counts launched kernels only", "[gpu_summary]") {
  TestTrace t;
  t.step(1, 0, 100);
  t.launch(1, 1, 10, 30, "volta_h884gemm_64x64_nt");  // TC, 30 µs
  t.launch(2, 1, 40, 10, "volta_sgemm_64x64_nn");     // not TC, 10 µs
  t.orphanKernel(60, 20, "ampere_fp16_s16816gemm");   // no launch call: not counted
  t.finalize();
  const auto g = summaryOf(t.model);
  REQUIRE(g.size() == 1);
  CHECK(g[0].tensor_core_share == Approx(0.75));
}

TEST_CASE("one row per device, the window is the whole trace without steps", "[gpu_summary]") {
  TestTrace t;
  t.orphanKernel(0, 10, "k", 7, 0);
  t.orphanKernel(30, 10, "k", 7, 1);
  t.finalize();
  const auto g = analyzer::computeGpuSummary(t.model, analyzer::computeSteps(t.model));
  REQUIRE(g.size() == 2);
  CHECK(g[0].device == 0);
  CHECK(g[1].device == 1);
  CHECK(g[0].window_ns == 40'000);
  CHECK(g[0].utilization == Approx(0.25));
  CHECK(g[0].tensor_core_share == -1);  // no launched kernels
}

TEST_CASE("no device ops, no GPU rows", "[gpu_summary]") {
  TestTrace t;
  t.step(1, 0, 10);
  t.finalize();
  CHECK(summaryOf(t.model).empty());
}

TEST_CASE("peak memory per GPU: CUDA allocator totals over the whole trace, and the capacity",
          "[gpu_summary]") {
  TestTrace t;
  t.orphanKernel(0, 10, "k", 7, 0);
  t.finalize();
  auto memory = [&](int64_t ts, int32_t type, int32_t id, int64_t allocated, int64_t reserved) {
    trace::MemoryEvent m;
    m.ts_ns = ts;
    m.device_type = type;
    m.device_id = id;
    m.total_allocated = allocated;
    m.total_reserved = reserved;
    t.model.memory_events.push_back(m);
  };
  memory(1, 1, 0, 100, 200);
  memory(2, 1, 0, 300, 400);  // the peak
  memory(3, 1, 0, 50, 400);
  memory(4, 0, -1, 5000, 5000);  // CPU memory is never a GPU's (TB-Q5)
  trace::DeviceProperties d;
  d.id = 0;
  d.total_global_mem = 1000;
  t.model.metadata.devices.push_back(d);
  const auto g = analyzer::computeGpuSummary(t.model, analyzer::computeSteps(t.model));
  REQUIRE(g.size() == 1);
  CHECK(g[0].peak_allocated_bytes == 300);
  CHECK(g[0].peak_reserved_bytes == 400);
  CHECK(g[0].memory_bytes == 1000);

  TestTrace bare;  // no memory events, no properties: unknown, not zero
  bare.orphanKernel(0, 10, "k", 7, 0);
  bare.finalize();
  const auto u = analyzer::computeGpuSummary(bare.model, analyzer::computeSteps(bare.model));
  REQUIRE(u.size() == 1);
  CHECK(u[0].peak_allocated_bytes == -1);
  CHECK(u[0].memory_bytes == -1);
}
