// What a parser thread produces for one batch of traceEvents elements: events with ids local
// to the batch (strings, tracks), merged into the model in input order by the importer.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "steplint/trace/model.h"

namespace steplint::trace {

/// A pid or tid as written: a number, or text (label = local string id, 0 when numeric).
struct RowKey {
  int64_t number = 0;
  StringId label = 0;
  bool operator==(const RowKey& o) const { return number == o.number && label == o.label; }
};

struct EventBatch {
  struct TrackKey {
    RowKey pid, tid;
  };
  struct Meta {
    enum class Kind : uint8_t { kProcessName, kThreadName, kProcessSortIndex, kThreadSortIndex };
    Kind kind;
    RowKey pid, tid;
    StringId text = 0;
    int64_t number = 0;
  };
  /// B/E events, kept in input order and paired after merging (pairs may span batches).
  struct Half {
    char phase;  // 'B' or 'E'
    Event event;
  };

  StringTable strings;
  std::vector<TrackKey> tracks;
  std::vector<Event> events;  // Event.track = index into tracks; detail = index into gpu/ops
  std::vector<GpuDetail> gpu;
  std::vector<OpDetail> ops;
  std::vector<CollectiveDetail> collectives;  // owner = index into gpu or ops of this batch
  std::vector<MemoryEvent> memory;
  std::vector<InstantEvent> instants;
  std::vector<CounterSample> counters;
  std::vector<FlowEvent> flows;
  std::vector<Meta> meta;
  std::vector<Half> halves;
  ImportStats stats;

  uint32_t track(RowKey pid, RowKey tid);
  /// Empties the batch but keeps its capacity: batches are recycled so parsing does not
  /// fault in fresh pages for every batch.
  void clear();

 private:
  struct KeyHash {
    size_t operator()(const std::pair<uint64_t, uint64_t>& k) const {
      return static_cast<size_t>(k.first * 0x9E3779B97F4A7C15ull ^ k.second);
    }
  };
  std::unordered_map<std::pair<uint64_t, uint64_t>, uint32_t, KeyHash> track_index_;
};

}  // namespace steplint::trace
