#include "replay_fix_mask.h"

#include <algorithm>

namespace steplint::analyzer {

HostFixMask::HostFixMask(const std::vector<FixEffect>& fixes, int64_t start, int64_t end) {
  for (size_t f = 0; f < fixes.size() && f < StepReplay::kMaxFixes; ++f) {
    for (const Interval& iv : fixes[f].host_time.intervals()) {
      if (iv.end <= start || iv.start >= end) continue;
      bounds_.push_back({std::max(iv.start, start), f, true});
      bounds_.push_back({std::min(iv.end, end), f, false});
    }
  }
  std::sort(bounds_.begin(), bounds_.end(), [](const Bound& a, const Bound& b) {
    if (a.t != b.t) return a.t < b.t;
    return !a.opens && b.opens;  // close before open at the same time: touching intervals
  });
}

void HostFixMask::advance(int64_t t) {
  while (next_ < bounds_.size() && bounds_[next_].t <= t) {
    const Bound& b = bounds_[next_++];
    const uint64_t bit = uint64_t{1} << b.fix;
    active_ = b.opens ? (active_ | bit) : (active_ & ~bit);
  }
}

}  // namespace steplint::analyzer
