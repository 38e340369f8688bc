// Peak device memory (collector/src/memory_probe.h): the tracker's arithmetic, and samples
// written as Kineto [memory] events at step boundaries or, without steps, by the writer.
#include <catch2/catch.hpp>

#include <chrono>
#include <thread>

#include "collector_test_util.h"
#include "config.h"
#include "memory_probe.h"
#include "recorder.h"
#include "session.h"
#include "steplint/collector.h"

namespace sc = steplint::collector;
using steplint::test::ScratchDir;

namespace {

constexpr int64_t kMiB = 1 << 20;

/// Stands in for the CUDA allocator probe: the test drives the tracker directly.
class FakeProbe final : public sc::MemoryProbe {
 public:
  explicit FakeProbe(sc::PeakTracker* tracker) : tracker_(tracker) {}
  void takePeaks(std::vector<sc::MemorySample>& out) noexcept override {
    tracker_->take(out, sc::nowNs());
  }
  const char* status() const noexcept override { return "recording (fake)"; }

 private:
  sc::PeakTracker* tracker_;
};

struct ProbeInstalled {
  explicit ProbeInstalled(sc::PeakTracker* t) {
    sc::setMemoryProbeFactoryForTesting([t] { return std::make_unique<FakeProbe>(t); });
  }
  ~ProbeInstalled() { sc::setMemoryProbeFactoryForTesting(nullptr); }
};

std::vector<steplint::trace::MemoryEvent> memoryEventsOf(const std::string& path) {
  steplint::trace::TraceModel m;
  REQUIRE(steplint::test::importFile(path, m).ok());
  return m.memory_events;
}

}  // namespace

TEST_CASE("memory probe: peaks since the last sample, restarting from the current total") {
  sc::PeakTracker t;
  t.seed(0, 100, 1000);
  t.onAllocated(0, 50, 5);  // 150: the peak
  t.onFreed(0, 120);        // 30
  t.onAllocated(0, 10, 7);  // 40
  t.onReserved(0, 500);     // 1500
  t.onReserved(0, -1000);   // 500
  std::vector<sc::MemorySample> out;
  t.take(out, 9);
  REQUIRE(out.size() == 1);
  CHECK(out[0].device == 0);
  CHECK(out[0].peak_allocated == 150);
  CHECK(out[0].ts_ns == 5);
  CHECK(out[0].peak_reserved == 1500);

  out.clear();
  t.take(out, 20);  // nothing happened: the peak is what was held all along, since the last take
  REQUIRE(out.size() == 1);
  CHECK(out[0].peak_allocated == 40);
  CHECK(out[0].peak_reserved == 500);
  CHECK(out[0].ts_ns == 9);

  t.onAllocated(sc::PeakTracker::kMaxDevices, 1, 1);  // out of range: ignored, no crash
  t.onAllocated(-1, 1, 1);
  out.clear();
  t.take(out, 30);
  CHECK(out.size() == 1);
}

TEST_CASE("memory probe: one [memory] sample per step with that step's peak") {
  ScratchDir dir;
  sc::PeakTracker tracker;
  tracker.seed(0, 0, 0);
  ProbeInstalled installed(&tracker);
  sc::CollectorConfig config;
  config.output_path = dir.file("memory.pt.trace.json");
  config.flush_interval_ms = 20;
  REQUIRE(sc::startSession(config) == sc::StartResult::kStarted);
  for (int64_t n = 0; n < 3; ++n) {
    steplint::StepScope step{n};
    tracker.onAllocated(0, (n + 1) * kMiB, sc::nowNs());  // step n peaks at (n+1) MiB
    tracker.onFreed(0, (n + 1) * kMiB);
  }
  REQUIRE(sc::stopSession());

  auto events = memoryEventsOf(config.output_path);
  std::vector<int64_t> peaks;
  for (const auto& e : events) {
    CHECK(e.device_type == 1);
    CHECK(e.device_id == 0);
    CHECK(e.bytes == 0);
    peaks.push_back(e.total_allocated);
  }
  // Step 0's begin samples the time before it (0), each later begin the step before, stop the last.
  CHECK(peaks == std::vector<int64_t>{0, kMiB, 2 * kMiB, 3 * kMiB});
}

TEST_CASE("memory probe: without step markers the writer samples every flush interval") {
  ScratchDir dir;
  sc::PeakTracker tracker;
  tracker.seed(1, 0, 8 * kMiB);
  ProbeInstalled installed(&tracker);
  sc::CollectorConfig config;
  config.output_path = dir.file("memory_nosteps.pt.trace.json");
  config.flush_interval_ms = 10;
  REQUIRE(sc::startSession(config) == sc::StartResult::kStarted);
  tracker.onAllocated(1, 5 * kMiB, sc::nowNs());
  tracker.onFreed(1, 5 * kMiB);
  std::this_thread::sleep_for(std::chrono::milliseconds(60));
  REQUIRE(sc::stopSession());

  auto events = memoryEventsOf(config.output_path);
  REQUIRE(events.size() >= 2);  // at least one interval plus the final sample
  int64_t max_allocated = 0;
  for (const auto& e : events) {
    CHECK(e.device_id == 1);
    CHECK(e.total_reserved == 8 * kMiB);
    max_allocated = std::max(max_allocated, e.total_allocated);
  }
  CHECK(max_allocated == 5 * kMiB);
}
