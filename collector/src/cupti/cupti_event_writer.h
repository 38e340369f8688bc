// Writes converted CUPTI records as Kineto events (docs/reference/trace-format.md §5-§8):
// categories kernel / gpu_memcpy / gpu_memset / cuda_sync / overhead / cuda_runtime / cuda_driver,
// GPU rows pid = device and tid = stream with their 'M' rows, ac2g flows keyed by correlation.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "cupti/cupti_records.h"
#include "steplint/trace/kineto_writer.h"

namespace steplint::collector {

/// Syncs on a stream go to their own row (Kineto >= 2026-04, PR #1356): they measure host
/// blocking time and would otherwise overlap the kernels of that stream.
inline constexpr int64_t kSyncStreamTidOffset = 1000000;
inline constexpr int64_t kGpuSortIndexBase = 0x1000000;  // process_sort_index of device d
inline constexpr int64_t kOverheadPid = -1;

/// Kineto's occupancy estimate: round(100 × min(active blocks, blocks per SM) × threads per
/// block / max threads per SM); -1 when the device or the launch is unknown. Active blocks per
/// SM are limited by warps, registers, shared memory and the per-SM block limit.
int estimatedOccupancyPct(const DeviceEvent& kernel, const trace::WriterDeviceProperties& dev);

class GpuEventWriter {
 public:
  /// Device properties indexed by device id (from describe()); may stay empty.
  void setDevices(std::vector<trace::WriterDeviceProperties> devices) {
    devices_ = std::move(devices);
  }
  /// Written as process_name on GPU rows (Kineto repeats the process name there).
  void setProcessName(std::string name) { process_name_ = std::move(name); }

  void write(const ConvertedRecords& records, trace::KinetoJsonWriter& out);
  void writeApi(const ApiEvent& e, trace::KinetoJsonWriter& out);
  void writeDevice(const DeviceEvent& e, trace::KinetoJsonWriter& out);

 private:
  void writeKernelArgs(const DeviceEvent& e, trace::EventBuilder& b) const;
  void writeCopyArgs(const DeviceEvent& e, trace::EventBuilder& b) const;
  void writeSyncArgs(const DeviceEvent& e, trace::EventBuilder& b) const;
  void writeOverhead(const DeviceEvent& e, trace::KinetoJsonWriter& out);
  /// 'M' rows for a device (once) and for one of its stream rows (once per (device, tid)).
  void ensureRow(uint32_t device, int64_t tid, int64_t stream, bool sync, int64_t ts,
                 trace::KinetoJsonWriter& out);
  const trace::WriterDeviceProperties* deviceProps(uint32_t device) const;

  std::vector<trace::WriterDeviceProperties> devices_;
  std::string process_name_ = "steplint";
  std::set<uint32_t> devices_seen_;
  std::set<std::pair<uint32_t, int64_t>> rows_seen_;
  bool overhead_row_seen_ = false;
};

}  // namespace steplint::collector
