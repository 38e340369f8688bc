// Builds small Kineto JSON traces for the trace-health, input-pipeline and transfer rule
// tests: steps, CPU ops, runtime calls, kernels, memcpys with memory kinds and bytes, and
// cuda_sync records. Times are µs (as Kineto writes them). Runtime calls carry no External
// id, so the importer links them to the innermost enclosing CPU op (their parent).
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "steplint/analyzer/diagnostic.h"

namespace steplint::test {

class KinetoTrace {
 public:
  static constexpr int kPid = 100;
  static constexpr int kDevice = 0;
  static constexpr int kStream = 7;

  KinetoTrace& device(int id, int major = 8) {
    devices_.push_back("{\"id\": " + std::to_string(id) + ", \"name\": \"Test GPU\", \"totalGlobalMem\": 34084028416, " +
                       "\"computeMajor\": " + std::to_string(major) + ", \"computeMinor\": 0, \"numSms\": 80}");
    return *this;
  }
  KinetoTrace& step(int n, double ts, double dur) { return annotation("ProfilerStep#" + std::to_string(n), ts, dur); }
  KinetoTrace& annotation(const std::string& name, double ts, double dur, int tid = 1) {
    add("user_annotation", name, kPid, tid, ts, dur, "\"External id\": " + std::to_string(next_ext_++));
    return *this;
  }
  KinetoTrace& python(const std::string& name, double ts, double dur, int tid = 1) {
    add("python_function", name, kPid, tid, ts, dur, "\"Python id\": " + std::to_string(next_ext_++));
    return *this;
  }
  KinetoTrace& op(const std::string& name, double ts, double dur, int tid = 1) {
    add("cpu_op", name, kPid, tid, ts, dur, "\"External id\": " + std::to_string(next_ext_++));
    return *this;
  }
  /// A cpu_op that records the autograd sequence counter as it was when it started.
  KinetoTrace& seqOp(const std::string& name, double ts, double dur, int64_t sequence_number, int tid = 1) {
    add("cpu_op", name, kPid, tid, ts, dur,
        "\"External id\": " + std::to_string(next_ext_++) + ", \"Sequence number\": " + std::to_string(sequence_number));
    return *this;
  }
  /// A runtime call with no device op (cudaStreamSynchronize, cudaFree ...).
  KinetoTrace& runtime(const std::string& name, double ts, double dur, int tid = 1) {
    add("cuda_runtime", name, kPid, tid, ts, dur, "\"correlation\": " + std::to_string(next_corr_++));
    return *this;
  }
  /// cudaLaunchKernel at [ts, ts+dur) and its kernel at [k_ts, k_ts+k_dur).
  KinetoTrace& kernel(double ts, double dur, double k_ts, double k_dur, const std::string& name = "gemm_kernel",
                      int tid = 1) {
    const std::string corr = "\"correlation\": " + std::to_string(next_corr_++);
    add("cuda_runtime", "cudaLaunchKernel", kPid, tid, ts, dur, corr);
    add("kernel", name, kDevice, kStream, k_ts, k_dur, corr + deviceArgs());
    return *this;
  }
  /// A copy API call at [ts, ts+dur) and its memcpy `Memcpy {kind} ({src} -> {dst})`.
  KinetoTrace& copy(const std::string& kind, const std::string& src, const std::string& dst, double ts, double dur,
                    double c_ts, double c_dur, int64_t bytes, const std::string& api = "cudaMemcpyAsync", int tid = 1) {
    const std::string corr = "\"correlation\": " + std::to_string(next_corr_++);
    add("cuda_runtime", api, kPid, tid, ts, dur, corr);
    add("gpu_memcpy", "Memcpy " + kind + " (" + src + " -> " + dst + ")", kDevice, kStream, c_ts, c_dur,
        corr + deviceArgs() + ", \"bytes\": " + std::to_string(bytes));
    return *this;
  }
  /// A cuda_sync record (enable_cuda_sync_events); correlation < 0 = matches no API call.
  KinetoTrace& syncRecord(const std::string& name, double ts, double dur, int64_t correlation = -1) {
    add("cuda_sync", name, kDevice, kStream, ts, dur,
        "\"correlation\": " + std::to_string(correlation) + deviceArgs() + ", \"cuda_sync_kind\": \"" + name + "\"");
    return *this;
  }
  /// A top-level key with its raw JSON value (steplint record's cpu_cores, add_metadata_json).
  KinetoTrace& metadata(const std::string& key, const std::string& raw_json) {
    metadata_ += "\"" + key + "\": " + raw_json + ", ";
    return *this;
  }
  std::string str() const {
    // Hand-built events carry no profiler cost: say so, or the replay would take out the
    // estimate it uses for torch.profiler traces (docs/savings.md).
    std::string out =
        "{\"schemaVersion\": 1, \"steplint_op_overhead_ns\": 0, " + metadata_ + "\"deviceProperties\": [";
    for (size_t i = 0; i < devices_.size(); ++i) out += (i ? ", " : "") + devices_[i];
    out += "], \"traceEvents\": [\n";
    for (size_t i = 0; i < events_.size(); ++i) out += (i ? ",\n" : "") + events_[i];
    return out + "\n]}";
  }

 private:
  static std::string deviceArgs() {
    return ", \"device\": " + std::to_string(kDevice) + ", \"stream\": " + std::to_string(kStream);
  }
  static std::string num(double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.3f", v);
    return buf;
  }
  void add(const std::string& cat, const std::string& name, int pid, int tid, double ts, double dur,
           const std::string& args) {
    events_.push_back("{\"ph\": \"X\", \"cat\": \"" + cat + "\", \"name\": \"" + name + "\", \"pid\": " +
                      std::to_string(pid) + ", \"tid\": " + std::to_string(tid) + ", \"ts\": " + num(ts) +
                      ", \"dur\": " + num(dur) + ", \"args\": {" + args + "}}");
  }
  std::vector<std::string> devices_, events_;
  std::string metadata_;
  int64_t next_ext_ = 1;
  int64_t next_corr_ = 1000;
};

/// A metric of a diagnostic's evidence, or -1 when absent.
inline double metricOf(const analyzer::Diagnostic& d, const std::string& key) { return d.evidence.metric(key, -1); }

}  // namespace steplint::test
