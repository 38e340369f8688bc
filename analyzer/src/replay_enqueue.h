// When each GPU op entered its queue, as far as the trace tells (for replay_build.cpp): at its
// launch call's start; without a call in the trace, at its own start, unless it was launched
// before the recording began.
#pragma once

#include <algorithm>
#include <cstdint>

#include "steplint/trace/model.h"

namespace steplint::analyzer {

class OpEnqueue {
 public:
  struct Time {
    int64_t at;     // INT64_MIN: before the recording began
    uint32_t call;  // the launch call, trace::kNoIndex without one in the trace
  };

  explicit OpEnqueue(const trace::TraceModel& model) : model_(model) {
    for (const trace::Event& e : model.events) {
      device_ops_ += trace::isDeviceOp(e.kind) ? 1 : 0;
      if (trace::isLaunchApi(e.kind) && e.correlation >= 0)
        first_call_ = std::min(first_call_, e.correlation);
    }
  }

  size_t deviceOps() const { return device_ops_; }

  Time of(const trace::Event& op) const {
    const bool has_call =
        op.link != trace::kNoIndex && trace::isLaunchApi(model_.events[op.link].kind);
    if (has_call) return {model_.events[op.link].start_ns, op.link};
    // CUPTI numbers API calls in order: an op whose call is missing and numbered below every
    // call the trace holds was launched before the recording began. It queued ahead of every
    // launch in the trace (its stream runs it first however late it starts: a host running far
    // ahead of the GPU), so it is not launched at its start. A trace without launch calls
    // keeps every op launched at its start.
    if (first_call_ != INT64_MAX && op.correlation >= 0 && op.correlation < first_call_)
      return {INT64_MIN, trace::kNoIndex};
    return {op.start_ns, trace::kNoIndex};
  }

 private:
  const trace::TraceModel& model_;
  size_t device_ops_ = 0;
  int64_t first_call_ = INT64_MAX;  // the smallest correlation id of a launch call
};

}  // namespace steplint::analyzer
