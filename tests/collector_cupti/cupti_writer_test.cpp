// Converted records written through KinetoJsonWriter and read back by steplint's importer: the
// output must link kernel → launch call (correlation) → CPU op (External id) like Kineto's.
#include <catch2/catch.hpp>

#include <sys/syscall.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>

#include "cupti/cupti_event_writer.h"
#include "cupti/cupti_records.h"
#include "cupti_test_buffers.h"
#include "steplint/trace/importer.h"
#include "steplint/trace/kineto_writer.h"
#include "thread_ids.h"

using namespace steplint;
using namespace steplint::collector;

namespace {

constexpr int64_t kBase = 1763800000000000000;

trace::WriterDeviceProperties h100() {
  trace::WriterDeviceProperties d;
  d.id = 0;
  d.name = "NVIDIA H100 80GB HBM3";
  d.compute_major = 9;
  d.max_threads_per_multiprocessor = 2048;
  d.max_threads_per_block = 1024;
  d.regs_per_multiprocessor = 65536;
  d.num_sms = 132;
  d.shared_mem_per_multiprocessor = 233472;
  return d;
}

struct Written {
  std::string json;
  trace::TraceModel model;
};

/// Writes a cpu_op (External id 7) by hand plus the converted step buffer; imports the file.
Written writeStep() {
  test::ActivityBuffer b;
  test::fillStepBuffer(b);
  RecordConverter conv;
  ConvertedRecords records;
  conv.parseBuffer(b.data(), b.size(), &records);

  const std::string path = "cupti_writer_test_" + std::to_string(getpid()) + ".json";
  trace::KinetoJsonWriter w;
  std::string error;
  REQUIRE(w.open(path, &error));
  trace::TraceHeader header;
  header.devices.push_back(h100());
  header.base_time_ns = kBase;
  header.clock_origin_ns = 0;
  w.beginTrace(header);
  w.event('X')
      .cat("cpu_op")
      .name("aten::mm")
      .pid(4242)
      .tid(4243)
      .ts(900)
      .dur(1000)
      .arg("External id", int64_t{7})
      .done();
  GpuEventWriter events;
  events.setDevices(header.devices);
  events.setProcessName("train");
  events.write(records, w);
  REQUIRE(w.endTrace({}, &error));

  Written out;
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  out.json = ss.str();
  std::remove(path.c_str());
  trace::ImportOptions options;
  options.keep_flows = true;  // the ac2g flows are checked
  const trace::ImportStatus st = trace::importTraceBytes(out.json, out.model, options);
  REQUIRE(st.ok());
  return out;
}

const trace::Event* find(const trace::TraceModel& m, std::string_view name) {
  for (const auto& e : m.events)
    if (m.name(e) == name) return &e;
  return nullptr;
}

}  // namespace

TEST_CASE("written GPU events import with kernel to launch to op links", "[cupti][writer]") {
  Written w = writeStep();
  const trace::TraceModel& m = w.model;
  const trace::Event* op = find(m, "aten::mm");
  const trace::Event* launch = find(m, "cudaLaunchKernel");
  const trace::Event* kernel = find(m, "gemm_kernel");
  REQUIRE(op);
  REQUIRE(launch);
  REQUIRE(kernel);
  CHECK(launch->kind == trace::EventKind::kRuntime);
  CHECK(launch->correlation == 100);
  CHECK(launch->external_id == 7);
  CHECK(launch->link == m.indexOf(*op));
  CHECK(kernel->kind == trace::EventKind::kKernel);
  CHECK(kernel->link == m.indexOf(*launch));
  CHECK(kernel->external_id == 7);
  CHECK(kernel->start_ns == 2000);  // relative to clock_origin_ns
  CHECK(kernel->dur_ns == 2000);
  CHECK(m.tracks[kernel->track].kind == trace::TrackKind::kGpuStream);
  CHECK(m.tracks[kernel->track].pid == 0);
  CHECK(m.tracks[kernel->track].tid == 7);
  CHECK(m.str(m.tracks[kernel->track].thread_name) == "stream 7 ");
  CHECK(m.tracks[launch->track].pid == 4242);
  CHECK(m.tracks[launch->track].tid == 4243);
  const trace::GpuDetail* g = m.gpu(*kernel);
  REQUIRE(g);
  CHECK(g->grid[0] == 264);
  CHECK(g->block[0] == 256);
  CHECK(g->registers_per_thread == 32);
  CHECK(g->shared_memory == 5120);
  CHECK(g->blocks_per_sm == Approx(2.0));
  CHECK(g->warps_per_sm == Approx(16.0));
  CHECK(g->occupancy_pct == Approx(25.0));  // 2 resident blocks × 256 threads / 2048
}

TEST_CASE("written copies keep pageable vs pinned in the name and link by correlation",
          "[cupti][writer]") {
  Written w = writeStep();
  const trace::TraceModel& m = w.model;
  const trace::Event* pageable = find(m, "Memcpy HtoD (Pageable -> Device)");
  const trace::Event* pinned = find(m, "Memcpy HtoD (Pinned -> Device)");
  const trace::Event* memset = find(m, "Memset (Device)");
  const trace::Event* call = find(m, "cudaMemcpyAsync");
  REQUIRE(pageable);
  REQUIRE(pinned);
  REQUIRE(memset);
  REQUIRE(call);
  CHECK(pageable->kind == trace::EventKind::kMemcpy);
  CHECK(pageable->link == m.indexOf(*call));
  CHECK(pageable->external_id == 8);
  const trace::GpuDetail* g = m.gpu(*pageable);
  REQUIRE(g);
  CHECK(g->src_kind == trace::MemoryKind::kPageable);
  CHECK(g->copy_kind == trace::CopyKind::kHtoD);
  CHECK(g->bytes == 1000000);
  REQUIRE(m.gpu(*pinned));
  CHECK(m.gpu(*pinned)->src_kind == trace::MemoryKind::kPinned);
  CHECK(memset->kind == trace::EventKind::kMemset);
  CHECK(w.json.find("\"memory bandwidth (GB/s)\": 1000") != std::string::npos);
}

TEST_CASE("written syncs, overhead, flows and GPU metadata rows follow Kineto", "[cupti][writer]") {
  Written w = writeStep();
  const trace::TraceModel& m = w.model;
  const trace::Event* sync = find(m, "Stream Sync");
  REQUIRE(sync);
  CHECK(sync->kind == trace::EventKind::kCudaSync);
  CHECK(sync->correlation == 105);
  CHECK(m.tracks[sync->track].tid == 7 + kSyncStreamTidOffset);
  CHECK(m.str(m.tracks[sync->track].thread_name) == "stream 7 (sync)");
  const trace::Event* overhead = find(m, "Buffer Flush");
  REQUIRE(overhead);
  CHECK(overhead->kind == trace::EventKind::kOverhead);
  const trace::Event* driver = find(m, "cuLaunchKernel");
  REQUIRE(driver);
  CHECK(driver->kind == trace::EventKind::kDriver);
  CHECK(find(m, "cudaGetDevice") == nullptr);

  const std::string& j = w.json;
  CHECK(j.find("\"cuda_sync_kind\": \"Stream Sync\"") != std::string::npos);
  CHECK(j.find("\"labels\": \"GPU 0\"") != std::string::npos);
  CHECK(j.find("\"sort_index\": 16777216") != std::string::npos);
  CHECK(j.find("\"name\": \"train\"") != std::string::npos);
  // One process_name per device however many rows it has.
  size_t names = 0;
  for (size_t p = j.find("\"process_labels\""); p != std::string::npos;
       p = j.find("\"process_labels\"", p + 1))
    ++names;
  CHECK(names == 1);
  // ac2g: s on the launch call, f with bp "e" on the kernel, id = correlation.
  CHECK(j.find("\"ph\": \"s\", \"id\": 100") != std::string::npos);
  CHECK(j.find("\"ph\": \"f\", \"id\": 100") != std::string::npos);
  CHECK(j.find("\"bp\": \"e\"") != std::string::npos);
  size_t flows = 0;
  for (const auto& f : m.flows) flows += f.id == 100 ? 1 : 0;
  CHECK(flows == 2);
}

TEST_CASE("occupancy estimate is limited by registers and shared memory", "[cupti][writer]") {
  DeviceEvent k;
  k.grid[0] = 10000;
  k.grid[1] = 1;
  k.grid[2] = 1;
  k.block[0] = 128;
  k.block[1] = 1;
  k.block[2] = 1;
  trace::WriterDeviceProperties d = h100();
  k.registers_per_thread = 255;  // 255 regs → 8192 regs per warp → 8 warps → 2 blocks of 4
  CHECK(estimatedOccupancyPct(k, d) == 13);
  k.registers_per_thread = 0;
  k.shared_memory = 100 * 1024;  // 233472 / (102400 + 1024) → 2 blocks
  CHECK(estimatedOccupancyPct(k, d) == 13);
  k.shared_memory = 0;
  CHECK(estimatedOccupancyPct(k, d) == 100);  // 16 blocks of 128 threads fill 2048
  d.num_sms = 0;
  CHECK(estimatedOccupancyPct(k, d) == -1);
}

TEST_CASE("a written peer-to-peer copy carries Kineto's from/in/to device args",
          "[cupti][writer]") {
  ConvertedRecords records;
  DeviceEvent e;
  e.kind = DeviceEventKind::kMemcpy;
  e.name = "Memcpy PtoP (Device -> Device)";
  e.device = 1;
  e.context = 11;
  e.stream = 13;
  e.start_ns = 100;
  e.end_ns = 300;
  e.bytes = 4096;
  e.copy_kind = 10;  // CUPTI_ACTIVITY_MEMCPY_KIND_PTOP
  e.peer = true;
  e.src_device = 1;
  e.dst_device = 0;
  e.src_context = 11;
  e.dst_context = 10;
  records.device.push_back(e);
  const std::string path = "cupti_writer_p2p_" + std::to_string(getpid()) + ".json";
  trace::KinetoJsonWriter w;
  std::string error;
  REQUIRE(w.open(path, &error));
  w.beginTrace(trace::TraceHeader{});
  GpuEventWriter events;
  events.write(records, w);
  REQUIRE(w.endTrace({}, &error));
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string json = ss.str();
  std::remove(path.c_str());
  CHECK(json.find("\"fromDevice\": 1, \"inDevice\": 1, \"toDevice\": 0") != std::string::npos);
  CHECK(json.find("\"toContext\": 10") != std::string::npos);
  trace::TraceModel m;
  REQUIRE(trace::importTraceBytes(json, m).ok());
  const trace::Event* copy = find(m, "Memcpy PtoP (Device -> Device)");
  REQUIRE(copy);
  REQUIRE(m.gpu(*copy));
  CHECK(m.gpu(*copy)->copy_kind == trace::CopyKind::kPtoP);
  CHECK(m.gpu(*copy)->bytes == 4096);
}

TEST_CASE(
    "a launch is written on the OS tid of the thread whose ops made it, not CUPTI's pthread id",
    "[cupti][writer]") {
  // CUPTI stamps runtime records with the low 32 bits of pthread_self(); the thread's ops carry
  // its OS tid. Seen on the H200: every launch on a row of its own, apart from its ops.
  rememberCurrentThreadIds();
  ApiEvent launch;
  launch.name = "cudaLaunchKernel";
  launch.pid = 4242;
  launch.tid = cuptiThreadIdOfCurrentThread();
  launch.start_ns = 1000;
  launch.end_ns = 1500;
  launch.correlation = 5;
  ApiEvent unknown = launch;
  unknown.name = "cudaMemcpyAsync";
  unknown.tid = 4243;  // a thread that never recorded an op keeps CUPTI's id
  const std::string path = "cupti_writer_tid_" + std::to_string(getpid()) + ".json";
  trace::KinetoJsonWriter w;
  std::string error;
  REQUIRE(w.open(path, &error));
  w.beginTrace({});
  GpuEventWriter events;
  events.writeApi(launch, w);
  events.writeApi(unknown, w);
  REQUIRE(w.endTrace({}, &error));
  trace::TraceModel m;
  REQUIRE(trace::importTraceFile(path, m).ok());
  std::remove(path.c_str());
  const trace::Event* known = find(m, "cudaLaunchKernel");
  const trace::Event* other = find(m, "cudaMemcpyAsync");
  REQUIRE(known);
  REQUIRE(other);
  CHECK(m.tracks[known->track].tid == static_cast<int64_t>(syscall(SYS_gettid)));
  CHECK(m.tracks[other->track].tid == 4243);
}
