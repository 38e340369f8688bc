#include "steplint/analyzer/kernel_stats.h"

#include <algorithm>
#include <unordered_map>

#include "ranked_stats.h"

#include "steplint/analyzer/gpu_summary.h"

namespace steplint::analyzer {

std::vector<KernelStat> computeKernelStats(const trace::TraceModel& model, size_t limit) {
  // Interned names make the StringId a perfect grouping key.
  std::unordered_map<trace::StringId, KernelStat> by_name;
  const bool tc_names = knowsTensorCoreNames(model.metadata.accelerator);
  for (const trace::Event& e : model.events) {
    if (e.kind != trace::EventKind::kKernel) continue;
    auto [it, inserted] = by_name.try_emplace(e.name);
    KernelStat& s = it->second;
    if (inserted) {
      s.name = std::string(model.name(e));
      s.min_ns = s.max_ns = e.dur_ns;
      s.tensor_core = tc_names && isTensorCoreKernelName(s.name);
    }
    ++s.count;
    s.total_ns += e.dur_ns;
    s.min_ns = std::min(s.min_ns, e.dur_ns);
    s.max_ns = std::max(s.max_ns, e.dur_ns);
  }
  return rankByTotal(by_name, limit);
}

}  // namespace steplint::analyzer
