// The first event carrying each id, for linking device ops to launch calls (CUPTI correlation
// ids) and launch calls to CPU ops (External ids).
//
// Both ids are counters in real traces, so the ids of a trace fill most of the range from the
// smallest to the largest: a table indexed by id - smallest is then one array read per lookup
// and 4 bytes per id, where a hash map needs a node per event (tens of MB of fresh pages on a
// 1 GB trace, most of the time linking took). Sparse ids (hand-made or edited traces) keep a
// hash map, so memory stays proportional to the events whatever the ids.
#pragma once

#include <algorithm>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "steplint/trace/model.h"

namespace steplint::trace {

class IdIndex {
 public:
  /// Indexes id(events[i]) for every i with keep(events[i]); the first event of an id wins.
  template <typename Keep, typename Id>
  void build(const std::vector<Event>& events, const Keep& keep, const Id& id) {
    int64_t low = INT64_MAX, high = INT64_MIN;
    size_t count = 0;
    for (const Event& e : events) {
      if (!keep(e)) continue;
      low = std::min(low, id(e));
      high = std::max(high, id(e));
      ++count;
    }
    if (count == 0) return;
    // Dense when the table is at most 4 slots per id: no more memory than the hash map.
    const auto range = static_cast<uint64_t>(high) - static_cast<uint64_t>(low);
    dense_ = range < 4 * static_cast<uint64_t>(count) + 1024;
    low_ = low;
    if (dense_) table_.assign(range + 1, kNoIndex);
    if (!dense_) sparse_.reserve(count);
    for (uint32_t i = 0; i < events.size(); ++i) {
      if (!keep(events[i])) continue;
      if (dense_) {
        uint32_t& slot = table_[static_cast<uint64_t>(id(events[i])) - static_cast<uint64_t>(low)];
        if (slot == kNoIndex) slot = i;
      } else {
        sparse_.try_emplace(id(events[i]), i);
      }
    }
  }

  /// The first event indexed with `id`, or kNoIndex.
  uint32_t find(int64_t id) const {
    if (!dense_) {
      const auto it = sparse_.find(id);
      return it == sparse_.end() ? kNoIndex : it->second;
    }
    const uint64_t slot = static_cast<uint64_t>(id) - static_cast<uint64_t>(low_);
    return id >= low_ && slot < table_.size() ? table_[slot] : kNoIndex;
  }

 private:
  bool dense_ = false;
  int64_t low_ = 0;
  std::vector<uint32_t> table_;                   // dense: id - low_ -> event
  std::unordered_map<int64_t, uint32_t> sparse_;  // otherwise
};

}  // namespace steplint::trace
