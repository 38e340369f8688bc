// Record conversion on hand-built buffers read by the real cuptiActivityGetNextRecord.
#include <catch2/catch.hpp>

#include "cupti/cupti_records.h"
#include "cupti_test_buffers.h"

using namespace steplint::collector;
using steplint::test::ActivityBuffer;

namespace {

const DeviceEvent* findDevice(const ConvertedRecords& r, const std::string& name) {
  for (const auto& e : r.device)
    if (e.name == name) return &e;
  return nullptr;
}

const ApiEvent* findApi(const ConvertedRecords& r, const std::string& name) {
  for (const auto& e : r.api)
    if (e.name == name) return &e;
  return nullptr;
}

}  // namespace

TEST_CASE("a step buffer converts every record kind with exact names and fields",
          "[cupti][records]") {
  ActivityBuffer b;
  steplint::test::fillStepBuffer(b);
  RecordConverter conv(10);  // offset added to every CUPTI time
  ConvertedRecords out;
  conv.parseBuffer(b.data(), b.size(), &out);

  CHECK(conv.counters().records == 14);
  CHECK(conv.counters().blocklisted == 1);  // cudaGetDevice
  CHECK(conv.counters().external_ids == 2);
  CHECK(conv.counters().unknown_kinds == 0);
  CHECK(conv.counters().corrupt_buffers == 0);
  REQUIRE(out.api.size() == 4);
  REQUIRE(out.device.size() == 7);

  const ApiEvent* launch = findApi(out, "cudaLaunchKernel");  // "_v7000" stripped
  REQUIRE(launch);
  CHECK(launch->domain == ApiDomain::kRuntime);
  CHECK(launch->cbid == 211);
  CHECK(launch->pid == 4242);
  CHECK(launch->tid == 4243);
  CHECK(launch->start_ns == 1010);
  CHECK(launch->end_ns == 1510);
  CHECK(launch->correlation == 100);
  CHECK(launch->external_id == 7);
  CHECK(launch->flow);
  const ApiEvent* copy = findApi(out, "cudaMemcpyAsync");
  REQUIRE(copy);
  CHECK(copy->external_id == 8);
  CHECK(copy->flow);
  const ApiEvent* sync = findApi(out, "cudaStreamSynchronize");
  REQUIRE(sync);
  CHECK(sync->external_id == 0);  // no external correlation record for 105
  CHECK(sync->flow);
  const ApiEvent* driver = findApi(out, "cuLaunchKernel");
  REQUIRE(driver);
  CHECK(driver->domain == ApiDomain::kDriver);
  CHECK(driver->cbid == 307);
  CHECK(findApi(out, "cudaGetDevice") == nullptr);

  const DeviceEvent* k = findDevice(out, "gemm_kernel");
  REQUIRE(k);
  CHECK(k->kind == DeviceEventKind::kKernel);
  CHECK(k->start_ns == 2010);
  CHECK(k->end_ns == 4010);
  CHECK(k->stream == 7);
  CHECK(k->context == 1);
  CHECK(k->correlation == 100);
  CHECK(k->external_id == 7);
  CHECK(k->grid[0] == 264);
  CHECK(k->block[0] == 256);
  CHECK(k->registers_per_thread == 32);
  CHECK(k->shared_memory == 5120);
}

TEST_CASE("memcpy names follow CUPTI memory kinds: pageable 1 and pinned 2", "[cupti][records]") {
  ActivityBuffer b;
  steplint::test::fillStepBuffer(b);
  RecordConverter conv;
  ConvertedRecords out;
  conv.parseBuffer(b.data(), b.size(), &out);

  const DeviceEvent* pageable = findDevice(out, "Memcpy HtoD (Pageable -> Device)");
  const DeviceEvent* pinned = findDevice(out, "Memcpy HtoD (Pinned -> Device)");
  const DeviceEvent* d2h = findDevice(out, "Memcpy DtoH (Device -> Pageable)");
  const DeviceEvent* memset = findDevice(out, "Memset (Device)");
  REQUIRE(pageable);
  REQUIRE(pinned);
  REQUIRE(d2h);
  REQUIRE(memset);
  CHECK(pageable->bytes == 1000000);
  CHECK(pageable->correlation == 101);
  CHECK(pageable->external_id == 8);
  CHECK(pinned->external_id == 0);
  CHECK(pinned->src_kind == 2);
  CHECK(d2h->bytes == 4);
  CHECK(memset->kind == DeviceEventKind::kMemset);
  CHECK(memset->bytes == 4096);
  CHECK(memset->correlation == 104);

  CHECK(memcpyName(10, 3, 3) == "Memcpy PtoP (Device -> Device)");
  CHECK(memcpyName(8, 6, 7) == "Memcpy DtoD (Device Static -> Managed Static)");
  CHECK(memcpyName(42, 1, 99) == "Memcpy Unrecognized (Pageable -> Unrecognized)");
  CHECK(memsetName(5) == "Memset (Managed)");
}

TEST_CASE("sync and overhead records: names, missing stream, device from the context",
          "[cupti][records]") {
  ActivityBuffer b;
  steplint::test::fillStepBuffer(b);
  auto& ctx_sync = b.add<CUpti_ActivitySynchronization2>(CUPTI_ACTIVITY_KIND_SYNCHRONIZATION);
  ctx_sync.type = CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_CONTEXT_SYNCHRONIZE;
  ctx_sync.start = 9700;
  ctx_sync.end = 9800;
  ctx_sync.correlationId = 107;
  ctx_sync.contextId = 1;
  ctx_sync.streamId = CUPTI_SYNCHRONIZATION_INVALID_VALUE;
  RecordConverter conv;
  ConvertedRecords out;
  conv.parseBuffer(b.data(), b.size(), &out);

  const DeviceEvent* stream_sync = findDevice(out, "Stream Sync");
  REQUIRE(stream_sync);
  CHECK(stream_sync->kind == DeviceEventKind::kSync);
  CHECK(stream_sync->stream == 7);
  CHECK(stream_sync->start_ns == 5000);
  CHECK(stream_sync->end_ns == 9000);
  CHECK(stream_sync->correlation == 105);
  const DeviceEvent* context_sync = findDevice(out, "Context Sync");
  REQUIRE(context_sync);
  CHECK(context_sync->stream == -1);
  CHECK(context_sync->device == 0);
  const DeviceEvent* flush = findDevice(out, "Buffer Flush");
  REQUIRE(flush);
  CHECK(flush->kind == DeviceEventKind::kOverhead);
  CHECK(flush->end_ns - flush->start_ns == 100);

  CHECK(std::string(syncName(1)) == "Event Sync");
  CHECK(std::string(syncName(2)) == "Stream Wait Event");
  CHECK(std::string(syncName(0)) == "Unknown Sync");
}

TEST_CASE("unknown record kinds are skipped and counted", "[cupti][records]") {
  ActivityBuffer b;
  auto& marker = b.add<CUpti_ActivityMarker2>(CUPTI_ACTIVITY_KIND_MARKER);
  marker.timestamp = 5;
  addKernel(b, "after_marker", 1, 10, 20);
  RecordConverter conv;
  ConvertedRecords out;
  conv.parseBuffer(b.data(), b.size(), &out);
  CHECK(conv.counters().records == 2);
  CHECK(conv.counters().unknown_kinds == 1);
  REQUIRE(out.device.size() == 1);
  CHECK(out.device[0].name == "after_marker");
}

TEST_CASE("external ids survive across buffers and the map is bounded", "[cupti][records]") {
  RecordConverter conv;
  ConvertedRecords out;
  ActivityBuffer first;
  addExternal(first, 500, 77);
  addExternal(first, 501, 78, CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM1);  // not ours: ignored
  conv.parseBuffer(first.data(), first.size(), &out);
  CHECK(out.device.empty());

  ActivityBuffer second;
  addKernel(second, "late_kernel", 500, 100, 200);
  addKernel(second, "graph_kernel_b", 500, 200, 300);  // cudaGraphLaunch: N kernels, one corr
  addKernel(second, "other_kind", 501, 300, 400);
  conv.parseBuffer(second.data(), second.size(), &out);
  REQUIRE(out.device.size() == 3);
  CHECK(out.device[0].external_id == 77);
  CHECK(out.device[1].external_id == 77);
  CHECK(out.device[2].external_id == 0);

  ActivityBuffer many(RecordConverter::kMaxExternalIds * 24 + 64);
  for (uint32_t i = 0; i < RecordConverter::kMaxExternalIds; ++i)
    addExternal(many, 1000 + i, i + 1);
  conv.parseBuffer(many.data(), many.size(), &out);
  out.clear();
  ActivityBuffer probe;
  addKernel(probe, "evicted", 500, 1, 2);
  addKernel(probe, "kept", 1000, 1, 2);
  conv.parseBuffer(probe.data(), probe.size(), &out);
  REQUIRE(out.device.size() == 2);
  CHECK(out.device[0].external_id == 0);  // oldest entry went first
  CHECK(out.device[1].external_id == 1);
}

TEST_CASE("API names drop _vNNNN suffixes only and noisy calls are blocklisted",
          "[cupti][records]") {
  CHECK(stripVersionSuffix("cudaLaunchKernel_v7000") == "cudaLaunchKernel");
  CHECK(stripVersionSuffix("__cudaLaunchKernel_v13000") == "__cudaLaunchKernel");
  CHECK(stripVersionSuffix("cuMemcpyHtoD_v2") == "cuMemcpyHtoD_v2");
  CHECK(stripVersionSuffix("cuMemAlloc_v2_ptds") == "cuMemAlloc_v2_ptds");
  CHECK(stripVersionSuffix("cudaFoo_vABCD") == "cudaFoo_vABCD");
  CHECK(isBlocklistedRuntimeCbid(CUPTI_RUNTIME_TRACE_CBID_cudaEventCreateWithFlags_v3020));
  CHECK_FALSE(isBlocklistedRuntimeCbid(CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000));
  CHECK(startsFlow("cudaLaunchKernelExC"));
  CHECK(startsFlow("cudaGraphLaunch"));
  CHECK(startsFlow("cudaMemsetAsync"));
  CHECK(startsFlow("cudaDeviceSynchronize"));
  CHECK_FALSE(startsFlow("cudaStreamIsCapturing"));
  CHECK_FALSE(startsFlow("cudaMalloc"));
}

TEST_CASE("an empty or null buffer converts to nothing", "[cupti][records]") {
  RecordConverter conv;
  ConvertedRecords out;
  conv.parseBuffer(nullptr, 0, &out);
  ActivityBuffer b;
  conv.parseBuffer(b.data(), 0, &out);
  CHECK(out.device.empty());
  CHECK(out.api.empty());
  CHECK(conv.counters().records == 0);
}

TEST_CASE("driver calls that launch nothing are skipped and counted, as Kineto does",
          "[cupti][records]") {
  ActivityBuffer b;
  steplint::test::addApi(b, CUPTI_ACTIVITY_KIND_DRIVER,
                         CUPTI_DRIVER_TRACE_CBID_cuDevicePrimaryCtxGetState, 201, 10, 20);
  steplint::test::addApi(b, CUPTI_ACTIVITY_KIND_DRIVER, CUPTI_DRIVER_TRACE_CBID_cuKernelGetName,
                         202, 30, 40);
  steplint::test::addApi(b, CUPTI_ACTIVITY_KIND_DRIVER, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, 203,
                         50, 60);
  steplint::test::addApi(b, CUPTI_ACTIVITY_KIND_DRIVER,
                         CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoDAsync_v2, 204, 70, 80);
  RecordConverter conv;
  ConvertedRecords out;
  conv.parseBuffer(b.data(), b.size(), &out);
  CHECK(conv.counters().driver_skipped == 2);
  REQUIRE(out.api.size() == 2);
  CHECK(out.api[0].name == "cuLaunchKernel");
  CHECK(out.api[0].correlation == 203);
  CHECK(out.api[1].name == "cuMemcpyHtoDAsync_v2");
}

TEST_CASE("a peer-to-peer copy (MEMCPY2) keeps its source and destination devices",
          "[cupti][records]") {
  ActivityBuffer b;
  auto& p = b.add<CUpti_ActivityMemcpyPtoP4>(CUPTI_ACTIVITY_KIND_MEMCPY2);
  p.copyKind = CUPTI_ACTIVITY_MEMCPY_KIND_PTOP;
  p.srcKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
  p.dstKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
  p.bytes = 4096;
  p.start = 100;
  p.end = 300;
  p.deviceId = 1;
  p.contextId = 11;
  p.streamId = 13;
  p.srcDeviceId = 1;
  p.srcContextId = 11;
  p.dstDeviceId = 0;
  p.dstContextId = 10;
  p.correlationId = 77;
  RecordConverter conv;
  ConvertedRecords out;
  conv.parseBuffer(b.data(), b.size(), &out);
  CHECK(conv.counters().unknown_kinds == 0);
  const DeviceEvent* e = findDevice(out, "Memcpy PtoP (Device -> Device)");
  REQUIRE(e != nullptr);
  CHECK(e->peer);
  CHECK(e->device == 1);
  CHECK(e->src_device == 1);
  CHECK(e->dst_device == 0);
  CHECK(e->dst_context == 10);
  CHECK(e->bytes == 4096);
  CHECK(e->stream == 13);
  CHECK(e->correlation == 77);
}
