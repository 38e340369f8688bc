#include "steplint/analyzer/breakdown.h"

#include <catch2/catch.hpp>
#include <numeric>

#include "test_model.h"

using namespace steplint;
using analyzer::StepCategory;
using test::TestTrace;

namespace {

analyzer::BreakdownResult breakdownOf(const trace::TraceModel& model) {
  analyzer::StepOptions keep;
  keep.drop_incomplete_tail = false;
  return analyzer::computeBreakdown(model, analyzer::computeSteps(model, keep));
}

int64_t nsOf(const analyzer::StepBreakdown& row, StepCategory c) {
  return row.ns[static_cast<size_t>(c)];
}

int64_t sumOf(const analyzer::StepBreakdown& row) {
  return std::accumulate(row.ns.begin(), row.ns.end(), int64_t{0});
}

}  // namespace

TEST_CASE("every category gets its own time when roles do not overlap", "[breakdown]") {
  TestTrace t;
  t.step(1, 0, 200);
  t.launch(1, 1, 10, 10);  // kernel [10,20)
  t.launch(2, 1, 20, 10, "Memcpy HtoD (Pageable -> Device)", trace::EventKind::kMemcpy);  // [20,30)
  t.launch(3, 1, 30, 5, "Memset (Device)", trace::EventKind::kMemset);                    // [30,35)
  t.annotation("nccl:all_reduce", 40, 10, 2);                                             // [40,50)
  t.event(trace::EventKind::kRuntime, "cudaStreamSynchronize", 50, 5, TestTrace::kCpuPid, 2);
  t.annotation("enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__", 60, 20,
               2);               // [60,80)
  t.op("aten::add", 80, 10, 2);  // [80,90)
  t.event(trace::EventKind::kPythonFunction, "train.py(12): step", 90, 10, TestTrace::kCpuPid, 2);
  t.finalize();
  const auto b = breakdownOf(t.model);
  REQUIRE(b.per_step.size() == 1);
  const auto& row = b.per_step[0];
  CHECK(row.step_number == 1);
  CHECK(row.total_ns == 200'000);
  CHECK(nsOf(row, StepCategory::kKernel) == 10'000);
  CHECK(nsOf(row, StepCategory::kMemcpy) == 10'000);
  CHECK(nsOf(row, StepCategory::kMemset) == 5'000);
  CHECK(nsOf(row, StepCategory::kCommunication) == 10'000);
  // launch calls [1,2) [2,3) [3,4) and the sync [50,55)
  CHECK(nsOf(row, StepCategory::kRuntime) == 3'000 + 5'000);
  CHECK(nsOf(row, StepCategory::kDataLoader) == 20'000);
  CHECK(nsOf(row, StepCategory::kCpuExec) == 10'000 + 10'000);  // aten::add + the Python frame
  CHECK(nsOf(row, StepCategory::kOther) ==
        200'000 - 10'000 - 10'000 - 5'000 - 10'000 - 8'000 - 20'000 - 20'000);
  CHECK(sumOf(row) == row.total_ns);
  CHECK(b.average_total_ns == Approx(200'000));
  CHECK(b.averageFraction(StepCategory::kDataLoader) == Approx(0.1));
}

TEST_CASE("overlapping roles are assigned by priority", "[breakdown]") {
  TestTrace t;
  t.step(1, 0, 100);
  t.op("aten::conv2d", 0, 100, 2);  // CPU Exec everywhere
  t.annotation("enumerate(DataLoader)#_MultiProcessingDataLoaderIter.__next__", 0, 30, 3);
  t.launch(20, 20, 30, 40);  // runtime [20,40), kernel [30,70)
  t.finalize();
  const auto b = breakdownOf(t.model);
  const auto& row = b.per_step.at(0);
  CHECK(nsOf(row, StepCategory::kKernel) == 40'000);      // [30,70)
  CHECK(nsOf(row, StepCategory::kRuntime) == 10'000);     // [20,30)
  CHECK(nsOf(row, StepCategory::kDataLoader) == 20'000);  // [0,20)
  CHECK(nsOf(row, StepCategory::kCpuExec) == 30'000);     // [70,100)
  CHECK(nsOf(row, StepCategory::kOther) == 0);
  CHECK(sumOf(row) == row.total_ns);
}

TEST_CASE("categories never exceed the step even when higher roles cover it (not TB-Q8)",
          "[breakdown]") {
  TestTrace t;
  t.step(1, 0, 100);
  t.op("aten::mm", 0, 100, 2);
  t.launch(1, 1, 0, 100);  // the kernel covers the whole step
  t.finalize();
  const auto b = breakdownOf(t.model);
  const auto& row = b.per_step.at(0);
  CHECK(nsOf(row, StepCategory::kKernel) == 100'000);
  CHECK(nsOf(row, StepCategory::kCpuExec) == 0);  // tb_plugin would count 100'000 here
  CHECK(sumOf(row) == row.total_ns);
}

TEST_CASE("kernels launched under a communication op are Communication", "[breakdown]") {
  TestTrace t;
  t.step(1, 0, 100);
  t.annotation("nccl:all_reduce", 10, 10);
  t.op("c10d::allreduce_", 11, 8);
  t.launch(12, 2, 30, 20,
           "some_collective_kernel");  // its op is c10d::allreduce_, under nccl:all_reduce
  t.op("aten::mm", 60, 10);
  t.launch(61, 2, 70, 10, "volta_sgemm_64x64_nn");                         // an ordinary kernel
  t.orphanKernel(85, 5, "ncclDevKernel_AllGather_RING_LL(ncclDevComm*)");  // NCCL kernel by name
  t.finalize();
  const auto b = breakdownOf(t.model);
  const auto& row = b.per_step.at(0);
  CHECK(nsOf(row, StepCategory::kKernel) == 10'000);
  // annotation [10,20) + collective kernel [30,50) + NCCL kernel [85,90)
  CHECK(nsOf(row, StepCategory::kCommunication) == 10'000 + 20'000 + 5'000);
  CHECK(sumOf(row) == row.total_ns);
}

TEST_CASE("driver calls are Runtime, GPU annotations and ProfilerStep have no role",
          "[breakdown]") {
  TestTrace t;
  t.step(1, 0, 100);
  t.launch(10, 10, 50, 10, "triton_poi_fused_0", trace::EventKind::kKernel,
           trace::EventKind::kDriver);
  t.event(trace::EventKind::kGpuUserAnnotation, "## backward ##", 0, 100, TestTrace::kDevice, 7);
  t.event(trace::EventKind::kCudaSync, "Stream Sync", 70, 10, TestTrace::kDevice, 7);
  t.finalize();
  const auto b = breakdownOf(t.model);
  const auto& row = b.per_step.at(0);
  CHECK(nsOf(row, StepCategory::kRuntime) == 10'000);
  CHECK(nsOf(row, StepCategory::kKernel) == 10'000);
  CHECK(nsOf(row, StepCategory::kCpuExec) == 0);
  CHECK(nsOf(row, StepCategory::kOther) == 80'000);
}

TEST_CASE("averages are means over the kept steps", "[breakdown]") {
  TestTrace t;
  t.step(1, 0, 100);
  t.step(2, 100, 300);
  t.op("aten::relu", 0, 50, 2);
  t.op("aten::relu", 100, 100, 2);
  t.finalize();
  const auto b = breakdownOf(t.model);
  REQUIRE(b.per_step.size() == 2);
  CHECK(b.average_total_ns == Approx(200'000));
  CHECK(b.average_ns[static_cast<size_t>(StepCategory::kCpuExec)] == Approx(75'000));
  CHECK(b.averageFraction(StepCategory::kCpuExec) == Approx(0.375));
  CHECK(b.averageFraction(StepCategory::kOther) == Approx(0.625));
}

TEST_CASE("no steps, no breakdown", "[breakdown]") {
  trace::TraceModel empty;
  const auto b = analyzer::computeBreakdown(empty, analyzer::computeSteps(empty));
  CHECK(b.per_step.empty());
  CHECK(b.averageFraction(StepCategory::kKernel) == 0.0);
}

TEST_CASE("role names", "[breakdown]") {
  CHECK(analyzer::isDataLoaderName("enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__"));
  CHECK(analyzer::isDataLoaderName("enumerate(DataPipe)#ShardingFilterIterDataPipe"));
  CHECK_FALSE(
      analyzer::isDataLoaderName("enumerate(DataLoader)#_MultiProcessingDataLoaderIter.__init__"));
  CHECK_FALSE(analyzer::isDataLoaderName("DataLoader.__next__"));
  CHECK(analyzer::isCommunicationOpName("nccl:all_reduce"));
  CHECK(analyzer::isCommunicationOpName("gloo:broadcast"));
  CHECK(analyzer::isCommunicationOpName("nccl:_all_gather_base"));  // beyond tb's five (TB-Q13)
  CHECK(analyzer::isCommunicationOpName("record_param_comms"));
  CHECK_FALSE(analyzer::isCommunicationOpName("aten::all_reduce_like"));
  CHECK(analyzer::stepCategoryName(StepCategory::kCpuExec) == "CPU Exec");
  CHECK(analyzer::stepCategoryName(StepCategory::kOther) == "Other");
}
