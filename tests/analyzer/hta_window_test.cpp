// HTA's window (last-step filter), its idle breakdown and its temporal breakdown
// (docs/reference/peer-tools.md §2.1, §2.3, §2.4), on hand-made traces and against HTA's definition
// computed independently on the real fixtures.
#include "steplint/analyzer/hta_window.h"

#include <catch2/catch.hpp>

#include "fixture_trace.h"
#include "steplint/analyzer/idle.h"
#include "steplint/analyzer/summary.h"
#include "steplint/analyzer/temporal.h"
#include "test_model.h"

using namespace steplint;
using test::TestTrace;

namespace {

std::vector<analyzer::StreamIdle> htaIdle(const trace::TraceModel& model,
                                          const analyzer::HtaWindow& w) {
  return analyzer::computeIdleBreakdown(model, {},
                                        [&](const trace::Event& op) { return w.keeps(model, op); });
}

const analyzer::StreamIdle* findStream(const std::vector<analyzer::StreamIdle>& idle,
                                       int64_t stream) {
  for (const auto& s : idle)
    if (s.stream == stream) return &s;
  return nullptr;
}

}  // namespace

TEST_CASE("HTA's window drops what the last ProfilerStep launched", "[hta]") {
  TestTrace t;
  t.step(1, 0, 100);
  t.step(2, 100, 100);
  t.step(3, 200, 100);
  t.launch(10, 2, 20, 10);    // A [20,30): step 1, kept
  t.launch(150, 2, 160, 10);  // B [160,170): launched after A ended -> host wait 130
  t.launch(165, 2, 205, 10);  // C [205,215): launched in step 2, runs in step 3: kept -> other 35
  t.launch(250, 2, 260, 10);  // D: launched in step 3 -> dropped
  t.orphanKernel(280, 5);     // no launch call: kept by its own start (280 > 200) -> dropped
  t.finalize();
  const analyzer::HtaWindow w = analyzer::computeHtaWindow(t.model);
  CHECK(w.filtered);
  CHECK(w.distinct_steps == 3);
  CHECK(w.cutoff_ns == 200'000);
  CHECK(w.last_step == "ProfilerStep#3");
  const auto idle = htaIdle(t.model, w);
  REQUIRE(idle.size() == 1);
  CHECK(idle[0].span_ns == 195'000);  // 20 µs .. 215 µs
  CHECK(idle[0].host_wait_ns == 130'000);
  CHECK(idle[0].other_ns == 35'000);
  CHECK(idle[0].kernel_wait_ns == 0);
  // Over the whole trace the dropped ops add 45 µs of host wait (D) and 10 µs of kernel wait.
  const auto whole = analyzer::computeIdleBreakdown(t.model);
  CHECK(whole[0].host_wait_ns == 175'000);
  CHECK(whole[0].kernel_wait_ns == 10'000);
}

TEST_CASE("with fewer than two ProfilerStep names HTA keeps everything", "[hta]") {
  TestTrace t;
  t.step(1, 0, 100);
  t.step(1, 100, 100);  // the same name twice is one step name for HTA
  t.launch(150, 2, 160, 10);
  t.finalize();
  const analyzer::HtaWindow w = analyzer::computeHtaWindow(t.model);
  CHECK_FALSE(w.filtered);
  CHECK(w.distinct_steps == 1);
  CHECK(w.last_step.empty());
  CHECK(htaIdle(t.model, w).size() == 1);
}

TEST_CASE("a GPU-side ProfilerStep annotation is a step for HTA", "[hta]") {
  // ROCm writes gpu_user_annotation copies of each step; they carry no stream arg, so HTA
  // treats them as CPU events: their later start becomes the cut-off.
  TestTrace t;
  t.step(1, 0, 100);
  t.step(2, 100, 100);
  t.event(trace::EventKind::kGpuUserAnnotation, "ProfilerStep#2", 150, 60, TestTrace::kDevice,
          TestTrace::kStream);
  t.finalize();
  const analyzer::HtaWindow w = analyzer::computeHtaWindow(t.model);
  CHECK(w.filtered);
  CHECK(w.cutoff_ns == 150'000);
}

TEST_CASE("HTA kernel types follow its name patterns", "[hta]") {
  using analyzer::HtaKernelType;
  CHECK(analyzer::htaKernelType("ncclKernel_AllReduce_RING_LL_Sum_float") ==
        HtaKernelType::kCommunication);
  CHECK(analyzer::htaKernelType("ncclDevKernel_AllGather_RING_LL") ==
        HtaKernelType::kCommunication);
  CHECK(analyzer::htaKernelType("void foo<ncclKernel>()") == HtaKernelType::kCommunication);
  CHECK(analyzer::htaKernelType("hipMemcpy") == HtaKernelType::kCommunication);  // HTA-Q11
  CHECK(analyzer::htaKernelType("Memcpy HtoD (Pageable -> Device)") == HtaKernelType::kMemory);
  CHECK(analyzer::htaKernelType("Memset (Device)") == HtaKernelType::kMemory);
  CHECK(analyzer::htaKernelType("Stream Sync") == HtaKernelType::kOther);
  CHECK(analyzer::htaKernelType("cudaLaunchKernel") == HtaKernelType::kOther);
  CHECK(analyzer::htaKernelType("Stream Wait Event") == HtaKernelType::kOther);
  CHECK(analyzer::htaKernelType("void at::native::vectorized_elementwise_kernel<4>") ==
        HtaKernelType::kComputation);
  CHECK(analyzer::htaKernelType("volta_sgemm_128x64_nn") == HtaKernelType::kComputation);
}

TEST_CASE("the temporal breakdown splits the GPU's kernel time as HTA does", "[hta]") {
  TestTrace t;
  t.launch(0, 1, 0, 10, "volta_sgemm_64x64_nn");                             // compute [0,10)
  t.launch(1, 1, 5, 15, "ncclKernel_AllReduce", trace::EventKind::kKernel);  // comm [5,20)
  t.launch(2, 1, 30, 10, "Memcpy DtoH (Device -> Pageable)", trace::EventKind::kMemcpy);  // [30,40)
  // A stream-bound sync counts as busy non-compute time in HTA (HTA-Q5).
  t.event(trace::EventKind::kCudaSync, "Stream Sync", 40, 10, TestTrace::kDevice,
          TestTrace::kStream);
  t.finalize();
  const auto temporal =
      analyzer::computeTemporalBreakdown(t.model, analyzer::computeHtaWindow(t.model));
  REQUIRE(temporal.size() == 1);
  const analyzer::TemporalBreakdown& g = temporal[0];
  CHECK(g.device == 0);
  CHECK(g.kernel_time_ns == 50'000);
  CHECK(g.idle_ns == 10'000);  // [20,30)
  CHECK(g.compute_ns == 10'000);
  CHECK(g.non_compute_ns == 30'000);
  CHECK(g.fraction(g.idle_ns) == Approx(0.2));
}

// Golden numbers: tests/analyzer/hta_reference.py on the raw JSON (no steplint code), which
// follows HTA v0.6.1's loading, last-step filter, get_idle_time_breakdown and
// get_temporal_breakdown literally with exact decimal arithmetic. ResNet-50's timestamps are
// integer µs, so HTA's default run gives these numbers as they are.
TEST_CASE("HTA-window idle and temporal breakdown equal HTA's on ResNet-50", "[hta][fixture]") {
  trace::TraceModel model;
  test::importFixture("kineto/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz",
                      model);
  const analyzer::TraceSummary s = analyzer::summarize(model);
  CHECK(s.hta.filtered);
  CHECK(s.hta.last_step == "ProfilerStep#10");
  CHECK(s.hta.cutoff_ns == 1623142624345228000);
  REQUIRE(s.idle_hta.size() == 1);
  const analyzer::StreamIdle& i = s.idle_hta[0];
  CHECK(i.stream == 7);
  CHECK(i.host_wait_ns == 318'934'000);
  CHECK(i.kernel_wait_ns == 8'529'000);
  CHECK(i.other_ns == 0);
  REQUIRE(s.temporal.size() == 1);
  const analyzer::TemporalBreakdown& g = s.temporal[0];
  CHECK(g.kernel_time_ns == 830'494'000);
  CHECK(g.idle_ns == 327'463'000);
  CHECK(g.compute_ns == 492'891'000);
  CHECK(g.non_compute_ns == 10'140'000);
  // The whole-trace figure (what `summary` showed before) is 20 % higher than HTA's.
  REQUIRE(s.idle.size() == 1);
  CHECK(s.idle[0].idle_ns() == 392'919'000);
}

// nccl_data has float µs timestamps with ns digits. HTA rounds them inward by default
// (HTA-Q2); steplint keeps ns, so these equal HTA run with HTA_DISABLE_NS_ROUNDING=1
// (hta_reference.py without --round). With rounding HTA reports host wait 357.247 / 381.499 ms
// and kernel wait 2.155 ms (docs/analyses.md §4).
TEST_CASE("HTA-window idle equals HTA's definition on the NCCL trace", "[hta][fixture]") {
  trace::TraceModel model;
  test::importFixture("hta/nccl_parser_config/nccl_data.json.gz", model);
  const analyzer::TraceSummary s = analyzer::summarize(model);
  CHECK(s.hta.filtered);
  CHECK(s.hta.last_step == "ProfilerStep#6");
  CHECK(s.hta.cutoff_ns == 4458676859077781);
  REQUIRE(s.idle_hta.size() == 2);
  const analyzer::StreamIdle* compute = findStream(s.idle_hta, 7);
  const analyzer::StreamIdle* comm = findStream(s.idle_hta, 40);
  REQUIRE(compute != nullptr);
  REQUIRE(comm != nullptr);
  CHECK(compute->host_wait_ns == 355'484'547);
  CHECK(compute->kernel_wait_ns == 1'414'183);
  CHECK(compute->other_ns == 0);
  CHECK(comm->host_wait_ns == 381'488'447);
  CHECK(comm->kernel_wait_ns == 0);
  CHECK(comm->other_ns == 0);
  REQUIRE(s.temporal.size() == 1);
  CHECK(s.temporal[0].kernel_time_ns == 435'587'561);
  CHECK(s.temporal[0].idle_ns == 336'419'714);
  CHECK(s.temporal[0].compute_ns == 76'935'828);
  CHECK(s.temporal[0].non_compute_ns == 22'232'019);
}
