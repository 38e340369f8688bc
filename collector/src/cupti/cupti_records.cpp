// One small function per CUPTI record kind behind one switch (docs/reference/style.md §2.10).
// Record versions are those of the CUDA 13.0 headers; the static_asserts catch a toolkit upgrade
// that changes a layout (docs/reference/toolchain.md §4.4).
#include "cupti/cupti_records.h"

#include <cupti.h>

namespace steplint::collector {

static_assert(sizeof(CUpti_ActivityKernel10) == 216, "CUDA 13.0 kernel record layout changed");
static_assert(sizeof(CUpti_ActivityMemcpy6) == 96, "CUDA 13.0 memcpy record layout changed");
static_assert(sizeof(CUpti_ActivityMemset4) == 88, "CUDA 13.0 memset record layout changed");
static_assert(sizeof(CUpti_ActivityMemcpyPtoP4) == 96,
              "CUDA 13.0 peer memcpy record layout changed");
static_assert(sizeof(CUpti_ActivityAPI) == 40, "API record layout changed");
static_assert(sizeof(CUpti_ActivitySynchronization2) == 56, "sync record layout changed");
static_assert(sizeof(CUpti_ActivityOverhead3) == 56, "overhead record layout changed");
static_assert(sizeof(CUpti_ActivityExternalCorrelation) == 24,
              "external correlation layout changed");

void RecordConverter::parseBuffer(uint8_t* buffer, size_t valid_bytes, ConvertedRecords* out) {
  if (buffer == nullptr || valid_bytes == 0) return;
  CUpti_Activity* record = nullptr;
  for (;;) {
    // Pure iteration over our own memory: works without a driver (docs/reference/toolchain.md
    // §4.3).
    CUptiResult rc = cuptiActivityGetNextRecord(buffer, valid_bytes, &record);
    if (rc == CUPTI_ERROR_MAX_LIMIT_REACHED) break;  // the normal end of a buffer
    if (rc != CUPTI_SUCCESS) {
      ++counters_.corrupt_buffers;
      break;
    }
    ++counters_.records;
    onRecord(record, out);
  }
}

void RecordConverter::onRecord(const void* record, ConvertedRecords* out) {
  switch (static_cast<const CUpti_Activity*>(record)->kind) {
    case CUPTI_ACTIVITY_KIND_KERNEL:
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
      onKernel(record, out);
      break;
    case CUPTI_ACTIVITY_KIND_MEMCPY:
      onMemcpy(record, out);
      break;
    case CUPTI_ACTIVITY_KIND_MEMCPY2:
      onPeerMemcpy(record, out);
      break;
    case CUPTI_ACTIVITY_KIND_MEMSET:
      onMemset(record, out);
      break;
    case CUPTI_ACTIVITY_KIND_RUNTIME:
      onApi(record, ApiDomain::kRuntime, out);
      break;
    case CUPTI_ACTIVITY_KIND_DRIVER:
      onApi(record, ApiDomain::kDriver, out);
      break;
    case CUPTI_ACTIVITY_KIND_SYNCHRONIZATION:
      onSync(record, out);
      break;
    case CUPTI_ACTIVITY_KIND_OVERHEAD:
      onOverhead(record, out);
      break;
    case CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION:
      onExternalCorrelation(record);
      break;
    default:
      ++counters_.unknown_kinds;
      break;
  }
}

template <typename Record>
DeviceEvent RecordConverter::deviceOp(const Record& r, DeviceEventKind kind, std::string name) {
  DeviceEvent e;
  e.kind = kind;
  e.name = std::move(name);
  e.device = r.deviceId;
  e.context = r.contextId;
  e.stream = r.streamId;
  e.start_ns = clock(r.start);
  e.end_ns = clock(r.end);
  e.correlation = r.correlationId;
  e.external_id = externalIdOf(r.correlationId);
  e.graph_id = r.graphId;
  e.graph_node_id = r.graphNodeId;
  e.channel = r.channelID;
  e.channel_type = static_cast<uint32_t>(r.channelType);
  contexts_[r.contextId] = r.deviceId;  // sync records name only their context
  return e;
}

void RecordConverter::onKernel(const void* record, ConvertedRecords* out) {
  const auto& k = *static_cast<const CUpti_ActivityKernel10*>(record);
  DeviceEvent e =
      deviceOp(k, DeviceEventKind::kKernel, k.name != nullptr ? k.name : "<unnamed kernel>");
  e.grid[0] = k.gridX;
  e.grid[1] = k.gridY;
  e.grid[2] = k.gridZ;
  e.block[0] = k.blockX;
  e.block[1] = k.blockY;
  e.block[2] = k.blockZ;
  e.registers_per_thread = k.registersPerThread;
  e.shared_memory = k.staticSharedMemory + k.dynamicSharedMemory;
  // queued is CUPTI_TIMESTAMP_UNKNOWN (0) unless cuptiActivityEnableLatencyTimestamps is on.
  e.queued = k.queued != 0 ? clock(k.queued) : 0;
  out->device.push_back(std::move(e));
}

template <typename Record>
DeviceEvent RecordConverter::copyOp(const Record& m) {
  DeviceEvent e =
      deviceOp(m, DeviceEventKind::kMemcpy, memcpyName(m.copyKind, m.srcKind, m.dstKind));
  e.bytes = m.bytes;
  e.copy_kind = m.copyKind;
  e.src_kind = m.srcKind;
  e.dst_kind = m.dstKind;
  return e;
}

void RecordConverter::onMemcpy(const void* record, ConvertedRecords* out) {
  out->device.push_back(copyOp(*static_cast<const CUpti_ActivityMemcpy6*>(record)));
}

// Copies between two GPUs (cudaMemcpyPeer, NCCL's P2P fallback, DataParallel's scatter)
// arrive as MEMCPY2 records; CUPTI files them under the device that ran the copy.
void RecordConverter::onPeerMemcpy(const void* record, ConvertedRecords* out) {
  const auto& m = *static_cast<const CUpti_ActivityMemcpyPtoP4*>(record);
  DeviceEvent e = copyOp(m);
  e.peer = true;
  e.src_device = m.srcDeviceId;
  e.dst_device = m.dstDeviceId;
  e.src_context = m.srcContextId;
  e.dst_context = m.dstContextId;
  out->device.push_back(std::move(e));
}

void RecordConverter::onMemset(const void* record, ConvertedRecords* out) {
  const auto& m = *static_cast<const CUpti_ActivityMemset4*>(record);
  DeviceEvent e =
      deviceOp(m, DeviceEventKind::kMemset, memsetName(static_cast<uint8_t>(m.memoryKind)));
  e.bytes = m.bytes;
  e.memory_kind = static_cast<uint8_t>(m.memoryKind);
  out->device.push_back(std::move(e));
}

void RecordConverter::onApi(const void* record, ApiDomain domain, ConvertedRecords* out) {
  const auto& a = *static_cast<const CUpti_ActivityAPI*>(record);
  if (domain == ApiDomain::kRuntime && isBlocklistedRuntimeCbid(a.cbid)) {
    ++counters_.blocklisted;
    return;
  }
  const std::string& name = apiName(domain, a.cbid);
  // Driver calls made on the runtime's behalf (cuDevicePrimaryCtxGetState, cuKernelGetName,
  // ...) outnumber the runtime calls 3:1 on an H100 and explain nothing; as Kineto does, keep
  // the driver calls that launch, copy, set or wait (Triton's cuLaunchKernel among them).
  if (domain == ApiDomain::kDriver && !startsFlow(name)) {
    ++counters_.driver_skipped;
    return;
  }
  ApiEvent e;
  e.domain = domain;
  e.name = name;
  e.cbid = a.cbid;
  e.pid = a.processId;
  e.tid = a.threadId;
  e.start_ns = clock(a.start);
  e.end_ns = clock(a.end);
  e.correlation = a.correlationId;
  e.external_id = externalIdOf(a.correlationId);
  e.return_value = static_cast<int32_t>(a.returnValue);
  e.flow = startsFlow(e.name);
  out->api.push_back(std::move(e));
}

void RecordConverter::onSync(const void* record, ConvertedRecords* out) {
  const auto& s = *static_cast<const CUpti_ActivitySynchronization2*>(record);
  DeviceEvent e;
  e.kind = DeviceEventKind::kSync;
  e.sync_type = static_cast<uint8_t>(s.type);
  e.name = syncName(e.sync_type);
  // The sync record has no device: take it from a kernel/memcpy/memset seen on its context.
  auto it = contexts_.find(s.contextId);
  e.device = it != contexts_.end() ? it->second : 0;
  e.context = s.contextId;
  e.stream = s.streamId == CUPTI_SYNCHRONIZATION_INVALID_VALUE ? -1 : int64_t{s.streamId};
  e.start_ns = clock(s.start);
  e.end_ns = clock(s.end);
  e.correlation = s.correlationId;
  e.external_id = externalIdOf(s.correlationId);
  e.cuda_event_id = s.cudaEventId;
  out->device.push_back(std::move(e));
}

void RecordConverter::onOverhead(const void* record, ConvertedRecords* out) {
  const auto& o = *static_cast<const CUpti_ActivityOverhead3*>(record);
  DeviceEvent e;
  e.kind = DeviceEventKind::kOverhead;
  e.name = overheadName(static_cast<uint32_t>(o.overheadKind));
  e.start_ns = clock(o.start);
  e.end_ns = clock(o.end);
  e.correlation = o.correlationId;
  out->device.push_back(std::move(e));
}

void RecordConverter::onExternalCorrelation(const void* record) {
  const auto& x = *static_cast<const CUpti_ActivityExternalCorrelation*>(record);
  // Only CUSTOM0 is pushed by steplint (per op); other kinds belong to other tools.
  if (x.externalKind != CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0) return;
  ++counters_.external_ids;
  auto [it, inserted] = external_ids_.insert_or_assign(x.correlationId, x.externalId);
  (void)it;
  if (!inserted) return;
  external_order_.push_back(x.correlationId);
  if (external_order_.size() > kMaxExternalIds) {
    external_ids_.erase(external_order_.front());
    external_order_.pop_front();
  }
}

uint64_t RecordConverter::externalIdOf(uint32_t correlation) const {
  auto it = external_ids_.find(correlation);
  return it != external_ids_.end() ? it->second : 0;
}

const std::string& RecordConverter::apiName(ApiDomain domain, uint32_t cbid) {
  uint64_t key = (uint64_t{domain == ApiDomain::kDriver} << 32) | cbid;
  auto it = api_names_.find(key);
  if (it != api_names_.end()) return it->second;
  const char* raw = nullptr;
  CUpti_CallbackDomain d =
      domain == ApiDomain::kDriver ? CUPTI_CB_DOMAIN_DRIVER_API : CUPTI_CB_DOMAIN_RUNTIME_API;
  // Table lookup inside libcupti; needs no driver. Unknown ids get Kineto's old "INVALID".
  if (cuptiGetCallbackName(d, cbid, &raw) != CUPTI_SUCCESS || raw == nullptr) raw = "INVALID";
  return api_names_.emplace(key, stripVersionSuffix(raw)).first->second;
}

}  // namespace steplint::collector
