// What steplint's own collector says it lost while recording (recorded_names.h: dropped host
// events, dropped CUPTI records, an early stop), turned from raw top-level text into stats.
#pragma once

#include "steplint/trace/model.h"

namespace steplint::trace {

/// Reads the collector's loss keys from model.metadata.extra, once all top-level keys are in:
/// a positive count adds that many recorder_dropped_events / recorder_dropped_gpu_records, a
/// steplint_stopped_early key adds one recorder_stopped_early and sets
/// metadata.stopped_early_reason. A count that is not a non-negative integer, or a reason that
/// is not a string, is not trusted: it adds recorder_metadata_bad instead.
void applyRecorderMetadata(TraceModel& model);

}  // namespace steplint::trace
