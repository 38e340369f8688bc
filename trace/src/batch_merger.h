// Merges EventBatches (ids local to each batch) into the model, in input order, and pairs
// B/E events across batch boundaries.
#pragma once

#include <cstddef>
#include <vector>

#include "event_batch.h"
#include "steplint/trace/builder.h"

namespace steplint::trace {

class BatchMerger {
 public:
  BatchMerger(TraceBuilder& builder, bool keep_flows)
      : builder_(builder), keep_flows_(keep_flows) {}
  void merge(EventBatch& batch);
  /// Counts B events that never saw their E.
  void finish();
  /// Metadata rows (process and thread names, sort indexes) merged so far.
  size_t metaRows() const { return meta_rows_; }

 private:
  RowId row(const RowKey& key, const EventBatch& batch) const;
  void pairHalf(const EventBatch::Half& half);
  void applyMeta(const EventBatch::Meta& meta, const EventBatch& batch);

  TraceBuilder& builder_;
  bool keep_flows_;                       // ImportOptions::keep_flows
  std::vector<StringId> strings_;         // local -> global, per batch
  std::vector<uint32_t> tracks_;          // local -> global, per batch
  std::vector<std::vector<Event>> open_;  // per global track: open B events
  size_t meta_rows_ = 0;
};

}  // namespace steplint::trace
