// Builds small Kineto JSON traces for tests that go through the real importer (every rule
// test, and any other test that wants a trace file's JSON): steps, annotations, CPU ops,
// runtime calls, kernels and copies with their launch calls, cuda_sync records, [memory]
// events, counters and top-level metadata. Times are µs, as Kineto writes them; device ops
// get pid = device and tid = stream. Runtime calls made by kernel(), copy() and runtime() carry
// no External id, so the importer links them to the innermost enclosing CPU op (their parent);
// launch() names the op explicitly.
//
//   KinetoTrace t;
//   t.device(0);
//   forEachStep(t, 3, 10000, [&](int, double b) {  // steps 1..3 of 10 ms
//     t.op("aten::mm", b + 10, 100).kernel(b + 20, 10, b + 50, 500);
//   });
//   const std::string json = t.str();
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace steplint::test {

class KinetoTrace {
 public:
  static constexpr int kPid = 100;
  static constexpr int kDevice = 0;
  static constexpr int kStream = 7;
  static constexpr int64_t kDefaultDeviceMemory = 34084028416;  // 32 GiB, a V100's

  /// A deviceProperties entry.
  KinetoTrace& device(int id, int major = 8, int minor = 0,
                      int64_t total_mem = kDefaultDeviceMemory,
                      const std::string& name = "Test GPU") {
    devices_.push_back("{\"id\": " + std::to_string(id) + ", \"name\": \"" + name +
                       "\", \"totalGlobalMem\": " + std::to_string(total_mem) +
                       ", \"computeMajor\": " + std::to_string(major) +
                       ", \"computeMinor\": " + std::to_string(minor) + ", \"numSms\": 80}");
    return *this;
  }
  /// A top-level key with its raw JSON value (steplint record's cpu_cores, distributedInfo,
  /// torch.profiler's add_metadata_json).
  KinetoTrace& metadata(const std::string& key, const std::string& raw_json) {
    metadata_.push_back("\"" + key + "\": " + raw_json);
    return *this;
  }

  KinetoTrace& step(int n, double ts, double dur) {
    return annotation("ProfilerStep#" + std::to_string(n), ts, dur);
  }
  KinetoTrace& annotation(const std::string& name, double ts, double dur, int tid = 1) {
    add("user_annotation", name, kPid, tid, ts, dur, externalId());
    return *this;
  }
  KinetoTrace& python(const std::string& name, double ts, double dur, int tid = 1) {
    add("python_function", name, kPid, tid, ts, dur,
        "\"Python id\": " + std::to_string(next_ext_++));
    return *this;
  }
  /// A cpu_op; lastExternalId() is its External id (for launch()).
  KinetoTrace& op(const std::string& name, double ts, double dur, int tid = 1) {
    return opWithArgs(name, ts, dur, "", tid);
  }
  /// A cpu_op with raw extra args (`"Input Dims": [[32, 3], []]`,
  /// `"Input type": ["TensorList", "Scalar"]`).
  KinetoTrace& opWithArgs(const std::string& name, double ts, double dur,
                          const std::string& raw_args, int tid = 1) {
    add("cpu_op", name, kPid, tid, ts, dur,
        externalId() + (raw_args.empty() ? "" : ", " + raw_args));
    return *this;
  }
  /// A cpu_op that records the autograd sequence counter as it was when it started.
  KinetoTrace& seqOp(const std::string& name, double ts, double dur, int64_t sequence_number,
                     int tid = 1) {
    return opWithArgs(name, ts, dur, "\"Sequence number\": " + std::to_string(sequence_number),
                      tid);
  }
  /// The External id of the last step, annotation or op.
  int64_t lastExternalId() const { return next_ext_ - 1; }

  /// A runtime call with no device op (cudaStreamSynchronize, cudaFree ...).
  KinetoTrace& runtime(const std::string& name, double ts, double dur, int tid = 1) {
    add("cuda_runtime", name, kPid, tid, ts, dur, correlation());
    return *this;
  }
  /// cudaLaunchKernel at [ts, ts+dur) and its kernel at [k_ts, k_ts+k_dur) on the default
  /// device and stream.
  KinetoTrace& kernel(double ts, double dur, double k_ts, double k_dur,
                      const std::string& name = "gemm_kernel", int tid = 1) {
    const std::string corr = correlation();
    add("cuda_runtime", "cudaLaunchKernel", kPid, tid, ts, dur, corr);
    add("kernel", name, kDevice, kStream, k_ts, k_dur, corr + deviceArgs(kDevice, kStream));
    return *this;
  }
  /// A launch call at [ts, ts+dur) issued by op `ext` and the device op it causes at
  /// [k_ts, k_ts+k_dur): cudaLaunchKernel for a kernel, cudaMemcpyAsync for any other `cat`.
  KinetoTrace& launch(int64_t ext, double ts, double dur, const std::string& kernel, double k_ts,
                      double k_dur, int device = kDevice, int stream = kStream,
                      const std::string& cat = "kernel", int tid = 1) {
    const std::string ids = "\"External id\": " + std::to_string(ext) + ", " + correlation();
    add("cuda_runtime", cat == "kernel" ? "cudaLaunchKernel" : "cudaMemcpyAsync", kPid, tid, ts,
        dur, ids);
    add(cat, kernel, device, stream, k_ts, k_dur, ids + deviceArgs(device, stream));
    return *this;
  }
  /// cudaGraphLaunch at [ts, ts+dur), issued by op `ext`, and the kernels the graph replays,
  /// all sharing the call's correlation (as CUPTI records them).
  struct GraphKernel {
    std::string name;
    double ts, dur;
  };
  KinetoTrace& graphLaunch(int64_t ext, double ts, double dur,
                           const std::vector<GraphKernel>& kernels) {
    const std::string ids = "\"External id\": " + std::to_string(ext) + ", " + correlation();
    add("cuda_runtime", "cudaGraphLaunch", kPid, 1, ts, dur, ids);
    for (const GraphKernel& k : kernels)
      add("kernel", k.name, kDevice, kStream, k.ts, k.dur, ids + deviceArgs(kDevice, kStream));
    return *this;
  }
  /// A copy API call at [ts, ts+dur) and its memcpy `Memcpy {kind} ({src} -> {dst})`.
  KinetoTrace& copy(const std::string& kind, const std::string& src, const std::string& dst,
                    double ts, double dur, double c_ts, double c_dur, int64_t bytes,
                    const std::string& api = "cudaMemcpyAsync", int tid = 1) {
    const std::string corr = correlation();
    add("cuda_runtime", api, kPid, tid, ts, dur, corr);
    add("gpu_memcpy", "Memcpy " + kind + " (" + src + " -> " + dst + ")", kDevice, kStream, c_ts,
        c_dur, corr + deviceArgs(kDevice, kStream) + ", \"bytes\": " + std::to_string(bytes));
    return *this;
  }
  /// A cuda_sync record (enable_cuda_sync_events); correlation < 0 = matches no API call.
  KinetoTrace& syncRecord(const std::string& name, double ts, double dur,
                          int64_t correlation = -1) {
    add("cuda_sync", name, kDevice, kStream, ts, dur,
        "\"correlation\": " + std::to_string(correlation) + deviceArgs(kDevice, kStream) +
            ", \"cuda_sync_kind\": \"" + name + "\"");
    return *this;
  }

  /// A `[memory]` instant event (device_type 1 = CUDA, 0 = CPU with device_id -1).
  KinetoTrace& memory(double ts, int64_t total_allocated, int device_type = 1, int device_id = 0,
                      int64_t bytes = 512) {
    addMemory("\"cat\": \"cpu_instant_event\", ", ts,
              "\"Total Reserved\": " + std::to_string(total_allocated) + ", \"Total Allocated\": " +
                  std::to_string(total_allocated) + ", \"Bytes\": " + std::to_string(bytes) +
                  ", \"Device Id\": " + std::to_string(device_id) +
                  ", \"Device Type\": " + std::to_string(device_type));
    return *this;
  }
  /// A legacy 2021 `[memory]` event: no category, only Device Type, Device Id and Bytes.
  KinetoTrace& legacyMemory(double ts, int64_t bytes, int device_type = 1, int device_id = 0) {
    addMemory("", ts,
              "\"Device Type\": " + std::to_string(device_type) + ", \"Device Id\": " +
                  std::to_string(device_id) + ", \"Bytes\": " + std::to_string(bytes));
    return *this;
  }
  /// A counter sample (ph C): one series of a named counter track.
  KinetoTrace& counter(const std::string& name, double ts, const std::string& series,
                       int64_t value) {
    events_.push_back("{\"ph\": \"C\", \"name\": \"" + name +
                      "\", \"pid\": " + std::to_string(kPid) + ", \"tid\": 1, \"ts\": " + num(ts) +
                      ", \"args\": {\"" + series + "\": " + std::to_string(value) + "}}");
    return *this;
  }

  std::string str() const {
    // Hand-built events carry no profiler cost: say so, or the replay would take out the
    // estimate it uses for torch.profiler traces (docs/savings.md).
    std::string out = "{\"schemaVersion\": 1, \"steplint_op_overhead_ns\": 0";
    for (const std::string& m : metadata_) out += ", " + m;
    if (!devices_.empty()) {
      out += ", \"deviceProperties\": [";
      for (size_t i = 0; i < devices_.size(); ++i) out += (i ? ", " : "") + devices_[i];
      out += "]";
    }
    out += ", \"traceEvents\": [\n";
    for (size_t i = 0; i < events_.size(); ++i) out += (i ? ",\n" : "") + events_[i];
    return out + "\n]}";
  }

 private:
  std::string externalId() { return "\"External id\": " + std::to_string(next_ext_++); }
  std::string correlation() { return "\"correlation\": " + std::to_string(next_corr_++); }
  static std::string deviceArgs(int device, int stream) {
    return ", \"device\": " + std::to_string(device) + ", \"stream\": " + std::to_string(stream);
  }
  static std::string num(double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.3f", v);
    return buf;
  }
  void addMemory(const std::string& category, double ts, const std::string& args) {
    events_.push_back("{\"ph\": \"i\", " + category +
                      "\"s\": \"t\", \"name\": \"[memory]\", \"pid\": " + std::to_string(kPid) +
                      ", \"tid\": 1, \"ts\": " + num(ts) + ", \"args\": {" + args + "}}");
  }
  void add(const std::string& cat, const std::string& name, int pid, int tid, double ts, double dur,
           const std::string& args) {
    events_.push_back("{\"ph\": \"X\", \"cat\": \"" + cat + "\", \"name\": \"" + name +
                      "\", \"pid\": " + std::to_string(pid) + ", \"tid\": " + std::to_string(tid) +
                      ", \"ts\": " + num(ts) + ", \"dur\": " + num(dur) + ", \"args\": {" + args +
                      "}}");
  }

  std::vector<std::string> devices_, metadata_, events_;
  int64_t next_ext_ = 1;
  int64_t next_corr_ = 1000;
};

/// Adds `count` back-to-back steps of `period_us`, the first at 0 and numbered `kFirst`
/// (ProfilerStep#1, 2, ... unless told otherwise), and calls `body(n, step_start_us)` for each
/// after its step range. Works with any builder that has step(n, ts, dur): KinetoTrace,
/// tests/analyzer's TestTrace.
///
///   forEachStep<0>(t, 2, 1000, [&](int, double at) { t.op("aten::mm", at + 10, 20); });
template <int kFirst = 1, class Trace, class Body>
void forEachStep(Trace& trace, int count, double period_us, Body body) {
  for (int i = 0; i < count; ++i) {
    const double at = period_us * i;
    trace.step(kFirst + i, at, period_us);
    body(kFirst + i, at);
  }
}

}  // namespace steplint::test
