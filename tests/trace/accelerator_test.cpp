// Device work of every accelerator Kineto records is read as device work, linked to its launch
// call, and the trace says which accelerator it ran on (issue 13: an MTIA trace read as "no
// device activity").
#include <catch2/catch.hpp>

#include "accelerator_traces.h"
#include "fixtures.h"
#include "kineto_event_parser.h"
#include "steplint/trace/accelerator.h"
#include "test_util.h"

using namespace steplint::trace;
using steplint::test::findEvent;
using steplint::test::importJson;

namespace {

size_t count(const TraceModel& m, EventKind kind) {
  size_t n = 0;
  for (const auto& e : m.events) n += e.kind == kind;
  return n;
}

std::string wrap(const std::string& events, const std::string& devices = "[]") {
  return R"({"deviceProperties":)" + devices + R"(,"traceEvents":[)" + events + "]}";
}

// One launch call and its device op, in the given categories.
std::string launchPair(const std::string& runtime_cat, const std::string& call,
                       const std::string& device_cat, const std::string& op) {
  return R"({"ph":"X","cat":")" + runtime_cat + R"(","name":")" + call +
         R"(","pid":9,"tid":9,"ts":10,"dur":5,"args":{"correlation":7}},)"
         R"({"ph":"X","cat":")" +
         device_cat + R"(","name":")" + op +
         R"(","pid":0,"tid":3,"ts":20,"dur":4,"args":{"correlation":7}})";
}

}  // namespace

TEST_CASE("accelerator: MTIA runtime calls launch mtia_ccp_events device ops",
          "[trace][accelerator]") {
  const auto r = importJson(steplint::test::mtiaTrace());
  REQUIRE(r.status.ok());
  const TraceModel& m = r.model;
  CHECK(m.metadata.accelerator == Accelerator::kMtia);
  CHECK(count(m, EventKind::kRuntime) == 20);  // 16 launches + 4 copies
  CHECK(count(m, EventKind::kKernel) == 16);   // job_exe_mm
  CHECK(count(m, EventKind::kMemcpy) == 4);    // dma_h2d_transfer: HTA's `^dma` memory pattern
  CHECK(count(m, EventKind::kOther) == 0);
  const Event* job = findEvent(m, "job_exe_mm");
  REQUIRE(job);
  REQUIRE(job->link != kNoIndex);
  CHECK(m.name(m.events[job->link]) == "runFunction - job_prep_and_submit_for_execution");
  CHECK(m.tracks[job->track].kind == TrackKind::kGpuStream);
  CHECK(m.deviceOf(*job) == 0);
  CHECK(m.stats.get(Stat::device_op_without_launch) == 0);
}

TEST_CASE("accelerator: ROCm's hip* calls under cuda_runtime make a ROCm trace",
          "[trace][accelerator]") {
  const auto r = importJson(steplint::test::rocmTrace());
  REQUIRE(r.status.ok());
  CHECK(r.model.metadata.accelerator == Accelerator::kRocm);
  CHECK(count(r.model, EventKind::kKernel) == 16);
  CHECK(count(r.model, EventKind::kMemcpy) == 4);
  const Event* copy = findEvent(r.model, "Memcpy HtoD (Host -> Device)");
  REQUIRE(copy);
  const GpuDetail* g = r.model.gpu(*copy);
  REQUIRE(g);
  CHECK(g->copy_kind == CopyKind::kHtoD);
  CHECK(g->src_kind == MemoryKind::kUnknown);  // "Host": pageable or pinned is not said
  CHECK(g->dst_kind == MemoryKind::kDevice);
}

TEST_CASE("accelerator: XPU calls and PTI's copy names", "[trace][accelerator]") {
  const auto r = importJson(steplint::test::xpuTrace());
  REQUIRE(r.status.ok());
  CHECK(r.model.metadata.accelerator == Accelerator::kXpu);
  CHECK(count(r.model, EventKind::kKernel) == 16);
  const Event* copy = findEvent(r.model, "Memcpy H2D (HOST -> DEVICE)");
  REQUIRE(copy);
  REQUIRE(copy->link != kNoIndex);
  const GpuDetail* g = r.model.gpu(*copy);
  REQUIRE(g);
  CHECK(g->copy_kind == CopyKind::kHtoD);
  CHECK(g->dst_kind == MemoryKind::kDevice);
}

TEST_CASE("accelerator: every back-end's launch and device categories", "[trace][accelerator]") {
  struct Case {
    const char* runtime_cat;
    const char* call;
    const char* device_cat;
    const char* op;
    EventKind call_kind;
    EventKind op_kind;
    Accelerator accelerator;
  };
  const Case cases[] = {
      {"cuda_runtime", "cudaLaunchKernel", "kernel", "gemm", EventKind::kRuntime,
       EventKind::kKernel, Accelerator::kCuda},
      {"cuda_driver", "cuLaunchKernel", "kernel", "triton_", EventKind::kDriver, EventKind::kKernel,
       Accelerator::kCuda},
      // Kineto >= 2025 writes accelerator-neutral runtime / driver: the call names decide.
      {"runtime", "hipLaunchKernel", "kernel", "k", EventKind::kRuntime, EventKind::kKernel,
       Accelerator::kRocm},
      {"driver", "cuLaunchKernel", "kernel", "k", EventKind::kDriver, EventKind::kKernel,
       Accelerator::kCuda},
      {"xpu_driver", "zeCommandListAppendLaunchKernel", "kernel", "k", EventKind::kDriver,
       EventKind::kKernel, Accelerator::kXpu},
      {"mtia_runtime", "runFunction", "mtia_ccp_events", "Memset (Device)", EventKind::kRuntime,
       EventKind::kMemset, Accelerator::kMtia},
      {"privateuse1_runtime", "npuLaunch", "kernel", "k", EventKind::kRuntime, EventKind::kKernel,
       Accelerator::kPrivateUse1},
      {"hpu_op", "graph_launch", "kernel", "k", EventKind::kRuntime, EventKind::kKernel,
       Accelerator::kHpu},
      {"mlu_runtime", "cnrtInvokeKernel", "mlu_memcpy", "Memcpy HtoD", EventKind::kRuntime,
       EventKind::kMemcpy, Accelerator::kOther},
  };
  for (const Case& c : cases) {
    INFO(c.runtime_cat << " / " << c.device_cat);
    const auto r = importJson(wrap(launchPair(c.runtime_cat, c.call, c.device_cat, c.op)));
    REQUIRE(r.status.ok());
    const Event* call = findEvent(r.model, c.call);
    const Event* op = findEvent(r.model, c.op);
    REQUIRE(call);
    REQUIRE(op);
    CHECK(call->kind == c.call_kind);
    CHECK(op->kind == c.op_kind);
    CHECK(op->link == r.model.indexOf(*call));
    CHECK(r.model.metadata.accelerator == c.accelerator);
  }
}

TEST_CASE("accelerator: deviceProperties names decide when the calls do not",
          "[trace][accelerator]") {
  const std::string kernel_only =
      R"({"ph":"X","cat":"kernel","name":"k","pid":0,"tid":7,"ts":1,"dur":1})";
  CHECK(importJson(wrap(kernel_only, R"([{"id":0,"name":"AMD Instinct MI300X"}])"))
            .model.metadata.accelerator == Accelerator::kRocm);
  CHECK(importJson(wrap(kernel_only, R"([{"id":0,"name":"NVIDIA H100 80GB HBM3"}])"))
            .model.metadata.accelerator == Accelerator::kCuda);
  // Device work with no other sign is what Kineto records by default: CUDA (CUPTI).
  CHECK(importJson(wrap(kernel_only)).model.metadata.accelerator == Accelerator::kCuda);
  // A CPU-only trace has none.
  const std::string cpu =
      R"({"ph":"X","cat":"cpu_op","name":"aten::mm","pid":1,"tid":1,"ts":1,"dur":1})";
  CHECK(importJson(wrap(cpu)).model.metadata.accelerator == Accelerator::kNone);
}

TEST_CASE("accelerator: device names and the name-split category", "[trace][accelerator]") {
  CHECK(acceleratorFromDeviceName("Tesla V100-DGXS-32GB") == Accelerator::kCuda);
  CHECK(acceleratorFromDeviceName("AMD Radeon Graphics") == Accelerator::kRocm);
  CHECK(acceleratorFromDeviceName("Intel(R) Data Center GPU Max 1100") == Accelerator::kXpu);
  CHECK(acceleratorFromDeviceName("mystery") == Accelerator::kNone);
  CHECK(eventKindFromCategory("mtia_ccp_events") == EventKind::kKernel);
  CHECK(isSplitByName("mtia_ccp_events"));
  CHECK_FALSE(isSplitByName("kernel"));  // a CUDA kernel named Memset... stays a kernel
  CHECK(deviceKindFromName("dma_transfer") == EventKind::kMemcpy);
  CHECK(deviceKindFromName("job_exe") == EventKind::kKernel);
  CHECK(acceleratorName(Accelerator::kMtia) == "MTIA");
  CHECK(deviceNoun(Accelerator::kRocm) == "GPU");
  CHECK(deviceNoun(Accelerator::kMtia) == "MTIA");
}

TEST_CASE("fixture: the MI250 trace is ROCm", "[trace][fixture][accelerator]") {
  TraceModel m;
  const auto status = importTraceFile(
      steplint::test::requireFixture("hta/amd_trace/mi250_minitoy_train_ROCm6_2_kineto.json.gz"),
      m);
  REQUIRE(status.ok());
  CHECK(m.metadata.accelerator == Accelerator::kRocm);
  CHECK(count(m, EventKind::kKernel) == 14);
}
