// Builds a TraceModel: importers (and tests) append events in any order, then finalize()
// sorts them per track, computes nesting and links device ops to launch calls and calls to
// CPU ops (docs/reference/trace-format.md §8.2).
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "steplint/trace/model.h"

namespace steplint::trace {

/// How an event's pid or tid was written: a number, or text (then `label` is set).
struct RowId {
  int64_t number = 0;
  std::string_view label;  // empty when numeric
};

class IdIndex;
class TrackEventStore;

class TraceBuilder {
 public:
  explicit TraceBuilder(TraceModel& model);
  ~TraceBuilder();
  /// Moves keep referring to the same model (tests return a model and its builder together).
  TraceBuilder(TraceBuilder&& other) noexcept;

  /// Finds or creates the track for (pid, tid). Text ids such as "stream 7" stay text
  /// here; importers normalise them first.
  uint32_t track(RowId pid, RowId tid);
  uint32_t track(int64_t pid, int64_t tid) { return track(RowId{pid, {}}, RowId{tid, {}}); }

  StringId intern(std::string_view s) { return model_.strings.intern(s); }
  /// Appends to model().events; returns its index there (until finalize() sorts them).
  uint32_t addEvent(const Event& e);
  /// For importers: keeps the event with its track's (src/track_event_store.h), so finalize()
  /// needs no grouping by track. It is not in model().events before finalize(); within a
  /// track, events added this way come before those of addEvent().
  void appendEvent(const Event& e);
  uint32_t addGpuDetail(const GpuDetail& d);
  uint32_t addOpDetail(const OpDetail& d);
  /// `c.owner` names the op or device detail (addOpDetail / addGpuDetail) the args belong to.
  void addCollective(const CollectiveDetail& c) { model_.collectives.push_back(c); }
  void addMemoryEvent(const MemoryEvent& m) { model_.memory_events.push_back(m); }
  void addInstant(const InstantEvent& i) { model_.instants.push_back(i); }
  void addCounter(const CounterSample& c) { model_.counters.push_back(c); }
  void addFlow(const FlowEvent& f) { model_.flows.push_back(f); }
  void setProcessName(RowId pid, std::string_view name);
  void setThreadName(RowId pid, RowId tid, std::string_view name);
  void setSortIndex(RowId pid, RowId tid, int64_t index);

  /// Convenience for tests: one complete event on (pid, tid) with times in microseconds.
  uint32_t addComplete(EventKind kind, std::string_view name, int64_t pid, int64_t tid,
                       double ts_us, double dur_us, int64_t external_id = kNoId,
                       int64_t correlation = kNoId);

  TraceModel& model() { return model_; }
  ImportStats& stats() { return model_.stats; }

  /// Sorts, nests and links. Call once, after the last event. Tracks are sorted and nested,
  /// and events linked, on up to `threads` threads (the caller's among them); the result does
  /// not depend on the number.
  void finalize(int threads = 1);

 private:
  struct KeyHash {
    size_t operator()(const std::pair<uint64_t, uint64_t>& k) const {
      return static_cast<size_t>(k.first * 0x9E3779B97F4A7C15ull ^
                                 (k.second + 0x632BE59BD9B4E019ull));
    }
  };
  uint64_t rowKey(RowId id);
  void classifyTrack(Track& t) const;
  void groupByTrack(int threads);
  void sortTrack(Track& t, ImportStats& stats);
  void nestTrack(Track& t, ImportStats& stats);
  void sortSideTables();
  void linkEvents(int threads);
  void linkEvent(Event& e, const IdIndex& by_correlation, const IdIndex& by_external_id,
                 ImportStats& stats) const;

  TraceModel& model_;
  std::unique_ptr<TrackEventStore> store_;
  std::unordered_map<std::pair<uint64_t, uint64_t>, uint32_t, KeyHash> track_index_;
  std::unordered_map<std::pair<uint64_t, uint64_t>, StringId, KeyHash> pending_thread_names_;
};

}  // namespace steplint::trace
