// Peak device memory per step (issue #5): the seam between the recorder and the CUDA caching
// allocator. The recorder asks a MemoryProbe for "the peak since you were last asked" at every
// step boundary (or every flush interval when the trainer marks no steps) and writes each
// answer as one Kineto `[memory]` instant at the moment of the peak, so SL401/SL402 and any
// Kineto memory view read it like torch.profiler's profile_memory events.
//
// PeakTracker holds the arithmetic, free of torch, so it is unit-tested here; the torch build
// feeds it from the allocator's trace tracker (src/torch/cuda_memory.cpp).
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

namespace steplint::collector {

struct MemorySample {
  int32_t device = 0;
  int64_t ts_ns = 0;           // when the allocated peak was reached (collector clock)
  int64_t peak_allocated = 0;  // bytes held by tensors at that peak
  int64_t peak_reserved = 0;   // bytes the allocator held from the driver (its own peak)
};

class MemoryProbe {
 public:
  virtual ~MemoryProbe() = default;
  /// Appends one sample per device with activity: the peaks since the previous call. Runs on a
  /// trainer thread (step boundary) or the writer thread; must not throw or block for long.
  virtual void takePeaks(std::vector<MemorySample>& out) noexcept = 0;
  /// "CUDA caching allocator" or why not; written into steplint_sources.
  virtual const char* status() const noexcept = 0;
};

/// Lock-free running totals and peaks per device. The allocator calls the on* functions under
/// its own lock on any thread, so they only touch atomics (no locks, no allocation).
class PeakTracker {
 public:
  static constexpr int kMaxDevices = 64;

  /// Starts a device from the allocator's current totals (what was allocated before we looked).
  void seed(int device, int64_t allocated, int64_t reserved) noexcept;
  void onAllocated(int device, int64_t bytes, int64_t now_ns) noexcept;
  void onFreed(int device, int64_t bytes) noexcept;
  void onReserved(int device, int64_t bytes) noexcept;  // negative for a segment released
  /// Peaks since the previous call; each device's peak restarts from its current total.
  void take(std::vector<MemorySample>& out, int64_t now_ns) noexcept;

 private:
  struct Device {
    std::atomic<bool> seen{false};
    std::atomic<int64_t> allocated{0};
    std::atomic<int64_t> reserved{0};
    std::atomic<int64_t> peak_allocated{0};
    std::atomic<int64_t> peak_reserved{0};
    std::atomic<int64_t> peak_ts_ns{0};
  };
  Device* at(int device) noexcept;
  std::array<Device, kMaxDevices> devices_{};
};

using MemoryProbeFactory = std::function<std::unique_ptr<MemoryProbe>()>;
/// Tests replace the factory (nullptr restores the build's own: src/torch/cuda_memory.cpp or none).
void setMemoryProbeFactoryForTesting(MemoryProbeFactory factory);

}  // namespace steplint::collector
