// What the details pane shows for one event: its fields, its launch links in both
// directions, its parent chain and its step. GUI-free so it is tested on hand-built models.
//
// Event::link points one way only (device op -> launch call -> CPU op). The reverse
// (a CPU op's launch calls, then their device ops) comes from EventDetailsIndex, which
// inverts every link once per trace (CSR arrays, 8 bytes per event) so a click costs
// nothing however large the trace.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "steplint/analyzer/steps.h"
#include "steplint/trace/model.h"

namespace steplint::gui {

struct DetailRow {
  std::string key;    // "Duration", "Grid", "Input dims"
  std::string value;  // formatted
};

/// A clickable reference to another event.
struct DetailLink {
  std::string relation;  // "Launch call", "CPU op", "Device op", "Parent"
  uint32_t event = trace::kNoIndex;
  std::string label;  // the event's name
};

struct EventDetails {
  std::string title;                // the event's name
  std::vector<DetailRow> rows;      // general fields, then GpuDetail / OpDetail fields
  std::vector<DetailLink> links;    // launch relations (both directions)
  size_t links_not_shown = 0;       // beyond the cap, so the pane can say "and N more"
  std::vector<DetailLink> parents;  // enclosing events, innermost first
  bool in_step = false;
  int64_t step_number = 0;  // the summary.steps entry containing the event's start
  int64_t step_start_ns = 0;
  int64_t step_end_ns = 0;
};

class EventDetailsIndex {
 public:
  /// Keeps references to `model` and `steps`: both must outlive the index.
  EventDetailsIndex(const trace::TraceModel& model, const analyzer::StepResult& steps);

  /// The events whose Event::link is `target` (a CPU op's launch calls, a call's device ops).
  std::vector<uint32_t> linkedFrom(uint32_t target) const;

  /// Everything the details pane shows; an out-of-range index gives an empty title.
  EventDetails describe(uint32_t event_index, size_t max_links = 64) const;

  int64_t traceStartNs() const { return trace_start_ns_; }

 private:
  void addLinks(uint32_t index, size_t max_links, EventDetails& out) const;
  void addStep(const trace::Event& e, EventDetails& out) const;

  const trace::TraceModel& model_;
  const analyzer::StepResult& steps_;
  int64_t trace_start_ns_ = 0;
  std::vector<uint32_t> offsets_;  // events.size() + 1 entries into sources_
  std::vector<uint32_t> sources_;
};

}  // namespace steplint::gui
