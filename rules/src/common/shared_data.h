// Per-trace data that several rules derive from the whole event list (launch links, GPU busy
// timelines, per-kind event lists). Each is built once per AnalysisContext, by the first rule
// that asks, through AnalysisContext::shared(): on a multi-million-event trace a full scan
// costs tens of milliseconds, and rules used to repeat the same ones.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "common/gpu_timeline.h"
#include "common/trace_tree.h"
#include "steplint/analyzer/rule.h"

namespace steplint::rules::common {

/// Indices of the events of each kind, in event order (so per track, by start).
struct KindIndex {
  explicit KindIndex(const trace::TraceModel& model);
  const std::vector<uint32_t>& of(trace::EventKind kind) const {
    return by_kind[static_cast<size_t>(kind)];
  }
  std::array<std::vector<uint32_t>, trace::kEventKindCount> by_kind;
  std::vector<uint32_t> device_ops;  // kernels, memcpys and memsets together, in event order
};

const KindIndex& kindIndex(const analyzer::AnalysisContext& context);
const LaunchIndex& launchIndex(const analyzer::AnalysisContext& context);
const DeviceBusyTimeline& deviceBusyTimeline(const analyzer::AnalysisContext& context);

}  // namespace steplint::rules::common
