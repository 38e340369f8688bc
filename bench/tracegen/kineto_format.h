// Renders synthetic events as current-Kineto JSON text (object form, relative float µs with
// three decimals, pretty-printed the way libkineto's output_json.cpp does it), so the
// importer sees the same byte patterns as in real files.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace steplint::bench {

/// Fixed identities of the synthetic process and device.
struct TraceLayout {
  int64_t cpu_pid = 4242;
  int64_t main_tid = 4242;
  int64_t autograd_tid = 4290;
  int32_t device = 0;
  int32_t stream = 7;
  int32_t num_sms = 108;  // A100: blocks-per-SM and occupancy derive from this
  int32_t max_threads_per_sm = 2048;
  int64_t base_time_ns = 1763800000000000000;  // 2025-11-22, epoch of the relative `ts`
  /// The distributedInfo object's JSON text; empty writes {"rank": 0} (a single-process run),
  /// "-" leaves the key out (a trace from a job whose profiler wrote none).
  std::string distributed_info;
};

enum class CpuCategory : uint8_t { kCpuOp, kUserAnnotation, kRuntime };

/// A CPU-side complete event (op, annotation or CUDA runtime call).
struct CpuEvent {
  std::string_view name;
  CpuCategory category = CpuCategory::kCpuOp;
  int64_t tid = 0;
  int64_t start_ns = 0;
  int64_t dur_ns = 0;
  int64_t external_id = 0;
  int64_t ev_idx = 0;
  int64_t sequence_number = -1;  // autograd pairing; -1 = not written
  int64_t fwd_thread_id = -1;
  int32_t cbid = 0;             // runtime calls only
  int64_t correlation = -1;     // runtime calls only
  bool flow_start = false;      // write an ac2g 's' after the call
  std::string_view extra_args;  // JSON members added to args as written (c10d collective args)
};

enum class GpuKind : uint8_t { kKernel, kMemcpy, kMemset };

struct KernelShape {
  int32_t grid[3] = {1, 1, 1};
  int32_t block[3] = {1, 1, 1};
  int32_t registers_per_thread = 32;
  int32_t shared_memory = 0;
  double active_blocks_per_sm = 1;  // what the occupancy calculator would allow
};

/// A device-side event on the layout's stream.
struct GpuEvent {
  std::string_view name;
  GpuKind kind = GpuKind::kKernel;
  int64_t start_ns = 0;
  int64_t dur_ns = 0;
  int64_t correlation = 0;
  int64_t external_id = 0;
  int64_t bytes = 0;  // memcpy/memset
  KernelShape shape;  // kernels
  std::string_view
      extra_args;  // JSON members added to a kernel's args as written (c10d collective args)
};

/// A '[memory]' allocator instant event.
struct MemoryInstant {
  int64_t tid = 0;
  int64_t ts_ns = 0;
  int64_t bytes = 0;
  int64_t total_allocated = 0;
  int64_t total_reserved = 0;
  uint64_t addr = 0;
  int64_t ev_idx = 0;
  int32_t device_type = 1;  // c10::DeviceType::CUDA
  int32_t device_id = 0;
};

class KinetoFormatter {
 public:
  explicit KinetoFormatter(const TraceLayout& layout) : layout_(layout) {}

  /// Top-level keys up to and including `"traceEvents": [` and the first (metadata) event.
  void header(std::string& out) const;
  /// Every further event starts with ",\n", so the header must have written one event.
  void metadata(std::string& out, std::string_view name, int64_t pid, int64_t tid,
                std::string_view key, std::string_view string_value) const;
  void metadataSortIndex(std::string& out, std::string_view name, int64_t pid, int64_t tid,
                         int64_t index) const;
  void cpu(std::string& out, const CpuEvent& e) const;
  void gpu(std::string& out, const GpuEvent& e) const;
  void memory(std::string& out, const MemoryInstant& m) const;
  void fwdbwdFlow(std::string& out, char phase, int64_t id, int64_t tid, int64_t ts_ns) const;
  void globalInstant(std::string& out, std::string_view name, std::string_view pid,
                     std::string_view tid, int64_t ts_ns) const;
  void span(std::string& out, int64_t start_ns, int64_t dur_ns) const;
  /// Closes traceEvents and writes traceName last.
  void footer(std::string& out, std::string_view trace_name) const;

 private:
  void ac2gFlow(std::string& out, char phase, int64_t id, int64_t pid, int64_t tid,
                int64_t ts_ns) const;
  void kernelArgs(std::string& out, const GpuEvent& e) const;
  void copyArgs(std::string& out, const GpuEvent& e) const;

  TraceLayout layout_;
};

// Number formatting without locale or allocation (the generator writes ~10^7 numbers per GB).
void appendInt(std::string& out, int64_t value);
/// Nanoseconds as Kineto writes relative µs: "{ns/1000}.{ns%1000:03}", never negative.
void appendMicros(std::string& out, int64_t ns);
/// Shortest round-trip decimal, as fmt's "{}" prints doubles.
void appendDouble(std::string& out, double value);
void appendJsonString(std::string& out, std::string_view text);

}  // namespace steplint::bench
