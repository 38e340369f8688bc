// A second bound on torch.profiler's cost per recorded host event, from the kept steps
// (docs/savings.md "Profiler overhead"): the nesting bound (profiler_cost_bound.h) needs 16
// callers with 8+ children each, and traces of many tiny top-level ops have none, so their
// estimate stayed at 2 us per event: 134 % of the step on a trace of 3260 ops of ~0.75 us.
//
// The physics is the nesting bound's, over one thread's share of one step. Recording an event
// costs time inside its range (at most the shortest event's duration) and outside it, where the
// thread runs no sibling: in its parent's self time or between top-level events, so in time
// that no leaf event covers. With n recorded events in a step of duration D on one thread,
// properly nested, and leaves (events without a recorded child) covering L of it:
//   n x cost <= min(D, D - L + n x the shortest event).
#pragma once

#include <string>

#include "steplint/analyzer/profiler_overhead.h"
#include "steplint/analyzer/steps.h"
#include "steplint/trace/model.h"

namespace steplint::analyzer {

/// The scale (<= 1) that makes `cost` meet the bound in every kept step and thread; 1 when it
/// binds nowhere. `why` gets the binding step's figures.
double stepTimeScale(const trace::TraceModel& model, const StepResult& steps,
                     const ProfilerOverhead& cost, std::string& why);

/// The kept step that time t falls in (kept steps are sorted and disjoint), else steps.size().
size_t keptStepAt(const StepResult& steps, int64_t t);
/// The same, trying first `hint`: the step whose start the previous call's time followed (kept
/// up to date). A track's events come in time order, so most calls need no binary search.
size_t keptStepAt(const StepResult& steps, int64_t t, size_t& hint);

}  // namespace steplint::analyzer
