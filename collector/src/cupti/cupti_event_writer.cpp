#include "cupti/cupti_event_writer.h"

#include <algorithm>
#include <cmath>

#include "thread_ids.h"
#include "trace_sink.h"

namespace steplint::collector {

namespace {

const char* deviceCategory(DeviceEventKind kind) {
  switch (kind) {
    case DeviceEventKind::kKernel:
      return "kernel";
    case DeviceEventKind::kMemcpy:
      return "gpu_memcpy";
    case DeviceEventKind::kMemset:
      return "gpu_memset";
    case DeviceEventKind::kSync:
      return "cuda_sync";
    case DeviceEventKind::kOverhead:
      return "overhead";
  }
  return "overhead";
}

std::string xyz(const int32_t v[3]) {
  return "[" + std::to_string(v[0]) + ", " + std::to_string(v[1]) + ", " + std::to_string(v[2]) +
         "]";
}

/// Kineto's sanitizeTid: negative tids are written as their absolute value.
int64_t sanitizeTid(int64_t tid) { return tid < 0 ? -tid : tid; }

void writeFlow(trace::KinetoJsonWriter& out, char ph, uint32_t id, int64_t pid, int64_t tid,
               int64_t ts) {
  trace::EventBuilder b = out.event(ph);
  b.id(id).pid(pid).tid(tid).ts(ts).cat("ac2g").name("ac2g");
  if (ph == 'f') b.field("bp", "\"e\"");
  b.done();
}

/// Per-SM resident block limit by compute capability (CUDA C Programming Guide, table
/// "Technical Specifications per Compute Capability"); the driver attribute is not in
/// WriterDeviceProperties.
int maxBlocksPerSm(int major, int minor) {
  if (major == 7) return minor == 5 ? 16 : 32;
  if (major == 8) return minor == 0 ? 32 : (minor == 9 ? 24 : 16);
  if (major == 12) return 24;
  return 32;  // 9.x, 10.x
}

}  // namespace

int estimatedOccupancyPct(const DeviceEvent& k, const trace::WriterDeviceProperties& dev) {
  const int64_t threads = int64_t{k.block[0]} * k.block[1] * k.block[2];
  if (threads <= 0 || dev.num_sms <= 0 || dev.max_threads_per_multiprocessor <= 0) return -1;
  const int warp = dev.warp_size > 0 ? dev.warp_size : 32;
  const int64_t warps_per_block = (threads + warp - 1) / warp;
  int64_t active = (dev.max_threads_per_multiprocessor / warp) / warps_per_block;
  active = std::min<int64_t>(active, maxBlocksPerSm(dev.compute_major, dev.compute_minor));
  if (k.registers_per_thread > 0 && dev.regs_per_multiprocessor > 0) {
    // Registers are allocated per warp in units of 256.
    const int64_t regs_per_warp = (int64_t{k.registers_per_thread} * warp + 255) / 256 * 256;
    active = std::min(active, (dev.regs_per_multiprocessor / regs_per_warp) / warps_per_block);
  }
  if (k.shared_memory > 0 && dev.shared_mem_per_multiprocessor > 0) {
    // sm_80 and newer reserve 1 KiB of shared memory per resident block for the system.
    const int64_t reserved = dev.compute_major >= 8 ? 1024 : 0;
    active = std::min(active, dev.shared_mem_per_multiprocessor / (k.shared_memory + reserved));
  }
  const double grid = double(k.grid[0]) * k.grid[1] * k.grid[2];
  const double blocks_per_sm = grid / dev.num_sms;
  const double resident = std::min(double(std::max<int64_t>(active, 0)), blocks_per_sm);
  return static_cast<int>(
      std::lround(100.0 * resident * double(threads) / dev.max_threads_per_multiprocessor));
}

void GpuEventWriter::write(const ConvertedRecords& records, trace::KinetoJsonWriter& out) {
  for (const ApiEvent& e : records.api) writeApi(e, out);
  for (const DeviceEvent& e : records.device) writeDevice(e, out);
}

void GpuEventWriter::writeApi(const ApiEvent& e, trace::KinetoJsonWriter& out) {
  // On the row of the thread's ops: CUPTI's thread id is not the OS tid (thread_ids.h).
  const int64_t tid = osThreadIdOf(e.tid);
  trace::EventBuilder b = out.event('X');
  b.cat(e.domain == ApiDomain::kDriver ? "cuda_driver" : "cuda_runtime").name(e.name);
  b.pid(e.pid).tid(tid).ts(e.start_ns).dur(e.end_ns - e.start_ns);
  if (e.external_id != 0) b.arg("External id", static_cast<int64_t>(e.external_id));
  b.arg("cbid", int64_t{e.cbid}).arg("correlation", int64_t{e.correlation});
  b.done();
  if (e.flow && e.correlation != 0) writeFlow(out, 's', e.correlation, e.pid, tid, e.start_ns);
}

void GpuEventWriter::writeDevice(const DeviceEvent& e, trace::KinetoJsonWriter& out) {
  if (e.kind == DeviceEventKind::kOverhead) {
    writeOverhead(e, out);
    return;
  }
  const bool sync = e.kind == DeviceEventKind::kSync;
  int64_t tid = e.stream;
  if (sync) tid = e.stream >= 0 ? e.stream + kSyncStreamTidOffset : sanitizeTid(e.stream);
  if (!sync || e.stream >= 0)
    ensureRow(e.device, tid, e.stream, sync, e.start_ns, out);  // stream-less syncs: no row
  trace::EventBuilder b = out.event('X');
  b.cat(deviceCategory(e.kind)).name(e.name).pid(e.device).tid(tid);
  b.ts(e.start_ns).dur(e.end_ns - e.start_ns);
  if (e.external_id != 0) b.arg("External id", static_cast<int64_t>(e.external_id));
  if (e.kind == DeviceEventKind::kKernel)
    writeKernelArgs(e, b);
  else if (e.kind == DeviceEventKind::kSync)
    writeSyncArgs(e, b);
  else
    writeCopyArgs(e, b);
  b.done();
  if (e.correlation != 0) writeFlow(out, 'f', e.correlation, e.device, tid, e.start_ns);
}

void GpuEventWriter::writeKernelArgs(const DeviceEvent& e, trace::EventBuilder& b) const {
  b.arg("queued", e.queued).arg("device", int64_t{e.device}).arg("context", int64_t{e.context});
  b.arg("stream", e.stream).arg("correlation", int64_t{e.correlation});
  b.arg("registers per thread", int64_t{e.registers_per_thread});
  b.arg("shared memory", int64_t{e.shared_memory});
  const trace::WriterDeviceProperties* dev = deviceProps(e.device);
  if (dev != nullptr && dev->num_sms > 0) {
    // Kineto writes inf without the SM count; that is not JSON, so we leave the keys out.
    const double blocks = double(e.grid[0]) * e.grid[1] * e.grid[2] / dev->num_sms;
    const double threads = double(e.block[0]) * e.block[1] * e.block[2];
    b.arg("blocks per SM", blocks).arg("warps per SM", blocks * threads / 32.0);
  }
  b.rawArg("grid", xyz(e.grid)).rawArg("block", xyz(e.block));
  if (dev != nullptr) {
    int pct = estimatedOccupancyPct(e, *dev);
    if (pct >= 0) b.arg("est. achieved occupancy %", int64_t{pct});
  }
  if (e.graph_id != 0) {
    b.arg("graph id", int64_t{e.graph_id})
        .arg("graph node id", static_cast<int64_t>(e.graph_node_id));
  }
  b.arg("channel", int64_t{e.channel}).arg("channel_type", int64_t{e.channel_type});
}

void GpuEventWriter::writeCopyArgs(const DeviceEvent& e, trace::EventBuilder& b) const {
  if (e.peer) {  // Kineto's keys for CUpti_ActivityMemcpyPtoP
    b.arg("fromDevice", int64_t{e.src_device})
        .arg("inDevice", int64_t{e.device})
        .arg("toDevice", int64_t{e.dst_device});
    b.arg("fromContext", int64_t{e.src_context})
        .arg("inContext", int64_t{e.context})
        .arg("toContext", int64_t{e.dst_context});
  }
  b.arg("device", int64_t{e.device}).arg("context", int64_t{e.context});
  b.arg("stream", e.stream).arg("correlation", int64_t{e.correlation});
  b.arg("bytes", static_cast<int64_t>(e.bytes));
  const int64_t dur = e.end_ns - e.start_ns;
  if (dur > 0) b.arg("memory bandwidth (GB/s)", double(e.bytes) / double(dur));  // bytes/ns = GB/s
  if (e.graph_id != 0) {
    b.arg("graph id", int64_t{e.graph_id})
        .arg("graph node id", static_cast<int64_t>(e.graph_node_id));
  }
}

void GpuEventWriter::writeSyncArgs(const DeviceEvent& e, trace::EventBuilder& b) const {
  b.arg("device", int64_t{e.device}).arg("context", int64_t{e.context});
  b.arg("stream", e.stream).arg("correlation", int64_t{e.correlation});
  b.arg("cuda_sync_kind", e.name);
  if (e.cuda_event_id != 0xffffffffu && (e.name == "Event Sync" || e.name == "Stream Wait Event")) {
    b.arg("wait_on_cuda_event_id", int64_t{e.cuda_event_id});
  }
}

void GpuEventWriter::writeOverhead(const DeviceEvent& e, trace::KinetoJsonWriter& out) {
  if (!overhead_row_seen_) {
    overhead_row_seen_ = true;
    out.event('M')
        .name("process_name")
        .pid(kOverheadPid)
        .tid(0)
        .ts(e.start_ns)
        .arg("name", "CUPTI Overhead")
        .done();
    out.event('M')
        .name("process_sort_index")
        .pid(kOverheadPid)
        .tid(0)
        .ts(e.start_ns)
        .arg("sort_index", int64_t{0x100000})
        .done();
  }
  out.event('X')
      .cat("overhead")
      .name(e.name)
      .pid(kOverheadPid)
      .tid(0)
      .ts(e.start_ns)
      .dur(e.end_ns - e.start_ns)
      .done();
}

void GpuEventWriter::ensureRow(uint32_t device, int64_t tid, int64_t stream, bool sync, int64_t ts,
                               trace::KinetoJsonWriter& out) {
  if (devices_seen_.insert(device).second) {
    writeProcessMetadata(out, device, process_name_, "GPU " + std::to_string(device),
                         kGpuSortIndexBase + device, ts);
  }
  if (!rows_seen_.insert({device, tid}).second) return;
  // Kineto's row names: "stream 7 " (trailing space) and "stream 7 (sync)".
  const std::string name = "stream " + std::to_string(stream) + (sync ? " (sync)" : " ");
  writeThreadMetadata(out, device, tid, name, ts);
}

const trace::WriterDeviceProperties* GpuEventWriter::deviceProps(uint32_t device) const {
  for (const auto& d : devices_) {
    if (d.id == static_cast<int>(device)) return &d;
  }
  return nullptr;
}

}  // namespace steplint::collector
