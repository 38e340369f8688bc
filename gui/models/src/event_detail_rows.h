// The field rows of EventDetails, one function per side table (private to event_details.cpp).
#pragma once

#include <vector>

#include "steplint/gui/event_details.h"

namespace steplint::gui {

/// Name-independent fields: category, kind, track, start (relative to `trace_start_ns`),
/// duration, external id, correlation.
void addGeneralRows(const trace::TraceModel& model, const trace::Event& e, int64_t trace_start_ns,
                    std::vector<DetailRow>& rows);
/// Kernel / memcpy / memset fields that are present (unset fields are skipped, not "-1").
void addGpuRows(const trace::GpuDetail& gpu, trace::EventKind kind, std::vector<DetailRow>& rows);
/// Autograd sequence number, input dims and types, call stack.
void addOpRows(const trace::TraceModel& model, const trace::OpDetail& op,
               std::vector<DetailRow>& rows);

}  // namespace steplint::gui
