// CPU ops (cpu_op events) grouped by name: count and host-time statistics, the "top CPU ops"
// table of steplint-gui's overview page.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "steplint/trace/model.h"

namespace steplint::analyzer {

struct OpStat {
  std::string name;
  int64_t count = 0;
  int64_t total_ns = 0;  // inclusive host time, summed over calls (nested calls count twice)
  int64_t self_ns = 0;   // total minus the time of direct children on the same thread
  int64_t max_ns = 0;
  double mean_ns() const { return count ? static_cast<double>(total_ns) / count : 0.0; }
};

/// Every cpu_op of the trace, grouped by name, total time descending; `limit` 0 = all.
/// Self time follows tb_plugin's "self host duration": an op's duration minus its direct
/// children (ops and runtime calls alike), never below zero.
/// \code
///   aten::linear [0,10) containing aten::addmm [2,8)  ->  linear self 4, addmm self 6
/// \endcode
std::vector<OpStat> computeOpStats(const trace::TraceModel& model, size_t limit = 0);

}  // namespace steplint::analyzer
