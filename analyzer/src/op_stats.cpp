#include "steplint/analyzer/op_stats.h"

#include <algorithm>
#include <unordered_map>

#include "ranked_stats.h"

namespace steplint::analyzer {

std::vector<OpStat> computeOpStats(const trace::TraceModel& model, size_t limit) {
  // One pass for the children's time (Event::parent is the enclosing event on the same
  // track), one pass to group; no per-op child lists.
  std::vector<int64_t> child_ns(model.events.size(), 0);
  for (const trace::Event& e : model.events) {
    if (e.parent != trace::kNoIndex && e.parent < child_ns.size()) child_ns[e.parent] += e.dur_ns;
  }
  std::unordered_map<trace::StringId, OpStat> by_name;  // interned names: a perfect key
  for (uint32_t i = 0; i < model.events.size(); ++i) {
    const trace::Event& e = model.events[i];
    if (e.kind != trace::EventKind::kCpuOp) continue;
    auto [it, inserted] = by_name.try_emplace(e.name);
    OpStat& s = it->second;
    if (inserted) s.name = std::string(model.name(e));
    ++s.count;
    s.total_ns += e.dur_ns;
    s.self_ns += std::max<int64_t>(0, e.dur_ns - child_ns[i]);
    s.max_ns = std::max(s.max_ns, e.dur_ns);
  }
  return rankByTotal(by_name, limit);
}

}  // namespace steplint::analyzer
