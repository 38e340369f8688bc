// CuptiActivitySource on a machine without a driver: start() refuses with a CUPTI code, every
// other call is harmless; the buffer pool, its cap and the drain path work without CUPTI.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <regex>
#include <sstream>

#include "cupti/cupti_activity_source.h"
#include "cupti/cupti_errors.h"
#include "cupti_test_buffers.h"
#include "sources.h"
#include "steplint/trace/kineto_writer.h"

using namespace steplint;
using namespace steplint::collector;

namespace {

bool haveDriver() {
  std::ifstream maps("/proc/driver/nvidia/version");
  return maps.good();
}

/// Hands `source` one completed buffer holding test::fillStepBuffer's records, as CUPTI would.
void queueStepBuffer(CuptiActivitySource& source) {
  ActivityConfig config;
  config.buffer_bytes = 64 * 1024;
  source.configureBuffers(config);
  uint8_t* buffer = nullptr;
  size_t size = 0;
  source.requestBuffer(&buffer, &size);
  REQUIRE(buffer != nullptr);
  test::ActivityBuffer records;
  test::fillStepBuffer(records);
  REQUIRE(records.size() <= size);
  std::memcpy(buffer, records.data(), records.size());
  source.completeBuffer(buffer, size, records.size());
}

/// drain() into a fresh trace file; returns the file's text and the events written.
std::string drainToJson(CuptiActivitySource& source, uint64_t* events_written) {
  const std::string path = "cupti_source_test_" + std::to_string(getpid()) + ".json";
  trace::KinetoJsonWriter w;
  std::string error;
  REQUIRE(w.open(path, &error));
  w.beginTrace(trace::TraceHeader{});
  source.drain(w);
  *events_written = w.eventsWritten();
  REQUIRE(w.endTrace({}, &error));
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  std::remove(path.c_str());
  return ss.str();
}

}  // namespace

TEST_CASE("without a driver start() fails with a CUPTI code and later calls are harmless",
          "[cupti][source]") {
  if (haveDriver()) {
    WARN("an NVIDIA driver is present: the no-driver path is not exercised here");
    return;
  }
  std::unique_ptr<ActivitySource> source = makeCuptiSource();
  REQUIRE(source);
  std::string why;
  CHECK_FALSE(source->start(ActivityConfig{}, &why));
  INFO(why);
  CHECK(std::regex_search(why, std::regex("CUPTI_ERROR_[A-Z_]+ \\([0-9]+\\)")));
  CHECK(why.find("recording CPU-side only") != std::string::npos);
  source->flush(true);
  source->flush(false);
  source->pushExternalId(5);
  source->popExternalId();
  source->setCollecting(false);  // the schedule's pause and resume: no-ops on a failed source
  source->setCollecting(true);
  trace::KinetoJsonWriter w;  // never opened: drain must not write anything
  source->drain(w);
  CHECK(w.eventsWritten() == 0);
  source->stop();
  source->stop();
  CHECK(source->droppedRecords() == 0);
  trace::TraceHeader header;
  source->describe(header);
  CHECK(header.devices.empty());
  bool has_version = false;
  for (const auto& kv : header.metadata)
    has_version |= kv.first == "cupti_version" && kv.second == "130001";
  CHECK(has_version);
  // A second start attempt gives the same answer (no state left behind).
  std::string again;
  CHECK_FALSE(source->start(ActivityConfig{}, &again));
  CHECK(again == why);
  // A failed start leaves CUPTI's callbacks to nobody: another source can try while this lives.
  CuptiActivitySource other;
  std::string other_why;
  CHECK_FALSE(other.start(ActivityConfig{}, &other_why));
  CHECK(other_why == why);
}

TEST_CASE("buffers past the cap are refused and counted as dropped", "[cupti][source]") {
  CuptiActivitySource source;
  ActivityConfig config;
  config.buffer_bytes = 4u << 20;
  config.max_buffer_bytes = 10u << 20;  // room for two 4 MiB buffers
  source.configureBuffers(config);
  uint8_t* a = nullptr;
  uint8_t* b = nullptr;
  uint8_t* c = nullptr;
  size_t sa = 0, sb = 0, sc = 1;
  source.requestBuffer(&a, &sa);
  source.requestBuffer(&b, &sb);
  source.requestBuffer(&c, &sc);
  REQUIRE(a != nullptr);
  REQUIRE(b != nullptr);
  CHECK(reinterpret_cast<uintptr_t>(a) % 8 == 0);
  CHECK(sa == (4u << 20));
  CHECK(c == nullptr);
  CHECK(sc == 0);
  CHECK(source.bufferCapHits() == 1);
  CHECK(source.outstandingBytes() == (8u << 20));
  CHECK(source.droppedRecords() == 1);
  source.completeBuffer(a, sa, 0, 3);  // CUPTI reported 3 dropped records with this buffer
  source.completeBuffer(b, sb, 0);
  CHECK(source.droppedRecords() == 4);
  trace::KinetoJsonWriter w;
  source.drain(w);
  CHECK(source.outstandingBytes() == 0);
  source.requestBuffer(&c, &sc);  // room again after drain freed them
  REQUIRE(c != nullptr);
  source.completeBuffer(c, sc, 0);  // freed by the destructor
}

TEST_CASE("completed buffers are parsed on drain and written as Kineto events", "[cupti][source]") {
  CuptiActivitySource source;
  queueStepBuffer(source);
  uint64_t events = 0;
  const std::string json = drainToJson(source, &events);
  CHECK(events > 11);
  CHECK(json.find("\"cat\": \"kernel\", \"name\": \"gemm_kernel\", \"pid\": 0, \"tid\": 7") !=
        std::string::npos);
  CHECK(
      json.find(
          "\"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": 4242, \"tid\": 4243") !=
      std::string::npos);
  CHECK(json.find("\"cat\": \"gpu_memcpy\", \"name\": \"Memcpy HtoD (Pageable -> Device)\"") !=
        std::string::npos);
  CHECK(json.find("\"cat\": \"overhead\", \"name\": \"Buffer Flush\", \"pid\": -1") !=
        std::string::npos);
  CHECK(source.recordCounters().records == 14);
  CHECK(source.outstandingBytes() == 0);
}

TEST_CASE("with a time filter only records starting inside the captured windows are written",
          "[cupti][source]") {
  CuptiActivitySource source;
  source.setTimeFilter([](int64_t start_ns) { return start_ns >= 1000 && start_ns < 4500; });
  queueStepBuffer(source);
  uint64_t events = 0;
  const std::string json = drainToJson(source, &events);
  // Inside [1000, 4500): the launch (1000), the memcpy call (1600), the kernel (2000), the
  // pageable copy (4000). Outside: the sync call (5000), cuLaunchKernel (9100), the pinned and
  // device-to-host copies, the memset, the sync record and the overhead record.
  CHECK(json.find("\"name\": \"cudaLaunchKernel\"") != std::string::npos);
  CHECK(json.find("\"name\": \"gemm_kernel\"") != std::string::npos);
  CHECK(json.find("Memcpy HtoD (Pageable -> Device)") != std::string::npos);
  CHECK(json.find("Pinned -> Device") == std::string::npos);
  CHECK(json.find("Memset") == std::string::npos);
  CHECK(json.find("Stream Sync") == std::string::npos);
  CHECK(json.find("cudaStreamSynchronize") == std::string::npos);
  CHECK(json.find("cuLaunchKernel") == std::string::npos);
  CHECK(json.find("Buffer Flush") == std::string::npos);
}

TEST_CASE("failure texts name the code, the number and the cause", "[cupti][errors]") {
  CHECK(startFailureText(CUPTI_ERROR_UNKNOWN) ==
        "CUPTI_ERROR_UNKNOWN (999): no usable NVIDIA driver or GPU; recording CPU-side only");
  const std::string busy = startFailureText(CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED);
  CHECK(busy.rfind("CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED (39): another profiler", 0) ==
        0);
  CHECK(busy.find("torch.profiler/Kineto, Nsight Systems or Nsight Compute") != std::string::npos);
  CHECK(startFailureText(CUPTI_ERROR_INSUFFICIENT_PRIVILEGES).find("(35): no permission") !=
        std::string::npos);
  CHECK(isFatalStartCode(CUPTI_ERROR_NOT_COMPATIBLE));
  CHECK_FALSE(isFatalStartCode(CUPTI_ERROR_NOT_SUPPORTED));

  bool fatal = true;
  CHECK(checkCuptiVersion(130001, 130001, &fatal).empty());
  CHECK_FALSE(fatal);
  const std::string old = checkCuptiVersion(26, 130001, &fatal);
  CHECK(fatal);
  CHECK(old.find("26") != std::string::npos);
  CHECK(old.find("130001") != std::string::npos);
  CHECK_FALSE(checkCuptiVersion(130000, 130001, &fatal).empty());
  CHECK_FALSE(fatal);  // same major: same record layouts
}

TEST_CASE("SL_CUPTI_CALL returns the code and logs a call site once", "[cupti][errors]") {
  int calls = 0;
  auto fail = [&] {
    ++calls;
    return CUPTI_ERROR_INVALID_PARAMETER;
  };
  for (int i = 0; i < 3; ++i) CHECK(SL_CUPTI_CALL(fail()) == CUPTI_ERROR_INVALID_PARAMETER);
  CHECK(calls == 3);
  std::atomic<bool> logged{false};
  CHECK(checkCupti(CUPTI_SUCCESS, "ok()", &logged) == CUPTI_SUCCESS);
  CHECK_FALSE(logged.load());
  checkCupti(CUPTI_ERROR_UNKNOWN, "x()", &logged);
  CHECK(logged.load());
}

TEST_CASE("drained buffers and faulted-in spares serve CUPTI's next requests", "[cupti][source]") {
  CuptiActivitySource source;
  ActivityConfig config;
  config.buffer_bytes = 1u << 20;
  source.configureBuffers(config);
  uint8_t* a = nullptr;
  size_t sa = 0;
  source.requestBuffer(&a, &sa);
  REQUIRE(a != nullptr);
  source.completeBuffer(a, sa, 0);
  trace::KinetoJsonWriter w;
  source.drain(w);
  CHECK(source.outstandingBytes() == 0);
  CHECK(source.spareBuffers() == 1);
  uint8_t* again = nullptr;
  size_t size = 0;
  source.requestBuffer(&again, &size);
  CHECK(again == a);  // the same memory, its pages already mapped
  CHECK(size == sa);
  CHECK(source.spareBuffers() == 0);
  CHECK(source.outstandingBytes() == sa);

  source.prepareSpareBuffers();
  CHECK(source.spareBuffers() == CuptiActivitySource::kSpareBuffers);
  uint8_t* b = nullptr;
  source.requestBuffer(&b, &size);
  REQUIRE(b != nullptr);
  CHECK(b != a);
  CHECK(source.spareBuffers() == CuptiActivitySource::kSpareBuffers - 1);
  // More drained buffers than kMaxSpareBuffers: the rest are freed, not hoarded.
  std::vector<uint8_t*> many;
  for (size_t i = 0; i < CuptiActivitySource::kMaxSpareBuffers + 2; ++i) {
    uint8_t* p = nullptr;
    source.requestBuffer(&p, &size);
    REQUIRE(p != nullptr);
    many.push_back(p);
  }
  for (uint8_t* p : many) source.completeBuffer(p, size, 0);
  source.completeBuffer(again, sa, 0);
  source.completeBuffer(b, size, 0);
  source.drain(w);
  CHECK(source.spareBuffers() == CuptiActivitySource::kMaxSpareBuffers);
  CHECK(source.outstandingBytes() == 0);
}
