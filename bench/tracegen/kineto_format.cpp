#include "tracegen/kineto_format.h"

#include <charconv>
#include <cstdio>

namespace steplint::bench {

void appendInt(std::string& out, int64_t value) {
  char buf[24];
  auto res = std::to_chars(buf, buf + sizeof(buf), value);
  out.append(buf, static_cast<size_t>(res.ptr - buf));
}

void appendMicros(std::string& out, int64_t ns) {
  if (ns < 0) ns = 0;  // Kineto clamps relative times and durations at 0
  appendInt(out, ns / 1000);
  int64_t frac = ns % 1000;
  char buf[4] = {'.', static_cast<char>('0' + frac / 100), static_cast<char>('0' + frac / 10 % 10),
                 static_cast<char>('0' + frac % 10)};
  out.append(buf, 4);
}

void appendDouble(std::string& out, double value) {
  char buf[32];
  auto res = std::to_chars(buf, buf + sizeof(buf), value);
  out.append(buf, static_cast<size_t>(res.ptr - buf));
}

void appendJsonString(std::string& out, std::string_view text) {
  out += '"';
  for (char c : text) {
    auto u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (u < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof(buf), "\\u%04x", u);
      out += buf;
    } else {
      out += c;
    }
  }
  out += '"';
}

namespace {

std::string_view categoryName(CpuCategory c) {
  switch (c) {
    case CpuCategory::kCpuOp:
      return "cpu_op";
    case CpuCategory::kUserAnnotation:
      return "user_annotation";
    case CpuCategory::kRuntime:
      return "cuda_runtime";
  }
  return "cpu_op";
}

// `"ph": "X", "cat": "...", "name": "...", "pid": P, "tid": T,\n    "ts": ..., "dur": ...,`
void completeHead(std::string& out, std::string_view cat, std::string_view name, int64_t pid,
                  int64_t tid, int64_t start_ns, int64_t dur_ns) {
  out += ",\n  {\n    \"ph\": \"X\", \"cat\": \"";
  out += cat;
  out += "\", \"name\": ";
  appendJsonString(out, name);
  out += ", \"pid\": ";
  appendInt(out, pid);
  out += ", \"tid\": ";
  appendInt(out, tid);
  out += ",\n    \"ts\": ";
  appendMicros(out, start_ns);
  out += ", \"dur\": ";
  appendMicros(out, dur_ns);
  out += ",\n    \"args\": {\n";
}

constexpr std::string_view kEventTail = "\n    }\n  }";

}  // namespace

void KinetoFormatter::header(std::string& out) const {
  out += "{\n  \"schemaVersion\": 1,\n  \"deviceProperties\": [\n    {\n";
  out += "      \"id\": ";
  appendInt(out, layout_.device);
  out += ", \"name\": \"NVIDIA A100-SXM4-80GB\", \"totalGlobalMem\": 85097971712,\n";
  out += "      \"computeMajor\": 8, \"computeMinor\": 0,\n";
  out += "      \"maxThreadsPerBlock\": 1024, \"maxThreadsPerMultiprocessor\": ";
  appendInt(out, layout_.max_threads_per_sm);
  out += ",\n      \"regsPerBlock\": 65536, \"warpSize\": 32,\n";
  out += "      \"sharedMemPerBlock\": 49152, \"numSms\": ";
  appendInt(out, layout_.num_sms);
  out +=
      ",\n      \"regsPerMultiprocessor\": 65536, \"sharedMemPerBlockOptin\": 166912,"
      " \"sharedMemPerMultiprocessor\": 167936\n    }\n  ],\n";
  // "rank": 0 with a space: HTA finds the rank with the regex "rank":\s+(\d+).
  if (layout_.distributed_info.empty()) {
    out += "  \"distributedInfo\": {\"rank\": 0},\n";
  } else if (layout_.distributed_info != "-") {
    out += "  \"distributedInfo\": ";
    out += layout_.distributed_info;
    out += ",\n";
  }
  out += "  \"profile_memory\": 1,\n  \"cupti_version\": 18,\n  \"cuda_runtime_version\": 12040,\n";
  out += "  \"cuda_driver_version\": 12040,\n";
  out += "  \"displayTimeUnit\": \"ms\",\n  \"baseTimeNanoseconds\": ";
  appendInt(out, layout_.base_time_ns);
  out +=
      ",\n  \"traceEvents\": [\n  {\n    \"name\": \"process_name\", \"ph\": \"M\", \"ts\": 0.000, \"pid\": ";
  appendInt(out, layout_.cpu_pid);
  out += ", \"tid\": 0,\n    \"args\": {\n      \"name\": \"python3.10\"\n    }\n  }";
}

void KinetoFormatter::metadata(std::string& out, std::string_view name, int64_t pid, int64_t tid,
                               std::string_view key, std::string_view string_value) const {
  out += ",\n  {\n    \"name\": \"";
  out += name;
  out += "\", \"ph\": \"M\", \"ts\": 0.000, \"pid\": ";
  appendInt(out, pid);
  out += ", \"tid\": ";
  appendInt(out, tid);
  out += ",\n    \"args\": {\n      \"";
  out += key;
  out += "\": ";
  appendJsonString(out, string_value);
  out += kEventTail;
}

void KinetoFormatter::metadataSortIndex(std::string& out, std::string_view name, int64_t pid,
                                        int64_t tid, int64_t index) const {
  out += ",\n  {\n    \"name\": \"";
  out += name;
  out += "\", \"ph\": \"M\", \"ts\": 0.000, \"pid\": ";
  appendInt(out, pid);
  out += ", \"tid\": ";
  appendInt(out, tid);
  out += ",\n    \"args\": {\n      \"sort_index\": ";
  appendInt(out, index);
  out += kEventTail;
}

void KinetoFormatter::cpu(std::string& out, const CpuEvent& e) const {
  completeHead(out, categoryName(e.category), e.name, layout_.cpu_pid, e.tid, e.start_ns, e.dur_ns);
  if (e.category == CpuCategory::kRuntime) {
    out += "      \"cbid\": ";
    appendInt(out, e.cbid);
    out += ", \"correlation\": ";
    appendInt(out, e.correlation);
    out += ",\n      \"External id\": ";
    appendInt(out, e.external_id);
  } else {
    out += "      \"External id\": ";
    appendInt(out, e.external_id);
    out += ",\"Record function id\": 0";
    if (e.sequence_number >= 0) {
      out += ", \"Sequence number\": ";
      appendInt(out, e.sequence_number);
      out += ", \"Fwd thread id\": ";
      appendInt(out, e.fwd_thread_id);
    }
    out += ", \"Ev Idx\": ";
    appendInt(out, e.ev_idx);
  }
  if (!e.extra_args.empty()) {
    out += ",\n      ";
    out += e.extra_args;
  }
  out += kEventTail;
  if (e.flow_start) ac2gFlow(out, 's', e.correlation, layout_.cpu_pid, e.tid, e.start_ns);
}

void KinetoFormatter::kernelArgs(std::string& out, const GpuEvent& e) const {
  const KernelShape& s = e.shape;
  double blocks = static_cast<double>(s.grid[0]) * s.grid[1] * s.grid[2];
  int threads = s.block[0] * s.block[1] * s.block[2];
  double blocks_per_sm = blocks / layout_.num_sms;
  double resident = s.active_blocks_per_sm < blocks_per_sm ? s.active_blocks_per_sm : blocks_per_sm;
  // Kineto's formula: round(100 * min(active, blocks/SM) * threads / maxThreadsPerSM).
  auto occupancy =
      static_cast<int64_t>(100.0 * resident * threads / layout_.max_threads_per_sm + 0.5);
  out += ",\n      \"registers per thread\": ";
  appendInt(out, s.registers_per_thread);
  out += ",\n      \"shared memory\": ";
  appendInt(out, s.shared_memory);
  out += ",\n      \"blocks per SM\": ";
  appendDouble(out, blocks_per_sm);
  out += ",\n      \"warps per SM\": ";
  appendDouble(out, blocks_per_sm * threads / 32.0);
  out += ",\n      \"grid\": [";
  for (int i = 0; i < 3; ++i) {
    if (i) out += ", ";
    appendInt(out, s.grid[i]);
  }
  out += "],\n      \"block\": [";
  for (int i = 0; i < 3; ++i) {
    if (i) out += ", ";
    appendInt(out, s.block[i]);
  }
  out += "],\n      \"est. achieved occupancy %\": ";
  appendInt(out, occupancy > 100 ? 100 : occupancy);
}

void KinetoFormatter::copyArgs(std::string& out, const GpuEvent& e) const {
  out += ",\n      \"bytes\": ";
  appendInt(out, e.bytes);
  if (e.dur_ns > 0) {
    out += ", \"memory bandwidth (GB/s)\": ";
    appendDouble(out, static_cast<double>(e.bytes) / static_cast<double>(e.dur_ns));
  }
}

void KinetoFormatter::gpu(std::string& out, const GpuEvent& e) const {
  std::string_view cat = e.kind == GpuKind::kKernel   ? "kernel"
                         : e.kind == GpuKind::kMemcpy ? "gpu_memcpy"
                                                      : "gpu_memset";
  completeHead(out, cat, e.name, layout_.device, layout_.stream, e.start_ns, e.dur_ns);
  out += "      \"External id\": ";
  appendInt(out, e.external_id);
  out += ",\n      \"queued\": 0, \"device\": ";
  appendInt(out, layout_.device);
  out += ", \"context\": 1,\n      \"stream\": ";
  appendInt(out, layout_.stream);
  out += ", \"correlation\": ";
  appendInt(out, e.correlation);
  if (e.kind == GpuKind::kKernel) {
    kernelArgs(out, e);
  } else {
    copyArgs(out, e);
  }
  if (!e.extra_args.empty()) {
    out += ",\n      ";
    out += e.extra_args;
  }
  out += kEventTail;
  ac2gFlow(out, 'f', e.correlation, layout_.device, layout_.stream, e.start_ns);
}

void KinetoFormatter::ac2gFlow(std::string& out, char phase, int64_t id, int64_t pid, int64_t tid,
                               int64_t ts_ns) const {
  out += ",\n  {\n    \"ph\": \"";
  out += phase;
  out += "\", \"id\": ";
  appendInt(out, id);
  out += ", \"pid\": ";
  appendInt(out, pid);
  out += ", \"tid\": ";
  appendInt(out, tid);
  out += ", \"ts\": ";
  appendMicros(out, ts_ns);
  out += ",\n    \"cat\": \"ac2g\", \"name\": \"ac2g\"";
  if (phase == 'f') out += ", \"bp\": \"e\"";
  out += "\n  }";
}

void KinetoFormatter::fwdbwdFlow(std::string& out, char phase, int64_t id, int64_t tid,
                                 int64_t ts_ns) const {
  out += ",\n  {\n    \"ph\": \"";
  out += phase;
  out += "\", \"id\": ";
  appendInt(out, id);
  out += ", \"pid\": ";
  appendInt(out, layout_.cpu_pid);
  out += ", \"tid\": ";
  appendInt(out, tid);
  out += ", \"ts\": ";
  appendMicros(out, ts_ns);
  out += ",\n    \"cat\": \"fwdbwd\", \"name\": \"fwdbwd\"";
  if (phase == 'f') out += ", \"bp\": \"e\"";
  out += "\n  }";
}

void KinetoFormatter::memory(std::string& out, const MemoryInstant& m) const {
  out +=
      ",\n  {\n    \"ph\": \"i\", \"cat\": \"cpu_instant_event\", \"s\": \"t\", \"name\": \"[memory]\",\n"
      "    \"pid\": ";
  appendInt(out, layout_.cpu_pid);
  out += ", \"tid\": ";
  appendInt(out, m.tid);
  out += ",\n    \"ts\": ";
  appendMicros(out, m.ts_ns);
  out += ",\n    \"args\": {\n      \"Total Reserved\": ";
  appendInt(out, m.total_reserved);
  out += ", \"Total Allocated\": ";
  appendInt(out, m.total_allocated);
  out += ", \"Bytes\": ";
  appendInt(out, m.bytes);
  out += ", \"Addr\": ";
  appendInt(out, static_cast<int64_t>(m.addr));
  out += ", \"Device Id\": ";
  appendInt(out, m.device_id);
  out += ", \"Device Type\": ";
  appendInt(out, m.device_type);
  out += ", \"Ev Idx\": ";
  appendInt(out, m.ev_idx);
  out += kEventTail;
}

void KinetoFormatter::globalInstant(std::string& out, std::string_view name, std::string_view pid,
                                    std::string_view tid, int64_t ts_ns) const {
  out += ",\n  {\n    \"name\": ";
  appendJsonString(out, name);
  out += ",\n    \"ph\": \"i\", \"s\": \"g\",\n    \"pid\": ";
  appendJsonString(out, pid);
  out += ", \"tid\": ";
  appendJsonString(out, tid);
  out += ",\n    \"ts\": ";
  appendMicros(out, ts_ns);
  out += "\n  }";
}

void KinetoFormatter::span(std::string& out, int64_t start_ns, int64_t dur_ns) const {
  out += ",\n  {\n    \"ph\": \"X\", \"cat\": \"Trace\", \"ts\": ";
  appendMicros(out, start_ns);
  out += ", \"dur\": ";
  appendMicros(out, dur_ns);
  out +=
      ",\n    \"pid\": \"Spans\", \"tid\": \"PyTorch Profiler\",\n"
      "    \"name\": \"PyTorch Profiler (0)\",\n    \"args\": {\n      \"Op count\": 0\n    }\n  }";
}

void KinetoFormatter::footer(std::string& out, std::string_view trace_name) const {
  out += "\n],\n  \"traceName\": ";
  appendJsonString(out, trace_name);
  out += "\n}\n";
}

}  // namespace steplint::bench
