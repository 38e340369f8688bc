#include "common/trace_tree.h"

namespace steplint::rules::common {

bool startsWith(std::string_view text, std::string_view prefix) {
  return text.size() >= prefix.size() && text.compare(0, prefix.size(), prefix) == 0;
}

uint32_t enclosingCpuRange(const trace::TraceModel& model, uint32_t index) {
  return findAncestor(model, index,
                      [](const trace::Event& e) { return trace::isCpuRange(e.kind); });
}

uint32_t previousSibling(const trace::TraceModel& model, uint32_t index) {
  const trace::Event& e = model.events[index];
  const uint32_t first = model.tracks[e.track].first_event;
  constexpr uint32_t kMaxScan = 20000;
  for (uint32_t j = index, n = 0; j > first && n < kMaxScan; ++n) {
    --j;
    if (j == e.parent) return trace::kNoIndex;
    if (model.events[j].parent == e.parent && trace::isCpuRange(model.events[j].kind)) return j;
  }
  return trace::kNoIndex;
}

uint32_t outermostAtenOp(const trace::TraceModel& model, uint32_t index) {
  uint32_t found = trace::kNoIndex;
  for (uint32_t p = enclosingCpuRange(model, index); p != trace::kNoIndex;
       p = model.events[p].parent) {
    const trace::Event& e = model.events[p];
    if (e.kind != trace::EventKind::kCpuOp || !startsWith(model.name(e), "aten::")) break;
    found = p;
  }
  return found;
}

LaunchIndex::LaunchIndex(const trace::TraceModel& model)
    : op_of_call_(model.events.size(), trace::kNoIndex) {
  for (uint32_t i = 0; i < model.events.size(); ++i) {
    const trace::Event& e = model.events[i];
    // The first device op in event order wins, as with a map's try_emplace.
    if (trace::isDeviceOp(e.kind) && e.link < op_of_call_.size() &&
        op_of_call_[e.link] == trace::kNoIndex)
      op_of_call_[e.link] = i;
  }
}

}  // namespace steplint::rules::common
