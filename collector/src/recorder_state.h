// Process-wide state of the recorder, shared by recorder.cpp (the session lifecycle and writer
// thread) and recorder_steps.cpp (step boundaries and metadata, on trainer threads). One leaked
// object, so atexit handlers, signal paths and forked children never see destroyed statics.
#pragma once

#include <atomic>
#include <cstdint>
#include <limits>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "activity_source.h"
#include "memory_probe.h"
#include "schedule.h"
#include "sources.h"
#include "trace_sink.h"

namespace steplint::collector {

class Session;  // recorder.cpp

struct Globals {
  std::mutex lifecycle;  // serialises start/stop; guards session
  Session* session = nullptr;
  std::atomic<bool> live{false};
  std::atomic<bool> capturing{false};  // live and inside an active schedule window
  std::atomic<bool> exiting{false};    // markProcessExiting(): inside exit()
  std::atomic<ActivitySource*> activity{nullptr};
  std::atomic<uint64_t> next_external_id{0};

  std::mutex meta;             // guards the fields below
  RawJsonPairs metadata;       // every setMetadata() so far (header of each session)
  RawJsonPairs late_metadata;  // set after this session's header: trailer
  bool header_written = false;
  RawJsonPairs statuses;  // source -> raw JSON string
  std::vector<std::string> printed_sources;

  std::mutex schedule_mutex;  // guards schedule, windows and device_tracing
  Schedule schedule;
  bool device_tracing = true;  // what the CUPTI source was last told (setCollecting)
  std::vector<std::pair<int64_t, int64_t>> windows;  // captured [start, end); end = max while open
  int64_t step_start_ns = -1;  // when the current step (marked or counted live) began

  // Sources of stopped sessions stay alive until the next start: a trainer thread may still
  // hold the pointer it loaded from activeActivitySource() just before stop.
  std::vector<std::unique_ptr<HostSource>> retired_host;
  std::unique_ptr<ActivitySource> retired_activity;
  std::unique_ptr<MemoryProbe> retired_memory;

  // In a forked child: the parent's state this object replaced, leaked, and kept reachable so
  // that leak checkers do not count it (installFreshGlobals).
  Globals* parent_copy = nullptr;

  // Peak device memory (memory_probe.h): sampled at step boundaries on the trainer thread,
  // written by the writer thread; without step markers the writer samples every interval.
  std::atomic<MemoryProbe*> memory{nullptr};
  std::atomic<bool> memory_by_step{false};
  std::atomic<bool> marked_steps{false};  // a step marker was seen: live iterations are ignored
  std::mutex memory_mutex;  // guards pending_memory, pending_host_memory, memory_factory
  std::vector<std::pair<MemorySample, int64_t>> pending_memory;  // sample, tid
  std::vector<HostMemorySample> pending_host_memory;             // one per captured step boundary
  MemoryProbeFactory memory_factory;                             // tests only
};

Globals& recorderGlobals();
/// In a forked child only, on its one thread (recorder_fork.cpp): fresh globals for every later
/// call; the old ones are leaked. Throws std::bad_alloc.
void installFreshGlobals();
/// In a forked child only: the calling thread's cached tid is the parent thread's.
void forgetCurrentThreadId() noexcept;

/// Adds or replaces `key` in pairs.
void putPair(RawJsonPairs& pairs, std::string_view key, std::string_view value);

/// The end of a capture window that is still open.
constexpr int64_t kOpenWindow = std::numeric_limits<int64_t>::max();

/// True when ns lies in a window in which the schedule captured (the CUPTI source's filter).
bool capturedAt(int64_t ns);

/// Device tracing follows torch.profiler: on from warmup (CUPTI's start-up cost lands there)
/// through active, off in wait and done steps.
bool wantDeviceTracing(const Schedule& schedule);

/// Opens or closes the capture window after the schedule or `live` changed; schedule_mutex held.
void updateCaptureLocked(Globals& s, int64_t now);

}  // namespace steplint::collector
