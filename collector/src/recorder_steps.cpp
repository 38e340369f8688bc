// The recorder's trainer-thread side (recorder.h): step boundaries, which advance the schedule
// and take the memory samples, and metadata. The session lifecycle is in recorder.cpp.
#include <algorithm>
#include <cstdio>
#include <mutex>

#include "process_info.h"
#include "recorder.h"
#include "recorder_state.h"

namespace steplint::collector {

namespace {

/// The process's resident memory at a captured step boundary, queued for the writer: the host
/// side of "memory grows every step" (SL404), which includes LibTorch's DataLoader worker threads.
void sampleHostMemoryAtStep(Globals& s) noexcept {
  if (!s.capturing.load(std::memory_order_relaxed)) return;
  const int64_t rss = residentBytes();
  if (rss < 0) return;
  try {
    const HostMemorySample sample{nowNs(), rss, currentThreadId()};
    std::lock_guard<std::mutex> lock(s.memory_mutex);
    s.pending_host_memory.push_back(sample);
  } catch (...) {
  }
}

/// The previous step's peak device memory, queued for the writer (memory_probe.h).
void sampleMemoryAtStep(Globals& s) noexcept {
  MemoryProbe* probe = s.memory.load(std::memory_order_acquire);
  if (probe == nullptr) return;
  try {
    std::vector<MemorySample> samples;
    probe->takePeaks(samples);  // also when not capturing: the next window starts afresh
    s.memory_by_step.store(true, std::memory_order_relaxed);
    const int64_t tid = currentThreadId();
    std::lock_guard<std::mutex> lock(s.memory_mutex);
    for (const MemorySample& m : samples) s.pending_memory.emplace_back(m, tid);
  } catch (...) {
  }
}

}  // namespace

void setMemoryProbeFactoryForTesting(MemoryProbeFactory factory) {
  Globals& s = recorderGlobals();
  std::lock_guard<std::mutex> lock(s.memory_mutex);
  s.memory_factory = std::move(factory);
}

namespace {

void stepBoundary(Globals& s) noexcept {
  const int64_t now = nowNs();
  bool toggle = false, device_tracing = false;
  {
    std::lock_guard<std::mutex> lock(s.schedule_mutex);
    s.step_start_ns = now;
    s.schedule.onStepBegin();
    updateCaptureLocked(s, now);
    device_tracing = wantDeviceTracing(s.schedule);
    toggle = device_tracing != s.device_tracing;
    s.device_tracing = device_tracing;
  }
  // Outside the lock: CUPTI calls take milliseconds at worst and happen only at phase changes.
  if (toggle) {
    if (ActivitySource* a = s.activity.load(std::memory_order_acquire))
      a->setCollecting(device_tracing);
  }
  sampleMemoryAtStep(s);
  sampleHostMemoryAtStep(s);
  refreshTorchSettingsAtStep(now);
  // No CUPTI flush here: each flush hands back a partly filled 4 MiB buffer, so flushing every
  // step of a fast loop exhausted the buffer cap within a second on an H100 and CUPTI then
  // dropped every later record (measured: 30,600 records lost in 30 steps). The writer thread
  // flushes once per interval and at stop.
}

}  // namespace

void onStepBegin(int64_t /*step*/) noexcept {
  Globals& s = recorderGlobals();
  if (!s.live.load(std::memory_order_relaxed)) return;
  s.marked_steps.store(true, std::memory_order_relaxed);
  stepBoundary(s);
}

/// Under a schedule, a captured iteration counted live (no step marker) is written as
/// ProfilerStep#k, k as the schedule counts, from the boundary that began it to this one, as
/// torch.profiler writes one per prof.step(). Without it the analyzer had to find the steps of
/// a short window itself, and the window's last iteration, whose end (the next optimizer op)
/// lies outside the window, was lost: `--schedule 1,1,2,1` gave no step at all.
void writeCountedStep(Globals& s, int64_t now) noexcept {
  int64_t start = -1, step = 0;
  {
    std::lock_guard<std::mutex> lock(s.schedule_mutex);
    if (!s.schedule.scheduled() || !s.schedule.capturing()) return;
    start = s.step_start_ns;
    step = s.schedule.stepsSeen() - 1;
  }
  if (start < 0) return;
  try {
    const std::string name = "ProfilerStep#" + std::to_string(step);
    HostEvent e;
    e.name = name;
    e.start_ns = start;
    e.end_ns = now;
    e.external_id = nextExternalId();
    e.kind = HostKind::kUserAnnotation;
    e.flags = kFlagStep;
    recordHostEvent(e);
  } catch (...) {
  }
}

void onIterationDetected() noexcept {
  Globals& s = recorderGlobals();
  if (!s.live.load(std::memory_order_relaxed) || s.marked_steps.load(std::memory_order_relaxed))
    return;
  writeCountedStep(s, nowNs());
  stepBoundary(s);
}

void onStepEnd() noexcept {}

void setMetadata(std::string_view key, std::string_view raw_json) noexcept {
  try {
    Globals& s = recorderGlobals();
    std::lock_guard<std::mutex> lock(s.meta);
    putPair(s.metadata, key, raw_json);
    if (s.header_written) putPair(s.late_metadata, key, raw_json);
  } catch (...) {
  }
}

void reportSourceStatus(std::string_view source, std::string_view status) noexcept {
  try {
    Globals& s = recorderGlobals();
    std::lock_guard<std::mutex> lock(s.meta);
    putPair(s.statuses, source, jsonString(status));
    const bool quiet = status.substr(0, 9) == "recording" || status == "not built" ||
                       status.substr(0, 8) == "disabled";
    auto& printed = s.printed_sources;
    if (!quiet && std::find(printed.begin(), printed.end(), source) == printed.end()) {
      printed.emplace_back(source);
      std::fprintf(stderr, "steplint: %.*s: %.*s\n", static_cast<int>(source.size()), source.data(),
                   static_cast<int>(status.size()), status.data());
    }
  } catch (...) {
  }
}

}  // namespace steplint::collector
