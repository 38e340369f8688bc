#include "timeline_view_state.h"

#include <algorithm>

namespace steplint::gui {

void TimelineViewState::setTrace(std::shared_ptr<const LoadedTrace> t) {
  trace = std::move(t);
  collapsed_groups.clear();
  layout = buildTimelineLayout(trace.get());
  index = trace ? TimelineIndex(trace->model) : TimelineIndex();
  palette.reset(trace ? &trace->model : nullptr);
  draw_cache.clear();
  scroll_y = 0;
  has_range = false;
  flows.clear();
  search_match.clear();
  search_active = false;
}

TimelineHit TimelineViewState::hitAt(QPoint pos, TimeRange visible) const {
  TimelineHit hit;
  const TimelineGeometry g = geometry(visible);
  hit.time_ns = g.nsAt(pos.x() - time_area.left());
  if (pos.y() < time_area.top()) {
    hit.area = pos.x() >= time_area.left() ? TimelineHit::Area::kRuler : TimelineHit::Area::kNone;
    return hit;
  }
  hit.area = pos.x() < time_area.left() ? TimelineHit::Area::kLabels : TimelineHit::Area::kRows;
  hit.row = layout.rowAt(pos.y() - time_area.top() + scroll_y);
  if (hit.row < 0 || !trace || hit.area != TimelineHit::Area::kRows) return hit;
  const TimelineRow& row = layout.rows[static_cast<size_t>(hit.row)];
  const TimeRange window = g.hitWindow(pos.x() - time_area.left(), kHitSlopPx);
  if (row.kind == RowKind::kSteps) {
    hit.event = stepAt(trace->summary.steps.steps, hit.time_ns);
  } else if (row.track != trace::kNoIndex) {
    hit.depth = layout.laneAt(row, pos.y() - time_area.top() + scroll_y);
    if (hit.depth >= 0) hit.event = hitTestEvent(trace->model, index, row.track, hit.depth, window);
  }
  return hit;
}

void TimelineViewState::toggleGroup(int row) {
  if (row < 0 || static_cast<size_t>(row) >= layout.rows.size()) return;
  const TimelineRow& header = layout.rows[static_cast<size_t>(row)];
  if (header.kind != RowKind::kGroupHeader) return;
  auto it = std::find(collapsed_groups.begin(), collapsed_groups.end(), header.label);
  if (it != collapsed_groups.end()) {
    collapsed_groups.erase(it);
  } else {
    collapsed_groups.push_back(header.label);
  }
  TimelineLayoutOptions options = layout.options;
  options.collapsed_groups = collapsed_groups;
  layout = buildTimelineLayout(trace.get(), options);
}

void TimelineViewState::updateFlows(uint32_t selected) {
  flows = trace ? flowLinks(trace->model, selected) : std::vector<std::pair<uint32_t, uint32_t>>{};
}

void TimelineViewState::updateSearch(const QString& text) {
  search_active = !text.trimmed().isEmpty() && trace != nullptr;
  search_match.clear();
  if (!search_active) return;
  const trace::StringTable& strings = trace->model.strings;
  const QByteArray needle = text.trimmed().toUtf8().toLower();
  search_match.assign(strings.size(), 0);
  for (size_t id = 0; id < strings.size(); ++id) {
    const std::string_view s = strings.view(static_cast<trace::StringId>(id));
    search_match[id] = QByteArray::fromRawData(s.data(), static_cast<qsizetype>(s.size()))
                           .toLower()
                           .contains(needle);
  }
}

}  // namespace steplint::gui
