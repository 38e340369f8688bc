// Builds small Kineto JSON traces for the GPU-execution, memory, distributed and optimizer
// rule tests. Times are µs (as Kineto writes them); kernels get pid = device, tid = stream.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace steplint::test {

class JsonTrace {
 public:
  static constexpr int kPid = 100;

  /// deviceProperties entry.
  JsonTrace& device(int id, int major, int minor, int64_t total_mem = 34084028416,
                    const std::string& name = "Tesla V100") {
    devices_.push_back("{\"id\": " + std::to_string(id) + ", \"name\": \"" + name + "\", \"totalGlobalMem\": " +
                       std::to_string(total_mem) + ", \"computeMajor\": " + std::to_string(major) +
                       ", \"computeMinor\": " + std::to_string(minor) + ", \"numSms\": 80}");
    return *this;
  }
  /// A top-level metadata key with its raw JSON value.
  JsonTrace& meta(const std::string& key, const std::string& raw_value) {
    meta_.push_back("\"" + key + "\": " + raw_value);
    return *this;
  }
  JsonTrace& step(int n, double ts, double dur) { return annotation("ProfilerStep#" + std::to_string(n), ts, dur); }
  JsonTrace& annotation(const std::string& name, double ts, double dur, int tid = 1) {
    add("user_annotation", name, kPid, tid, ts, dur, "\"External id\": " + std::to_string(next_ext_++));
    return *this;
  }
  JsonTrace& python(const std::string& name, double ts, double dur, int tid = 1) {
    add("python_function", name, kPid, tid, ts, dur, "\"Python id\": " + std::to_string(next_ext_++));
    return *this;
  }
  /// A cpu_op; returns its External id (for launch()). `dims` is raw JSON ("[[32, 3], []]").
  int64_t op(const std::string& name, double ts, double dur, const std::string& dims = "", int tid = 1) {
    const int64_t ext = next_ext_++;
    std::string args = "\"External id\": " + std::to_string(ext);
    if (!dims.empty()) args += ", \"Input Dims\": " + dims;
    add("cpu_op", name, kPid, tid, ts, dur, args);
    return ext;
  }
  /// A cpu_op with raw extra args (`"Input type": ["TensorList", "Scalar"]`); returns its External id.
  int64_t opWithArgs(const std::string& name, double ts, double dur, const std::string& raw_args, int tid = 1) {
    const int64_t ext = next_ext_++;
    add("cpu_op", name, kPid, tid, ts, dur,
        "\"External id\": " + std::to_string(ext) + (raw_args.empty() ? "" : ", " + raw_args));
    return ext;
  }
  /// A cudaLaunchKernel at [ts, ts+dur) issued by op `ext` and the device op it causes.
  JsonTrace& launch(int64_t ext, double ts, double dur, const std::string& kernel, double k_ts, double k_dur,
                    int device = 0, int stream = 7, const std::string& cat = "kernel", int tid = 1) {
    const int64_t corr = next_corr_++;
    const std::string ids = "\"External id\": " + std::to_string(ext) + ", \"correlation\": " + std::to_string(corr);
    add("cuda_runtime", cat == "kernel" ? "cudaLaunchKernel" : "cudaMemcpyAsync", kPid, tid, ts, dur, ids);
    add(cat, kernel, device, stream, k_ts, k_dur,
        ids + ", \"device\": " + std::to_string(device) + ", \"stream\": " + std::to_string(stream));
    return *this;
  }
  JsonTrace& runtime(const std::string& name, double ts, double dur, int tid = 1) {
    add("cuda_runtime", name, kPid, tid, ts, dur, "\"correlation\": " + std::to_string(next_corr_++));
    return *this;
  }
  /// A `[memory]` instant event (device_type 1 = CUDA, 0 = CPU with device_id -1).
  JsonTrace& memory(double ts, int64_t total_allocated, int device_type = 1, int device_id = 0, int64_t bytes = 512) {
    events_.push_back(
        "{\"ph\": \"i\", \"cat\": \"cpu_instant_event\", \"s\": \"t\", \"name\": \"[memory]\", \"pid\": " +
        std::to_string(kPid) + ", \"tid\": 1, \"ts\": " + num(ts) +
        ", \"args\": {\"Total Reserved\": " + std::to_string(total_allocated) +
        ", \"Total Allocated\": " + std::to_string(total_allocated) + ", \"Bytes\": " + std::to_string(bytes) +
        ", \"Device Id\": " + std::to_string(device_id) + ", \"Device Type\": " + std::to_string(device_type) + "}}");
    return *this;
  }
  /// A counter sample (ph C): one series of a named counter track.
  JsonTrace& counter(const std::string& name, double ts, const std::string& series, int64_t value) {
    events_.push_back("{\"ph\": \"C\", \"name\": \"" + name + "\", \"pid\": " + std::to_string(kPid) +
                      ", \"tid\": 1, \"ts\": " + num(ts) + ", \"args\": {\"" + series +
                      "\": " + std::to_string(value) + "}}");
    return *this;
  }
  /// A legacy 2021 `[memory]` event: only Device Type, Device Id and Bytes.
  JsonTrace& legacyMemory(double ts, int64_t bytes, int device_type = 1, int device_id = 0) {
    events_.push_back("{\"ph\": \"i\", \"s\": \"t\", \"name\": \"[memory]\", \"pid\": " + std::to_string(kPid) +
                      ", \"tid\": 1, \"ts\": " + num(ts) +
                      ", \"args\": {\"Device Type\": " + std::to_string(device_type) +
                      ", \"Device Id\": " + std::to_string(device_id) + ", \"Bytes\": " + std::to_string(bytes) + "}}");
    return *this;
  }
  std::string str() const {
    // Hand-built events carry no profiler cost: say so, or the replay would take out the
    // estimate it uses for torch.profiler traces (docs/savings.md).
    std::string out = "{\"schemaVersion\": 1, \"steplint_op_overhead_ns\": 0";
    if (!devices_.empty()) {
      out += ", \"deviceProperties\": [";
      for (size_t i = 0; i < devices_.size(); ++i) out += (i ? ", " : "") + devices_[i];
      out += "]";
    }
    for (const std::string& m : meta_) out += ", " + m;
    out += ", \"traceEvents\": [\n";
    for (size_t i = 0; i < events_.size(); ++i) out += (i ? ",\n" : "") + events_[i];
    return out + "\n]}";
  }

 private:
  static std::string num(double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.3f", v);
    return buf;
  }
  void add(const std::string& cat, const std::string& name, int pid, int tid, double ts, double dur,
           const std::string& args) {
    events_.push_back("{\"ph\": \"X\", \"cat\": \"" + cat + "\", \"name\": \"" + name +
                      "\", \"pid\": " + std::to_string(pid) + ", \"tid\": " + std::to_string(tid) +
                      ", \"ts\": " + num(ts) + ", \"dur\": " + num(dur) + ", \"args\": {" + args + "}}");
  }
  std::vector<std::string> devices_, meta_, events_;
  int64_t next_ext_ = 1;
  int64_t next_corr_ = 1000;
};

}  // namespace steplint::test
