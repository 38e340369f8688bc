// The compact in-memory trace model shared by importers, analyses, rules and the GUI.
//
// Design (docs/ARCHITECTURE.md): one flat vector of fixed-size Event records sorted by
// (track, start, longer-first), per-track index ranges into it, interned strings, and
// side tables for the few kinds that carry extra fields. No per-event heap objects, so
// millions of events cost ~64 bytes each. Times are int64 nanoseconds in the trace's own
// clock (the raw `ts` as read; add TraceMetadata::base_time_ns for unix time).
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "steplint/trace/import_stats.h"
#include "steplint/trace/string_table.h"

namespace steplint::trace {

inline constexpr uint32_t kNoIndex = std::numeric_limits<uint32_t>::max();
inline constexpr int64_t kNoId = -1;

/// What an event is, from its Kineto category (both legacy and current spellings).
enum class EventKind : uint8_t {
  kCpuOp,              // cpu_op / Operator
  kUserAnnotation,     // user_annotation (ProfilerStep#N, DataLoader, optimizer, nccl:* ...)
  kGpuUserAnnotation,  // gpu_user_annotation (GPU-side span of a user annotation)
  kPythonFunction,     // python_function / Python
  kRuntime,            // cuda_runtime / Runtime (and other *_runtime back-ends)
  kDriver,             // cuda_driver (cuLaunchKernel from Triton)
  kKernel,             // kernel / Kernel
  kMemcpy,             // gpu_memcpy / Memcpy
  kMemset,             // gpu_memset / Memset
  kCudaSync,           // cuda_sync: duration = host blocking time
  kCudaEvent,          // cuda_event
  kOverhead,           // CUPTI overhead records
  kSpan,               // cat "Trace": the profiler window
  kOther,              // anything else: kept, not interpreted
};
inline constexpr int kEventKindCount = static_cast<int>(EventKind::kOther) + 1;
std::string_view eventKindName(EventKind kind);

inline bool isDeviceOp(EventKind k) {
  return k == EventKind::kKernel || k == EventKind::kMemcpy || k == EventKind::kMemset;
}
inline bool isLaunchApi(EventKind k) { return k == EventKind::kRuntime || k == EventKind::kDriver; }
inline bool isCpuRange(EventKind k) {
  return k == EventKind::kCpuOp || k == EventKind::kUserAnnotation ||
         k == EventKind::kPythonFunction;
}

/// A complete ('X') event. 64 bytes.
struct Event {
  int64_t start_ns = 0;
  int64_t dur_ns = 0;
  int64_t external_id = kNoId;  // PyTorch "External id" (ops, runtime calls, device ops)
  int64_t correlation = kNoId;  // CUPTI correlation (runtime/driver calls, device ops, syncs)
  StringId name = 0;
  StringId category = 0;       // the raw `cat` as written, for display and unknown kinds
  uint32_t track = 0;          // index into TraceModel::tracks
  uint32_t detail = kNoIndex;  // index into gpu_details (device-side kinds) or op_details
  uint32_t parent = kNoIndex;  // enclosing event on the same track (CPU nesting), after finalize
  uint32_t link = kNoIndex;    // device op -> its launch call; launch call -> its CPU op
  EventKind kind = EventKind::kOther;
  uint8_t flags = 0;   // EventFlag bits
  uint16_t depth = 0;  // nesting depth on its track (saturates at 65535)

  int64_t end_ns() const { return start_ns + dur_ns; }
};
static_assert(sizeof(Event) == 64, "Event must stay compact: the GUI keeps millions");

enum EventFlag : uint8_t {
  kFlagOverlapsSibling = 1u << 0,  // partially overlaps an earlier sibling on its track
};

/// CUPTI memcpy kinds (raw CUPTI numbering, which Kineto names in the event name).
enum class CopyKind : uint8_t {
  kUnknown,
  kHtoD,
  kDtoH,
  kHtoA,
  kAtoH,
  kAtoA,
  kAtoD,
  kDtoA,
  kDtoD,
  kHtoH,
  kPtoP
};
/// CUPTI memory kinds (raw CUPTI numbering: pageable 1, pinned 2; NOT nsys's numbering).
enum class MemoryKind : uint8_t {
  kUnknown,
  kPageable,
  kPinned,
  kDevice,
  kArray,
  kManaged,
  kDeviceStatic,
  kManagedStatic
};
std::string_view copyKindName(CopyKind kind);
std::string_view memoryKindName(MemoryKind kind);

/// Fields of device-side events (kernel, memcpy, memset, cuda_sync, cuda_event, gpu annotation).
struct GpuDetail {
  int32_t device = -1;
  int32_t stream = -1;
  int64_t bytes = -1;           // memcpy/memset
  float blocks_per_sm = -1.0f;  // kernel args["blocks per SM"]
  float warps_per_sm = -1.0f;
  float occupancy_pct = -1.0f;  // kernel args["est. achieved occupancy %"]
  int32_t grid[3] = {0, 0, 0};
  int32_t block[3] = {0, 0, 0};
  int32_t registers_per_thread = -1;
  int32_t shared_memory = -1;
  CopyKind copy_kind = CopyKind::kUnknown;  // memcpy, parsed from the name
  MemoryKind src_kind = MemoryKind::kUnknown;
  MemoryKind dst_kind = MemoryKind::kUnknown;  // memset: the memory kind
};

/// Fields of CPU ops that some analyses need (autograd pairing, shapes).
struct OpDetail {
  int64_t sequence_number = kNoId;
  int64_t fwd_thread_id = kNoId;
  StringId input_dims = 0;   // raw JSON text of "Input Dims", interned (0 = absent)
  StringId input_types = 0;  // raw JSON text of "Input type"
  StringId call_stack = 0;   // legacy "Call stack"
  /// raw JSON text of "Concrete Inputs": scalar argument values as strings ("" for tensors),
  /// e.g. ["", "", "0.01"]; recorded with record_shapes=True by PyTorch 2.x.
  StringId concrete_inputs = 0;
};

/// The args c10d records for one collective call: on the `record_param_comms` CPU op that wraps
/// it, and (torch 2.x) copied onto the NCCL kernel it launches (docs/reference/trace-format.md
/// §7.1, §7.4). A side table keyed by the owner's detail record rather than a field of every
/// OpDetail/GpuDetail: a trace has a few collectives per step and millions of other events.
struct CollectiveDetail {
  uint32_t owner = kNoIndex;  // index into op_details (CPU op) or gpu_details (on_device)
  bool on_device = false;
  int32_t group_size = -1;  // "Group size"
  int64_t seq = kNoId;  // "Seq" / "seq" (torch >= 2.3): the call's number within its process group
  int64_t in_nelems = -1;   // "In msg nelems"
  int64_t out_nelems = -1;  // "Out msg nelems"
  StringId name = 0;        // "Collective name": allreduce, broadcast, allgather, ... (0 = absent)
  StringId group = 0;  // "Process Group Name" ("Process Group ID" in 2024-04 traces): "0", "1", ...
  StringId group_desc = 0;   // "Process Group Description": default_pg, ...
  StringId group_ranks = 0;  // "Process Group Ranks" as written: "[0, 1]"
  StringId dtype = 0;        // "dtype": Float, BFloat16, ...
};

enum class TrackKind : uint8_t { kCpuThread, kGpuStream, kOther };

/// One row of the timeline: a CPU thread, a GPU stream, or a named pseudo-process row.
struct Track {
  TrackKind kind = TrackKind::kOther;
  int64_t pid = 0;            // numeric pid (device index on GPU rows); 0 if textual
  int64_t tid = 0;            // numeric tid (stream id on GPU rows); 0 if textual
  StringId pid_label = 0;     // the pid as written when it was not a number ("Spans")
  StringId tid_label = 0;     // the tid as written when it was not a number
  StringId process_name = 0;  // from 'M' process_name
  StringId thread_name = 0;   // from 'M' thread_name
  int64_t sort_index = 0;
  uint32_t first_event = 0;  // [first_event, first_event + event_count) in TraceModel::events
  uint32_t event_count = 0;
  uint16_t max_depth = 0;
};

/// Allocator instant event ('[memory]').
struct MemoryEvent {
  int64_t ts_ns = 0;
  int64_t bytes = 0;  // > 0 allocation, < 0 free
  int64_t total_allocated = -1;
  int64_t total_reserved = -1;
  uint64_t addr = 0;
  int32_t device_type = 0;  // c10::DeviceType: 0 CPU, 1 CUDA
  int32_t device_id = -1;
  uint32_t track = 0;
};

/// Other instant events ('i'/'I'/'R').
struct InstantEvent {
  int64_t ts_ns = 0;
  StringId name = 0;
  StringId category = 0;
  uint32_t track = 0;
  char scope = 't';  // g / p / t
};

/// One sample of one series of a counter ('C') event.
struct CounterSample {
  int64_t ts_ns = 0;
  StringId name = 0;    // counter name
  StringId series = 0;  // arg key
  double value = 0;
  uint32_t track = 0;
};

/// Flow events ('s'/'t'/'f'): a viewer aid (ac2g, fwdbwd); never used for joins.
struct FlowEvent {
  int64_t ts_ns = 0;
  uint64_t id = 0;
  StringId category = 0;
  StringId name = 0;
  uint32_t track = 0;
  char phase = 's';
  bool binds_enclosing = false;  // "bp":"e"
};

struct DeviceProperties {
  int32_t id = -1;
  std::string name;
  int64_t total_global_mem = -1;
  int32_t compute_major = -1;
  int32_t compute_minor = -1;
  int32_t num_sms = -1;
  int32_t max_threads_per_block = -1;
  int32_t max_threads_per_sm = -1;
  int32_t regs_per_block = -1;
  int32_t regs_per_sm = -1;
  int32_t warp_size = -1;
  int64_t shared_mem_per_block = -1;
  int64_t shared_mem_per_sm = -1;
};

/// The accelerator a trace's device work ran on. Kineto writes the same categories (kernel,
/// gpu_memcpy, cuda_runtime) for CUDA and ROCm and its own ones for other back-ends, so the
/// importer decides from categories, launch-API names and deviceProperties together
/// (detectAccelerator in accelerator.h). Rules that read CUDA-only names or properties say
/// "not checked" on the others instead of deciding.
enum class Accelerator : uint8_t {
  kNone,         // no device work, no launch calls, no deviceProperties: a CPU-only trace
  kCuda,         // NVIDIA (CUPTI): also the default for device work with no other sign
  kRocm,         // AMD ROCm/HIP: hip* calls under cuda_runtime, AMD deviceProperties
  kXpu,          // Intel XPU (PTI): xpu_runtime / xpu_driver / xpu_sync
  kMtia,         // Meta MTIA: mtia_runtime calls, mtia_ccp_events device work
  kHpu,          // Intel Gaudi: hpu_op
  kPrivateUse1,  // an out-of-tree back-end: privateuse1_runtime / privateuse1_driver
  kOther,        // another vendor's own categories (mlu_*, gcu_*)
};
/// "CUDA", "ROCm", "XPU", "MTIA", "HPU", "PrivateUse1", "other accelerator"; "none".
std::string_view acceleratorName(Accelerator accelerator);
/// What the UI calls one device of this kind: "GPU" for CUDA, ROCm and XPU (and when unknown),
/// "MTIA", "HPU", else "device".
std::string_view deviceNoun(Accelerator accelerator);

struct DistributedInfo {
  bool present = false;
  int64_t rank = -1;
  int64_t world_size = -1;
  std::string backend;
  std::string raw_json;  // the whole object as written
};

struct TraceMetadata {
  std::string source_path;
  std::string format;  // "kineto-json" (object form) or "chrome-json-array"
  /// The legacy autograd profiler's export (torch without Kineto, or use_kineto=False): the array
  /// form with ranges on pid "CPU functions" and no `cat`. It never carries memory events,
  /// shapes, stacks or kernels, whatever the profiler was asked to record.
  bool legacy_profiler_export = false;
  int64_t schema_version = -1;
  bool has_base_time = false;
  int64_t base_time_ns = 0;  // baseTimeNanoseconds: epoch of relative `ts`
  std::string display_time_unit;
  std::string trace_name;
  std::vector<DeviceProperties> devices;
  Accelerator accelerator = Accelerator::kNone;  // set by TraceBuilder::finalize()
  DistributedInfo distributed;
  /// Any other top-level key, with its value as raw JSON text (small values only).
  std::vector<std::pair<std::string, std::string>> extra;
  /// steplint_stopped_early (recorded_names.h), decoded: why the collector stopped recording while
  /// the program went on. Empty in a complete recording (see Stat::recorder_stopped_early).
  std::string stopped_early_reason;
  uint64_t input_bytes = 0;  // uncompressed JSON bytes read
};

/// The imported trace. Built by TraceBuilder; read-only afterwards.
class TraceModel {
 public:
  StringTable strings;
  std::vector<Track> tracks;
  std::vector<Event> events;  // sorted by (track, start_ns, longer first) after finalize
  std::vector<GpuDetail> gpu_details;
  std::vector<OpDetail> op_details;
  std::vector<CollectiveDetail> collectives;  // sorted by (on_device, owner) after finalize
  std::vector<MemoryEvent> memory_events;     // sorted by ts
  std::vector<InstantEvent> instants;         // sorted by ts
  std::vector<CounterSample> counters;        // sorted by ts
  std::vector<FlowEvent> flows;  // sorted by ts; empty unless ImportOptions::keep_flows
  TraceMetadata metadata;
  ImportStats stats;

  std::string_view str(StringId id) const { return strings.view(id); }
  std::string_view name(const Event& e) const { return strings.view(e.name); }
  const GpuDetail* gpu(const Event& e) const {
    return (e.detail != kNoIndex && !isCpuRange(e.kind) && e.detail < gpu_details.size())
               ? &gpu_details[e.detail]
               : nullptr;
  }
  const OpDetail* op(const Event& e) const {
    return (e.detail != kNoIndex && isCpuRange(e.kind) && e.detail < op_details.size())
               ? &op_details[e.detail]
               : nullptr;
  }
  /// The collective args recorded on this event itself (not on an enclosing op), or nullptr.
  const CollectiveDetail* collective(const Event& e) const;
  /// Events of one track, sorted by start.
  std::pair<const Event*, const Event*> trackEvents(uint32_t track) const {
    const Track& t = tracks[track];
    const Event* b = events.data() + t.first_event;
    return {b, b + t.event_count};
  }
  uint32_t indexOf(const Event& e) const { return static_cast<uint32_t>(&e - events.data()); }
  /// [min start, max end] over complete events (0,0 when empty).
  std::pair<int64_t, int64_t> timeRange() const;
  /// Device index of a device-side event (GpuDetail.device, else its track's pid).
  int32_t deviceOf(const Event& e) const;
};

}  // namespace steplint::trace
