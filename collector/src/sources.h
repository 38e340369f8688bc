// Factories for the collector's optional sources. Each returns nullptr when the build lacks the
// dependency (no torch, no CUPTI, no NVTX), so recorder.cpp needs no #ifdefs of its own: the
// fallbacks live in sources_fallback.cpp, compiled with the STEPLINT_HAVE_* definitions.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "activity_source.h"
#include "memory_probe.h"

namespace steplint::collector {

struct CollectorConfig;

/// A source that records on trainer threads (RecordFunction callbacks, NVTX injection).
class HostSource {
 public:
  virtual ~HostSource() = default;
  virtual const char* name() const = 0;  // "torch", "nvtx": the key in steplint_sources
  /// Registers callbacks; false + why when it cannot record (the session goes on without it).
  virtual bool start(const CollectorConfig& config, std::string* why) = 0;
  /// Stops recording; must be safe to call from an atexit handler.
  virtual void stop() = 0;
  /// Adds what this source knows about the run (torch version, threads, cudnn flags, device
  /// properties) as trace metadata via setMetadata(); called once at start.
  virtual void describe() {}
};

std::unique_ptr<HostSource> makeTorchSource();      // src/torch/ (STEPLINT_HAVE_TORCH)
std::unique_ptr<HostSource> makeNvtxSource();       // src/nvtx/  (STEPLINT_HAVE_NVTX)
std::unique_ptr<ActivitySource> makeCuptiSource();  // src/cupti/ (STEPLINT_HAVE_CUPTI)
std::unique_ptr<MemoryProbe>
makeCudaMemoryProbe();  // src/torch/cuda_memory.cpp (STEPLINT_HAVE_CUDA_MEMORY)

/// At a step boundary, on the trainer thread: the torch source re-reads torch's settings (at most
/// once a second) while the process is sure to be alive, since at exit it must not
/// (processExiting()). A no-op without torch or while the torch source is stopped.
void refreshTorchSettingsAtStep(int64_t now_ns) noexcept;  // src/torch/torch_hooks.cpp

/// The ActivitySource the torch hooks push external ids into (nullptr when none runs).
ActivitySource* activeActivitySource() noexcept;

}  // namespace steplint::collector
