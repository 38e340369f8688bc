// Turns collector records into Kineto trace events (docs/reference/trace-format.md §4-§7, §13), so
// recorder.cpp deals with threads and lifecycle only.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "memory_probe.h"
#include "recorder.h"

namespace steplint::trace {
class KinetoJsonWriter;
}

namespace steplint::collector {

struct CollectorConfig;
using RawJsonPairs = std::vector<std::pair<std::string, std::string>>;

/// One host event: ph "X" (or "i" s "t" for instants), cat cpu_op / user_annotation, args
/// "External id", "Sequence number", "Fwd thread id", the event's args_json and, for host
/// syncs, "steplint_host_sync": 1.
void writeHostEvent(trace::KinetoJsonWriter& out, const HostEvent& event, int64_t pid, int64_t tid);

/// process_name, process_labels and process_sort_index 'M' events: a CPU process ("CPU",
/// sort index = pid) or a GPU ("GPU 0", 0x1000000 + device), as Kineto writes them.
void writeProcessMetadata(trace::KinetoJsonWriter& out, int64_t pid, std::string_view process_name,
                          std::string_view labels, int64_t sort_index, int64_t ts_ns);

/// thread_name (as given: "thread 42 (name)", "stream 7 ") and thread_sort_index = tid.
void writeThreadMetadata(trace::KinetoJsonWriter& out, int64_t pid, int64_t tid,
                         std::string_view thread_name, int64_t ts_ns);

/// One MemoryProbe sample as Kineto's allocator instant: `[memory]` (cat cpu_instant_event,
/// ph i, s t) at the peak's time, "Total Allocated" / "Total Reserved" = the peaks, "Bytes" 0,
/// "Device Type" 1 (CUDA), plus "steplint_peak_sample": 1 so readers can tell a per-step peak
/// sample from torch.profiler's per-allocation events.
void writeMemorySample(trace::KinetoJsonWriter& out, const MemorySample& sample, int64_t pid,
                       int64_t tid);

/// The process's resident set size at one captured step boundary.
struct HostMemorySample {
  int64_t ts_ns = 0;
  int64_t rss_bytes = 0;
  int64_t tid = 0;  // the thread that crossed the boundary
};

/// One host memory sample as a Chrome-trace counter (ph C) named trace::kHostMemoryCounter,
/// which Perfetto and chrome://tracing draw as a track and SL404 reads.
void writeHostMemorySample(trace::KinetoJsonWriter& out, const HostMemorySample& sample,
                           int64_t pid);

/// The "PyTorch Profiler (0)" span on pid "Spans" (tb_plugin's utilisation range).
void writeSpan(trace::KinetoJsonWriter& out, int64_t start_ns, int64_t end_ns);

/// Run facts for the trace header: host_name, pid, command_line, cpu_cores, rank/local_rank/
/// world_size (when set in config).
RawJsonPairs collectRunMetadata(const CollectorConfig& config);

std::string jsonString(std::string_view text);
/// {"k": raw, ...} from raw JSON values.
std::string jsonObject(const RawJsonPairs& members);
std::string jsonStringArray(const std::vector<std::string>& items);

}  // namespace steplint::collector
