// Small hand-built traces for the timeline tests: tracks of events given as
// (start, duration, name, kind, depth), appended in the model's sorted layout.
#pragma once

#include <algorithm>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "steplint/gui/loaded_trace.h"

namespace steplint::test {

struct EventSpec {
  int64_t start_ns;
  int64_t dur_ns;
  std::string name;
  trace::EventKind kind = trace::EventKind::kCpuOp;
  uint16_t depth = 0;
};

/// Appends a track with `specs` (any order) to `model`; returns the track index.
inline uint32_t addTrack(trace::TraceModel& model, trace::TrackKind kind, int64_t pid, int64_t tid,
                         std::vector<EventSpec> specs, const std::string& thread_name = "") {
  std::sort(specs.begin(), specs.end(), [](const EventSpec& a, const EventSpec& b) {
    return std::make_tuple(a.start_ns, -a.dur_ns) < std::make_tuple(b.start_ns, -b.dur_ns);
  });
  trace::Track t;
  t.kind = kind;
  t.pid = pid;
  t.tid = tid;
  t.sort_index = tid;
  t.thread_name = thread_name.empty() ? 0 : model.strings.intern(thread_name);
  t.first_event = static_cast<uint32_t>(model.events.size());
  t.event_count = static_cast<uint32_t>(specs.size());
  const auto track = static_cast<uint32_t>(model.tracks.size());
  for (const EventSpec& s : specs) {
    trace::Event e;
    e.start_ns = s.start_ns;
    e.dur_ns = s.dur_ns;
    e.name = model.strings.intern(s.name);
    e.kind = s.kind;
    e.depth = s.depth;
    e.track = track;
    t.max_depth = std::max(t.max_depth, s.depth);
    model.events.push_back(e);
  }
  model.tracks.push_back(t);
  return track;
}

/// `count` events of `dur_ns` every `period_ns` from `start_ns`, at `depth`.
inline std::vector<EventSpec> regularEvents(int64_t start_ns, int64_t period_ns, int64_t dur_ns,
                                            int count, const std::string& name, uint16_t depth = 0,
                                            trace::EventKind kind = trace::EventKind::kCpuOp) {
  std::vector<EventSpec> out;
  out.reserve(static_cast<size_t>(count));
  for (int i = 0; i < count; ++i)
    out.push_back({start_ns + i * period_ns, dur_ns, name, kind, depth});
  return out;
}

inline uint32_t firstNamed(const trace::TraceModel& m, const std::string& name) {
  for (uint32_t i = 0; i < m.events.size(); ++i) {
    if (m.name(m.events[i]) == name) return i;
  }
  return trace::kNoIndex;
}

/// A trace with one CPU process (two threads, nested ops), two GPUs (device 0 with two
/// streams, device 1 with one), three steps and GPU memory samples.
inline std::shared_ptr<gui::LoadedTrace> smallTrace() {
  using trace::EventKind;
  using trace::TrackKind;
  auto t = std::make_shared<gui::LoadedTrace>();
  trace::TraceModel& m = t->model;
  std::vector<EventSpec> main_thread;
  for (int s = 0; s < 3; ++s) {
    const int64_t base = s * 10'000'000;
    main_thread.push_back(
        {base, 9'000'000, "ProfilerStep#" + std::to_string(s), EventKind::kUserAnnotation, 0});
    main_thread.push_back({base + 100'000, 4'000'000, "aten::conv2d", EventKind::kCpuOp, 1});
    main_thread.push_back({base + 200'000, 50'000, "cudaLaunchKernel", EventKind::kRuntime, 2});
    main_thread.push_back({base + 5'000'000, 3'000'000, "aten::linear", EventKind::kCpuOp, 1});
  }
  addTrack(m, TrackKind::kCpuThread, 100, 2,
           regularEvents(0, 1'000'000, 500'000, 30, "autograd::engine"), "thread 2 (autograd)");
  addTrack(m, TrackKind::kCpuThread, 100, 1, main_thread, "thread 1 (python)");
  addTrack(m, TrackKind::kGpuStream, 0, 7,
           regularEvents(300'000, 100'000, 80'000, 290, "volta_sgemm", 0, EventKind::kKernel));
  addTrack(m, TrackKind::kGpuStream, 0, 20,
           {{1'000'000, 2'000'000, "Memcpy HtoD (Pageable -> Device)", EventKind::kMemcpy, 0}});
  addTrack(m, TrackKind::kGpuStream, 1, 7,
           regularEvents(0, 2'000'000, 1'000'000, 15, "nccl:all_reduce", 0, EventKind::kKernel));
  addTrack(m, TrackKind::kCpuThread, 100, 3, {});  // a thread without events: no row
  // The first sgemm was launched by the first cudaLaunchKernel, inside the first conv2d.
  const uint32_t conv = firstNamed(m, "aten::conv2d");
  const uint32_t launch = firstNamed(m, "cudaLaunchKernel");
  m.events[launch].link = conv;
  m.events[firstNamed(m, "volta_sgemm")].link = launch;
  for (int s = 0; s < 3; ++s) {
    analyzer::Step step;
    step.number = s;
    step.start_ns = step.host_start_ns = s * 10'000'000;
    step.end_ns = step.host_end_ns = s * 10'000'000 + 9'500'000;
    t->summary.steps.steps.push_back(step);
  }
  for (int i = 0; i < 10; ++i) {
    trace::MemoryEvent me;
    me.ts_ns = i * 3'000'000;
    me.total_allocated = (i % 4) * 1'000'000;
    me.device_type = 1;
    me.device_id = 0;
    m.memory_events.push_back(me);
  }
  return t;
}

}  // namespace steplint::test
