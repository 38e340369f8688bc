// Every shared real-world trace imports (skipped, not passed, when the fixtures are absent).
#include <catch2/catch.hpp>

#include "fixtures.h"
#include "steplint/trace/importer.h"

using namespace steplint::trace;
using steplint::test::requireFixture;

namespace {
TraceModel load(const std::string& relative) {
  TraceModel m;
  ImportOptions options;
  options.keep_flows = true;  // counted below
  const auto status = importTraceFile(requireFixture(relative), m, options);
  INFO(status.message);
  REQUIRE(status.ok());
  CHECK_FALSE(m.stats.hasDataLoss());
  return m;
}
size_t count(const TraceModel& m, EventKind kind) {
  size_t n = 0;
  for (const auto& e : m.events) n += e.kind == kind;
  return n;
}
}  // namespace

TEST_CASE("fixture: ResNet-50 0 workers imports every event", "[trace][fixture]") {
  const TraceModel m = load("kineto/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz");
  // Counted independently with Python's json: 44666 X, 12840 i (12838 [memory]), 9096 s/f pairs.
  CHECK(m.events.size() == 44666);
  CHECK(m.memory_events.size() == 12838);
  CHECK(m.instants.size() == 2);
  CHECK(m.flows.size() == 18192);
  CHECK(count(m, EventKind::kCpuOp) == 23646);
  CHECK(count(m, EventKind::kRuntime) == 11923);
  CHECK(count(m, EventKind::kKernel) == 8772);
  CHECK(count(m, EventKind::kMemcpy) == 12);
  CHECK(count(m, EventKind::kMemset) == 312);
  CHECK(m.metadata.devices.size() == 4);
  CHECK(m.stats.get(Stat::device_op_without_launch) == 0);
  size_t linked = 0;
  for (const auto& e : m.events) linked += isDeviceOp(e.kind) && e.link != kNoIndex;
  CHECK(linked == 8772 + 12 + 312);
}

TEST_CASE("fixture: every HTA trace imports", "[trace][fixture]") {
  const char* files[] = {
      "hta/amd_trace/mi250_minitoy_train_ROCm6_2_kineto.json.gz",
      "hta/cpu_only/rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz",
      "hta/critical_path/alexnet/benchmark_result_2869224_1695835535_trace.json.gz",
      "hta/critical_path/cuda_event_sync_multi_stream/event_sync_trace.json.gz",
      "hta/nccl_parser_config/nccl_data.json.gz",
      "hta/ns_resolution_trace/rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz",
      "hta/triton_example/triton_example.json.gz",
  };
  for (const char* f : files) {
    INFO(f);
    const TraceModel m = load(f);
    CHECK(m.events.size() > 0);
  }
}

TEST_CASE("fixture: distributed trace carries rank and NCCL kernels", "[trace][fixture]") {
  const TraceModel m = load("hta/nccl_parser_config/nccl_data.json.gz");
  CHECK(m.metadata.distributed.present);
  CHECK(m.metadata.distributed.rank == 0);
  CHECK(m.metadata.distributed.world_size == 2);
  CHECK(m.metadata.has_base_time);
  bool nccl = false;
  for (const auto& e : m.events)
    nccl |= e.kind == EventKind::kKernel && m.name(e).find("nccl") != std::string_view::npos;
  CHECK(nccl);
}

TEST_CASE("fixture: ns-resolution trace keeps sub-microsecond digits", "[trace][fixture]") {
  const TraceModel m = load("hta/ns_resolution_trace/rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz");
  size_t with_ns = 0;
  for (const auto& e : m.events) with_ns += e.start_ns % 1000 != 0;
  CHECK(with_ns > m.events.size() / 2);
}

TEST_CASE("fixture: Triton kernel is linked to its cuLaunchKernel", "[trace][fixture]") {
  const TraceModel m = load("hta/triton_example/triton_example.json.gz");
  bool linked = false;
  for (const auto& e : m.events)
    if (e.kind == EventKind::kKernel && e.link != kNoIndex)
      linked |= m.events[e.link].kind == EventKind::kDriver;
  CHECK(linked);
}
