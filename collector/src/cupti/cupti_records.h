// Pure conversion of CUPTI activity buffers into plain structs (no CUPTI state, no locks), so
// tests can feed hand-built buffers through the real cuptiActivityGetNextRecord.
//
//   RecordConverter conv;                     // keeps correlation → External id across buffers
//   ConvertedRecords out;
//   conv.parseBuffer(buffer, valid_bytes, &out);
//   writeConverted(out, event_writer);        // cupti_event_writer.h
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <string>
#include <unordered_map>
#include <vector>

namespace steplint::collector {

enum class DeviceEventKind : uint8_t { kKernel, kMemcpy, kMemset, kSync, kOverhead };

/// One GPU-side record. Times are on the trace clock (nowNs) in ns.
struct DeviceEvent {
  DeviceEventKind kind = DeviceEventKind::kKernel;
  std::string name;  // kernel name, "Memcpy HtoD (Pageable -> Device)", "Stream Sync"
  uint32_t device = 0;
  uint32_t context = 0;
  int64_t stream = -1;  // -1: no stream (Event Sync, Context Sync, overhead)
  int64_t start_ns = 0;
  int64_t end_ns = 0;
  uint32_t correlation = 0;
  uint64_t external_id = 0;  // 0 = not linked
  uint64_t bytes = 0;        // memcpy / memset
  int32_t grid[3] = {0, 0, 0};
  int32_t block[3] = {0, 0, 0};
  int32_t registers_per_thread = 0;
  int32_t shared_memory = 0;  // static + dynamic, bytes
  int64_t queued = 0;         // CUPTI "queued" (0 when not collected)
  uint32_t graph_id = 0;
  uint64_t graph_node_id = 0;
  uint32_t channel = 0, channel_type = 0;
  uint8_t copy_kind = 0, src_kind = 0, dst_kind = 0;  // raw CUPTI numbering (pageable 1, pinned 2)
  bool peer = false;                                  // MEMCPY2: a copy between two devices
  uint32_t src_device = 0, dst_device = 0;            // peer copies only
  uint32_t src_context = 0, dst_context = 0;
  uint8_t memory_kind = 0;     // memset
  uint8_t sync_type = 0;       // CUpti_ActivitySynchronizationType
  uint32_t cuda_event_id = 0;  // sync on an event (else 0xffffffff)
};

enum class ApiDomain : uint8_t { kRuntime, kDriver };

/// One runtime or driver API call (host side).
struct ApiEvent {
  ApiDomain domain = ApiDomain::kRuntime;
  std::string name;  // cuptiGetCallbackName without the "_vNNNN" suffix
  uint32_t cbid = 0;
  uint32_t pid = 0;
  uint32_t tid =
      0;  // as CUPTI reports it: the low 32 bits of pthread_self(), not the OS tid (thread_ids.h)
  int64_t start_ns = 0;
  int64_t end_ns = 0;
  uint32_t correlation = 0;
  uint64_t external_id = 0;
  int32_t return_value = 0;
  bool flow = false;  // launches, copies, memsets and syncs start an ac2g flow
};

struct ConvertedRecords {
  std::vector<DeviceEvent> device;
  std::vector<ApiEvent> api;
  void clear() {
    device.clear();
    api.clear();
  }
};

struct RecordCounters {
  uint64_t records = 0;          // records read from buffers
  uint64_t unknown_kinds = 0;    // kinds this converter does not handle (skipped)
  uint64_t blocklisted = 0;      // noisy runtime calls skipped (cudaGetDevice, ...)
  uint64_t driver_skipped = 0;   // driver calls that launch nothing (cuKernelGetName, ...)
  uint64_t external_ids = 0;     // CUSTOM0 external correlation records
  uint64_t corrupt_buffers = 0;  // cuptiActivityGetNextRecord errors other than the normal end
};

class RecordConverter {
 public:
  /// offset_ns is added to every CUPTI timestamp: 0 when CUPTI uses our timestamp callback,
  /// else (nowNs - cuptiGetTimestamp) measured at start.
  explicit RecordConverter(int64_t offset_ns = 0) : offset_ns_(offset_ns) {}
  void setOffset(int64_t offset_ns) { offset_ns_ = offset_ns; }

  /// Appends every record of one completed buffer to *out.
  void parseBuffer(uint8_t* buffer, size_t valid_bytes, ConvertedRecords* out);
  const RecordCounters& counters() const { return counters_; }

  /// Correlation → External id entries kept at most (oldest evicted first: correlation ids
  /// grow, and device records arrive within a few buffers of their API call).
  static constexpr size_t kMaxExternalIds = size_t{1} << 18;

 private:
  void onRecord(const void* record, ConvertedRecords* out);
  void onKernel(const void* record, ConvertedRecords* out);
  void onMemcpy(const void* record, ConvertedRecords* out);
  void onPeerMemcpy(const void* record, ConvertedRecords* out);
  void onMemset(const void* record, ConvertedRecords* out);
  void onApi(const void* record, ApiDomain domain, ConvertedRecords* out);
  void onSync(const void* record, ConvertedRecords* out);
  void onOverhead(const void* record, ConvertedRecords* out);
  void onExternalCorrelation(const void* record);
  /// The fields kernel, memcpy and memset records share (same names in all three structs).
  template <typename Record>
  DeviceEvent deviceOp(const Record& r, DeviceEventKind kind, std::string name);
  template <typename Record>
  DeviceEvent copyOp(const Record& m);  // memcpy and peer memcpy: kinds, bytes, name
  uint64_t externalIdOf(uint32_t correlation) const;
  const std::string& apiName(ApiDomain domain, uint32_t cbid);
  int64_t clock(uint64_t cupti_ns) const { return static_cast<int64_t>(cupti_ns) + offset_ns_; }

  int64_t offset_ns_;
  RecordCounters counters_;
  std::unordered_map<uint32_t, uint64_t> external_ids_;
  std::deque<uint32_t> external_order_;
  std::unordered_map<uint32_t, uint32_t> contexts_;      // context id → device (sync records)
  std::unordered_map<uint64_t, std::string> api_names_;  // (domain << 32 | cbid) → name
};

/// "Memcpy HtoD (Pageable -> Device)" from CUPTI's copy kind and memory kinds (§7.5).
std::string memcpyName(uint8_t copy_kind, uint8_t src_kind, uint8_t dst_kind);
/// "Memset (Device)".
std::string memsetName(uint8_t memory_kind);
/// "Event Sync", "Stream Wait Event", "Stream Sync", "Context Sync", "Unknown Sync".
const char* syncName(uint8_t sync_type);
/// "Buffer Flush", "Instrumentation", "Resource", ... (Kineto's overhead names).
const char* overheadName(uint32_t overhead_kind);
/// "cudaLaunchKernel_v7000" → "cudaLaunchKernel"; "cuMemcpyHtoD_v2" stays (suffix < 4 digits).
std::string stripVersionSuffix(const char* name);
/// Runtime calls Kineto leaves out because they are frequent and uninteresting.
bool isBlocklistedRuntimeCbid(uint32_t cbid);
/// Calls that start an ac2g flow: launches, graph launches, memcpy/memset, syncs.
bool startsFlow(const std::string& api_name);

}  // namespace steplint::collector
