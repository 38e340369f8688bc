// Small hand-made traces for analyzer unit tests. Times are µs (as TraceBuilder::addComplete
// takes them); the model stores ns.
#pragma once

#include <string>

#include "steplint/trace/builder.h"
#include "steplint/trace/model.h"

namespace steplint::test {

class TestTrace {
 public:
  static constexpr int64_t kCpuPid = 100;
  static constexpr int64_t kMainThread = 1;
  static constexpr int64_t kDevice = 0;
  static constexpr int64_t kStream = 7;

  TestTrace() : builder_(model) {}

  uint32_t step(int n, double ts, double dur) {
    return builder_.addComplete(trace::EventKind::kUserAnnotation,
                                "ProfilerStep#" + std::to_string(n), kCpuPid, kMainThread, ts, dur,
                                nextExternalId());
  }
  uint32_t op(const std::string& name, double ts, double dur, int64_t tid = kMainThread) {
    return builder_.addComplete(trace::EventKind::kCpuOp, name, kCpuPid, tid, ts, dur,
                                nextExternalId());
  }
  /// An op that records the autograd sequence counter as it was when it started.
  uint32_t seqOp(const std::string& name, double ts, double dur, int64_t sequence_number,
                 int64_t tid = kMainThread) {
    const uint32_t i = op(name, ts, dur, tid);
    trace::OpDetail detail;
    detail.sequence_number = sequence_number;
    model.events[i].detail = builder_.addOpDetail(detail);
    return i;
  }
  uint32_t annotation(const std::string& name, double ts, double dur, int64_t tid = kMainThread) {
    return builder_.addComplete(trace::EventKind::kUserAnnotation, name, kCpuPid, tid, ts, dur,
                                nextExternalId());
  }
  uint32_t event(trace::EventKind kind, const std::string& name, double ts, double dur,
                 int64_t pid = kCpuPid, int64_t tid = kMainThread) {
    return builder_.addComplete(kind, name, pid, tid, ts, dur);
  }

  /// A launch call at [ts, ts+dur) on the main thread and the device op it causes at
  /// [op_ts, op_ts+op_dur). Returns the device op's index (valid until finalize()).
  uint32_t launch(double ts, double dur, double op_ts, double op_dur,
                  const std::string& kernel = "kernel_a",
                  trace::EventKind op_kind = trace::EventKind::kKernel,
                  trace::EventKind call_kind = trace::EventKind::kRuntime,
                  int64_t stream = kStream) {
    const int64_t corr = next_correlation_++;
    builder_.addComplete(
        call_kind, call_kind == trace::EventKind::kDriver ? "cuLaunchKernel" : "cudaLaunchKernel",
        kCpuPid, kMainThread, ts, dur, trace::kNoId, corr);
    return builder_.addComplete(op_kind, kernel, kDevice, stream, op_ts, op_dur, trace::kNoId,
                                corr);
  }
  /// A device op with no launch call (launched before the profiler started), with CUPTI's
  /// correlation id when given (the launch calls of launch() number from 1000).
  uint32_t orphanKernel(double ts, double dur, const std::string& name = "kernel_orphan",
                        int64_t stream = kStream, int64_t device = kDevice,
                        int64_t correlation = trace::kNoId) {
    return builder_.addComplete(trace::EventKind::kKernel, name, device, stream, ts, dur,
                                trace::kNoId, correlation);
  }

  trace::GpuDetail& gpu(uint32_t event_index) {
    return model.gpu_details[model.events[event_index].detail];
  }
  /// c10d's args on a CPU op (record_param_comms), as "Collective name", "Process Group Name",
  /// "Process Group Ranks", "Seq" and "In msg nelems" give them. Call before finalize().
  void collectiveArgs(uint32_t event_index, const std::string& name, const std::string& group,
                      int64_t seq, const std::string& ranks = "", int64_t nelems = -1) {
    trace::Event& e = model.events[event_index];
    if (e.detail == trace::kNoIndex) e.detail = builder_.addOpDetail({});
    trace::CollectiveDetail c;
    c.owner = e.detail;
    c.name = builder_.intern(name);
    c.group = builder_.intern(group);
    c.group_ranks = builder_.intern(ranks);
    c.seq = seq;
    c.in_nelems = nelems;
    builder_.addCollective(c);
  }
  void finalize() { builder_.finalize(); }

  trace::TraceModel model;

 private:
  int64_t nextExternalId() { return next_external_id_++; }
  trace::TraceBuilder builder_;
  int64_t next_external_id_ = 1;
  int64_t next_correlation_ = 1000;
};

}  // namespace steplint::test
