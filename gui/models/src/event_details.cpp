#include "steplint/gui/event_details.h"

#include <algorithm>

#include "event_detail_rows.h"
#include "steplint/gui/format.h"

namespace steplint::gui {

EventDetailsIndex::EventDetailsIndex(const trace::TraceModel& model,
                                     const analyzer::StepResult& steps)
    : model_(model), steps_(steps), trace_start_ns_(model.timeRange().first) {
  // Counting sort of (link target -> source): offsets first, then fill.
  const auto n = static_cast<uint32_t>(model.events.size());
  offsets_.assign(n + 1, 0);
  for (const trace::Event& e : model.events) {
    if (e.link < n) ++offsets_[e.link + 1];
  }
  for (uint32_t i = 0; i < n; ++i) offsets_[i + 1] += offsets_[i];
  sources_.resize(offsets_[n]);
  std::vector<uint32_t> fill(offsets_.begin(), offsets_.end() - 1);
  for (uint32_t i = 0; i < n; ++i) {
    const uint32_t target = model.events[i].link;
    if (target < n) sources_[fill[target]++] = i;
  }
}

std::vector<uint32_t> EventDetailsIndex::linkedFrom(uint32_t target) const {
  if (static_cast<size_t>(target) + 1 >= offsets_.size()) return {};  // also kNoIndex
  return {sources_.begin() + offsets_[target], sources_.begin() + offsets_[target + 1]};
}

EventDetails EventDetailsIndex::describe(uint32_t event_index, size_t max_links) const {
  EventDetails out;
  if (event_index >= model_.events.size()) return out;
  const trace::Event& e = model_.events[event_index];
  out.title = std::string(model_.name(e));
  if (out.title.empty()) out.title = "(unnamed)";
  addGeneralRows(model_, e, trace_start_ns_, out.rows);
  if (const trace::GpuDetail* gpu = model_.gpu(e)) addGpuRows(*gpu, e.kind, out.rows);
  if (const trace::OpDetail* op = model_.op(e)) addOpRows(model_, *op, out.rows);
  addLinks(event_index, max_links, out);
  for (uint32_t p = e.parent; p < model_.events.size(); p = model_.events[p].parent) {
    out.parents.push_back({"Parent", p, std::string(model_.name(model_.events[p]))});
    if (out.parents.size() > 256) break;  // a corrupt parent cycle must not hang the GUI
  }
  addStep(e, out);
  return out;
}

void EventDetailsIndex::addLinks(uint32_t index, size_t max_links, EventDetails& out) const {
  const auto add = [&](const char* relation, uint32_t target) {
    if (out.links.size() >= max_links) {
      ++out.links_not_shown;
      return;
    }
    out.links.push_back({relation, target, std::string(model_.name(model_.events[target]))});
  };
  const trace::Event& e = model_.events[index];
  const auto n = model_.events.size();
  // Forward: device op -> launch call -> CPU op (or launch call -> CPU op).
  uint32_t call = trace::isLaunchApi(e.kind) ? index : trace::kNoIndex;
  if (!trace::isLaunchApi(e.kind) && e.link < n && trace::isLaunchApi(model_.events[e.link].kind)) {
    call = e.link;
    add("Launch call", call);
  }
  if (call != trace::kNoIndex && model_.events[call].link < n)
    add("CPU op", model_.events[call].link);
  // Reverse: a launch call's device ops; a CPU range's launch calls and their device ops.
  if (trace::isLaunchApi(e.kind)) {
    for (uint32_t op : linkedFrom(index)) add("Device op", op);
  } else if (trace::isCpuRange(e.kind)) {
    for (uint32_t launch : linkedFrom(index)) {
      add("Launch call", launch);
      for (uint32_t op : linkedFrom(launch)) add("Device op", op);
    }
  }
}

void EventDetailsIndex::addStep(const trace::Event& e, EventDetails& out) const {
  // Steps are in time order and never overlap: the last one starting at or before the event.
  const auto& steps = steps_.steps;
  auto it = std::upper_bound(steps.begin(), steps.end(), e.start_ns,
                             [](int64_t t, const analyzer::Step& s) { return t < s.start_ns; });
  if (it == steps.begin()) return;
  --it;
  if (e.start_ns >= it->end_ns) return;
  out.in_step = true;
  out.step_number = it->number;
  out.step_start_ns = it->start_ns;
  out.step_end_ns = it->end_ns;
}

}  // namespace steplint::gui
