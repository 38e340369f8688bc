// Which fixes cover the host timeline of a replay window at each moment (replay_build.cpp cuts
// the host's work where that changes): the fixes' host-time intervals, clipped to the window,
// as open and close boundaries walked in time order.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "steplint/analyzer/replay.h"

namespace steplint::analyzer {

class HostFixMask {
 public:
  /// The boundaries of the first StepReplay::kMaxFixes fixes inside [start, end).
  HostFixMask(const std::vector<FixEffect>& fixes, int64_t start, int64_t end);

  /// Applies every boundary at or before `t`.
  void advance(int64_t t);
  /// The next boundary not yet applied, or `limit` if that comes first.
  int64_t next(int64_t limit) const {
    return next_ < bounds_.size() && bounds_[next_].t < limit ? bounds_[next_].t : limit;
  }
  /// Bit f set while fix f's host time covers the timeline.
  uint64_t mask() const { return active_; }

 private:
  struct Bound {
    int64_t t;
    size_t fix;
    bool opens;
  };
  std::vector<Bound> bounds_;  // in time order; closes before opens at one time
  size_t next_ = 0;
  uint64_t active_ = 0;
};

}  // namespace steplint::analyzer
