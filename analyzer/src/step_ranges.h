// The steps as the trace's ProfilerStep#N ranges name them (steps.cpp's first stage): one per
// CPU-side range, in start order, with what torch writes that is no iteration taken out: an
// inner profiler's ranges nested in the recording one's, torch <= 1.13's repeated #0, and
// repeats of a number (a file written twice, merged recordings).
#pragma once

#include <string>
#include <vector>

#include "steplint/analyzer/steps.h"

namespace steplint::analyzer {

/// A CPU-side ProfilerStep#N range (not its gpu_user_annotation copy).
bool isHostStepEvent(const trace::TraceModel& model, const trace::Event& e);

/// The host-side ProfilerStep ranges of `model` as steps (start and end on the host only), one
/// note per correction made.
std::vector<Step> profilerStepRanges(const trace::TraceModel& model,
                                     std::vector<std::string>& notes);

}  // namespace steplint::analyzer
