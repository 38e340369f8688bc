// Where each step's wall time goes, every nanosecond once: on the host timeline (the threads
// that run the loop and launch the GPU work) and on each device. Unlike the tb_plugin
// breakdown (breakdown.h), which ranks event kinds, this says why a device was idle: it was
// waiting for data, for a host blocked in a sync, for a host that had lost its lead to a sync,
// or for the host's launch work (docs/analyses.md "Step attribution").
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "steplint/analyzer/intervals.h"
#include "steplint/analyzer/steps.h"
#include "steplint/trace/model.h"

namespace steplint::analyzer {

/// What the host timeline does, by priority: a wait hides the DataLoader range around it, the
/// DataLoader hides the ops inside it, and so on.
enum class HostCause : uint8_t {
  kBlockedSync,  // in a synchronize call (or a cuda_sync record) waiting for the device
  kBlockedCopy,  // in a copy call that returned only after its copy ended
  kDataLoader,   // waiting for the next batch
  kLaunch,       // in launch API calls (cudaLaunchKernel, cudaMemcpyAsync ...)
  kOps,          // in recorded CPU ops and annotations
  kUnrecorded,   // nothing recorded (Python, framework code, sleeping)
};
inline constexpr int kHostCauseCount = 6;
std::string_view hostCauseName(HostCause c);  // "blocked in sync", ...

/// What a device does, by priority: compute hides communication under it, which hides copies,
/// which hide memsets; idle time is split by what the host did meanwhile.
enum class DeviceCause : uint8_t {
  kCompute,        // kernels other than communication
  kCommunication,  // NCCL kernels, or kernels launched by a collective, not hidden by compute
  kCopy,           // memcpy not hidden by kernels
  kMemset,
  kIdleData,       // idle while the host waits for data
  kIdleBlocked,    // idle while the host is blocked in a sync or blocking copy
  kIdleAfterSync,  // idle after a host wait, until the host launches again: the lead a sync cost
  kIdleLaunch,     // idle while the host is in launch calls
  kIdleHostWork,   // idle while the host runs ops or unrecorded code
};
inline constexpr int kDeviceCauseCount = 9;
std::string_view deviceCauseName(DeviceCause c);  // "compute", ..., "idle: host work"

struct DeviceAttribution {
  int32_t device = -1;
  std::array<int64_t, kDeviceCauseCount> ns{};  // indexed by DeviceCause; adds up to the step
};

struct StepAttribution {
  int64_t step_number = 0;
  int64_t total_ns = 0;
  std::array<int64_t, kHostCauseCount> host_ns{};  // indexed by HostCause; adds up to total_ns
  std::vector<DeviceAttribution> devices;          // devices with ops in the kept steps
};

struct AttributionResult {
  std::vector<StepAttribution> per_step;  // same order as StepResult::steps
  /// The DataLoader cause is an inferred input phase (input_wait.h), not measured ranges.
  bool dataloader_inferred = false;
  /// The mean over the steps, in ns (0 steps: all zero, no devices).
  double average_total_ns = 0;
  std::array<double, kHostCauseCount> average_host_ns{};
  std::vector<std::pair<int32_t, std::array<double, kDeviceCauseCount>>> average_device_ns;
};

/// `inferred_loader`: the inferred input phases of a trace without DataLoader ranges
/// (InferredInputWait::ranges), which then take the DataLoader cause; empty otherwise.
AttributionResult computeAttribution(const trace::TraceModel& model, const StepResult& steps,
                                     const IntervalSet& inferred_loader = {});

/// True for the idle causes (kIdleData .. kIdleHostWork): the device ran nothing.
constexpr bool isIdleCause(DeviceCause c) { return c >= DeviceCause::kIdleData; }

/// `device`'s mean ns per step by cause, or nullptr when the attribution has no such device.
const std::array<double, kDeviceCauseCount>* averageDeviceNs(const AttributionResult& a,
                                                             int32_t device);

/// "DataLoader (inferred)" for an inferred DataLoader cause, else hostCauseName(c).
std::string hostCauseLabel(const AttributionResult& a, HostCause c);

}  // namespace steplint::analyzer
