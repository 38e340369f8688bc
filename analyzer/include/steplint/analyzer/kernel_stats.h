// Kernels grouped by name: count and time statistics, sorted by total time.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "steplint/trace/model.h"

namespace steplint::analyzer {

struct KernelStat {
  std::string name;
  int64_t count = 0;
  int64_t total_ns = 0;
  int64_t min_ns = 0;
  int64_t max_ns = 0;
  double mean_ns() const { return count ? static_cast<double>(total_ns) / count : 0.0; }
  bool tensor_core = false;
};

/// All kernels of the trace, grouped by name, total time descending; `limit` 0 = all.
std::vector<KernelStat> computeKernelStats(const trace::TraceModel& model, size_t limit = 0);

}  // namespace steplint::analyzer
