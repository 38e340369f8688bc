// Which CPU threads make up a trace's host timeline: the threads of the step ranges and of the
// launch calls; without either (a CPU trace with detected steps), the thread the steps were
// detected on, else the thread with the most ops.
// Shared by the step replay and the step attribution, so both read the same host.
#pragma once

#include <cstdint>
#include <vector>

#include "steplint/analyzer/steps.h"
#include "steplint/trace/model.h"

namespace steplint::analyzer {

/// One flag per track: 1 for the host timeline's threads, looking at events starting in [from, to).
std::vector<char> hostTimelineTracks(const trace::TraceModel& model, const StepResult& steps,
                                     int64_t from, int64_t to);

}  // namespace steplint::analyzer
