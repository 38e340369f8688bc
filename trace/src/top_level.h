// The top-level keys of a Kineto trace object other than traceEvents
// (docs/reference/trace-format.md §2, §10): read from their JSON text into TraceMetadata.
#pragma once

#include <string>
#include <string_view>

#include "steplint/trace/model.h"

namespace steplint::trace {

/// Keys that only a Kineto / torch.profiler trace has.
bool isKnownTopLevelKey(std::string_view key);

/// Stores the value of one top-level key; unknown keys go to metadata.extra (text capped).
void applyTopLevel(const std::string& key, const std::string& json_text, TraceModel& model);

}  // namespace steplint::trace
