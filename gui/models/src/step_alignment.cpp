#include "steplint/gui/step_alignment.h"

#include <algorithm>

namespace steplint::gui {
namespace {

bool hasSteps(const AlignedSide& side) { return side.steps != nullptr && !side.steps->empty(); }

/// The step in which `t` falls (or the last one starting before it; the first when none).
size_t stepAt(const std::vector<analyzer::Step>& steps, int64_t t) {
  const auto after =
      std::upper_bound(steps.begin(), steps.end(), t,
                       [](int64_t time, const analyzer::Step& s) { return time < s.start_ns; });
  return after == steps.begin() ? 0 : static_cast<size_t>(after - steps.begin()) - 1;
}

/// The step of `to` that goes with `from`'s step at `index`: same number, else same position.
const analyzer::Step* partner(const std::vector<analyzer::Step>& from, size_t index,
                              const std::vector<analyzer::Step>& to) {
  const int64_t number = from[index].number;
  const auto same = std::find_if(to.begin(), to.end(),
                                 [&](const analyzer::Step& s) { return s.number == number; });
  if (same != to.end()) return &*same;
  return index < to.size() ? &to[index] : &to.back();
}

const analyzer::Step* findNumber(const AlignedSide& side, int64_t number) {
  if (!hasSteps(side)) return nullptr;
  const auto it = std::find_if(side.steps->begin(), side.steps->end(),
                               [&](const analyzer::Step& s) { return s.number == number; });
  return it == side.steps->end() ? nullptr : &*it;
}

}  // namespace

TimeRange alignRange(const AlignedSide& from, const AlignedSide& to, TimeRange visible) {
  int64_t from_anchor = from.full.start_ns;
  int64_t to_anchor = to.full.start_ns;
  if (hasSteps(from) && hasSteps(to)) {
    const size_t index =
        stepAt(*from.steps, visible.start_ns + (visible.end_ns - visible.start_ns) / 2);
    from_anchor = (*from.steps)[index].start_ns;
    to_anchor = partner(*from.steps, index, *to.steps)->start_ns;
  }
  const int64_t shift = to_anchor - from_anchor;
  return {visible.start_ns + shift, visible.end_ns + shift};
}

std::optional<std::pair<TimeRange, TimeRange>> stepRanges(const AlignedSide& upper,
                                                          const AlignedSide& lower, int64_t number,
                                                          double margin) {
  const analyzer::Step* a = findNumber(upper, number);
  if (a == nullptr) return std::nullopt;
  int64_t width = a->duration_ns();
  const analyzer::Step* b = findNumber(lower, number);
  if (b != nullptr) width = std::max(width, b->duration_ns());
  // Aligned on A's step itself: its centre is inside it whatever the width.
  const int64_t lower_start = alignRange(upper, lower, {a->start_ns, a->end_ns}).start_ns;
  // The margins stay inside both traces: a view slid back inside one trace would no longer be
  // aligned with the other (a first step often starts right at the trace's start).
  const auto margin_ns = static_cast<int64_t>(margin * static_cast<double>(width));
  const int64_t left = std::clamp<int64_t>(
      std::min({margin_ns, a->start_ns - upper.full.start_ns, lower_start - lower.full.start_ns}),
      0, margin_ns);
  const int64_t right =
      std::clamp<int64_t>(std::min({margin_ns, upper.full.end_ns - (a->start_ns + width),
                                    lower.full.end_ns - (lower_start + width)}),
                          0, margin_ns);
  return std::make_pair(TimeRange{a->start_ns - left, a->start_ns + width + right},
                        TimeRange{lower_start - left, lower_start + width + right});
}

}  // namespace steplint::gui
