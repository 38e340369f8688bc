// The collector's core, shared by every source (RecordFunction hooks, CUPTI, NVTX, the public
// API). Implemented in recorder.cpp / thread_buffers.cpp / trace_sink.cpp.
//
// Threads: any trainer thread calls recordHostEvent() (lock-free: a per-thread chunk list,
// single producer, drained by the writer thread); the writer thread wakes every flush
// interval, drains host buffers and device sources into the KinetoJsonWriter, and flushes the
// file. Nothing here throws across its API (docs/reference/style.md §2.9).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace steplint::trace {
class KinetoJsonWriter;
struct TraceHeader;
}  // namespace steplint::trace

namespace steplint::collector {

/// The trace clock: CLOCK_MONOTONIC in ns. CUPTI is told to use it too
/// (cuptiActivityRegisterTimestampCallback), so host and device times share one axis.
int64_t nowNs() noexcept;

enum class HostKind : uint8_t {
  kCpuOp,           // cat "cpu_op": ATen ops and autograd nodes
  kUserAnnotation,  // cat "user_annotation": ProfilerStep#N, DataLoader, user ranges, NVTX
  kInstant,         // ph "i" (end_ns ignored)
};

enum HostFlag : uint8_t {
  kFlagBackward = 1,    // RecordScope::BACKWARD_FUNCTION
  kFlagHostSync = 2,    // aten::item / _local_scalar_dense / copy to CPU: waits for the device
  kFlagStep = 4,        // a ProfilerStep#N range (from the step marker)
  kFlagDataLoader = 8,  // the trainer thread waiting for its next batch
};

/// One finished host event. name/args are copied; they may point to temporaries.
struct HostEvent {
  std::string_view name;
  /// Extra args as a JSON object *body* without braces, already valid JSON, e.g.
  /// `"Input Dims": [[8, 16]], "Input type": ["float"]`. Empty for none.
  std::string_view args_json;
  int64_t start_ns = 0;
  int64_t end_ns = 0;
  uint64_t external_id = 0;  // 0 = none; else written as "External id"
  int64_t seq_nr = -1;       // "Sequence number" when >= 0
  int64_t fwd_thread = -1;   // "Fwd thread id" when >= 0
  HostKind kind = HostKind::kCpuOp;
  uint8_t flags = 0;  // HostFlag bits
};

/// Appends one finished event to the calling thread's buffer (no lock on this path). When the
/// memory cap is reached the event is dropped and counted; the trace says how many.
void recordHostEvent(const HostEvent& event) noexcept;

/// False when no session runs or the schedule is outside its active window. Sources check it
/// before doing work, so a paused collector costs one relaxed load.
bool isCapturing() noexcept;

/// Process-unique id for an op or annotation: "External id" in the trace, and the value pushed
/// to CUPTI as external correlation so kernels find their op.
uint64_t nextExternalId() noexcept;

/// Step marker: called at the start of step n (n >= 0) by StepScope / steplint_step_begin.
/// Advances the schedule and asks device sources to flush their buffers.
void onStepBegin(int64_t step) noexcept;
void onStepEnd() noexcept;
/// A training iteration found live (iteration_counter.h) in a trainer without step markers:
/// advances the schedule and takes the memory sample as a step marker would. Without a schedule
/// it writes no ProfilerStep range (the analyzer finds the steps itself); under one, each
/// captured iteration becomes ProfilerStep#k. Ignored once this session has seen a step marker.
void onIterationDetected() noexcept;

/// True once the atexit handler runs, that is inside exit(): the static objects a library built
/// after the session started (torch's CUDA hooks, created on first use) are destroyed before our
/// handler runs, so from then on nothing may call into torch (the Python GPU run segfaulted at
/// exit in at::hasCUDA(); docs/collector.md, "Failure behaviour").
bool processExiting() noexcept;

/// Adds or replaces a top-level trace metadata key; raw_json must be valid JSON text.
void setMetadata(std::string_view key, std::string_view raw_json) noexcept;

/// Reports a source's state once ("cupti": "unavailable: CUPTI_ERROR_UNKNOWN (999)"); written
/// into the trace's "steplint_sources" object and, the first time, to stderr with the prefix
/// "steplint: ".
void reportSourceStatus(std::string_view source, std::string_view status) noexcept;

/// The logical thread id written as "tid" for the calling thread (the OS tid, as Kineto does).
int64_t currentThreadId() noexcept;

}  // namespace steplint::collector
