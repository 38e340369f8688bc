// The seam between the collector and CUPTI (docs/reference/style.md §2.10; libkineto's
// CuptiActivityApi). The recorder knows only this interface; CuptiActivitySource is the real one
// and tests feed hand-built CUpti_Activity* buffers through the same record handling.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

namespace steplint::trace {
class KinetoJsonWriter;
struct TraceHeader;
}  // namespace steplint::trace

namespace steplint::collector {

struct ActivityConfig {
  bool kernels = true;
  bool memcpy = true;
  bool memset = true;
  bool runtime_api = true;
  bool driver_api = true;
  bool synchronization = true;
  bool overhead = true;
  /// CUPTI stamps records through our clock callback (exact, same clock as host events);
  /// false: CUPTI's own clock shifted by an offset measured at start.
  bool timestamp_callback = true;
  /// Record only the API calls the converter keeps (cupti_api_filter.h); false: every driver
  /// call, filtered after CUPTI wrote it (the behaviour before; for overhead comparisons).
  bool api_filter = true;
  size_t buffer_bytes = 4u << 20;        // CUPTI recommends 1-10 MiB per buffer
  size_t max_buffer_bytes = 128u << 20;  // cap on buffers handed to CUPTI (Kineto's default)
};

class ActivitySource {
 public:
  virtual ~ActivitySource() = default;
  /// Starts collection; on failure returns false and sets `why` (one line, CUPTI code name and
  /// number, e.g. "CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED (39): another profiler
  /// (Nsight Systems, torch.profiler) already uses CUPTI"). Collection then stays CPU-only.
  virtual bool start(const ActivityConfig& config, std::string* why) = 0;
  /// Asks CUPTI to hand over completed buffers (called at step boundaries and by the writer).
  virtual void flush(bool forced) = 0;
  /// Converts every completed record into trace events; runs on the writer thread only.
  virtual void drain(trace::KinetoJsonWriter& out) = 0;
  /// With a schedule, only records that start inside a captured window are written (CUPTI
  /// keeps recording through wait and warmup steps). Unset: everything. Set before drain().
  using TimeFilter = std::function<bool(int64_t start_ns)>;
  virtual void setTimeFilter(TimeFilter keep) = 0;
  /// Pauses (false) or resumes (true) device tracing after start(). The schedule pauses it in
  /// wait and done steps, so those steps pay no per-launch CUPTI cost (Kineto likewise starts
  /// CUPTI only at warmup). Called from the trainer thread at step boundaries.
  virtual void setCollecting(bool on) noexcept = 0;
  /// Stops collection, forces a final flush; drain() afterwards gets the rest.
  virtual void stop() = 0;
  /// Device properties and CUPTI/driver versions for the trace header (empty without a GPU).
  virtual void describe(trace::TraceHeader& header) = 0;
  /// Records CUPTI reported as dropped plus records refused at the buffer cap.
  virtual uint64_t droppedRecords() const = 0;
  /// External correlation: brackets the CUDA calls an op makes (called from op callbacks).
  virtual void pushExternalId(uint64_t id) noexcept = 0;
  virtual void popExternalId() noexcept = 0;
};

}  // namespace steplint::collector
