// Two timelines drawn one above the other with their steps aligned: step N of the lower trace
// starts under step N of the upper one, at the same scale (ns per pixel), so a longer step is
// seen to be longer. Pure arithmetic on the two traces' kept steps; no Qt.
//
// Worked case: A's step 3 runs 1000..1100 ms, B's step 3 runs 5200..5330 ms. A visible range
// of A of 1020..1080 ms is centred in A's step 3 and starts 20 ms into it, so B shows
// 5220..5280 ms. Panning across a step boundary re-anchors on the next step, so B jumps by the
// difference of the two steps' lengths: step N stays above step N.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "steplint/analyzer/diagnostic.h"
#include "steplint/analyzer/steps.h"

namespace steplint::gui {

using analyzer::TimeRange;

/// One side of the alignment: its kept steps (time order) and its whole time range, the
/// anchor when it has no steps.
struct AlignedSide {
  const std::vector<analyzer::Step>* steps = nullptr;
  TimeRange full;
};

/// `visible` (a range of `from`) moved onto `to`: anchored on the step of `from` that holds
/// the range's centre (the first step when the centre is before any), at the same offset into
/// the step of `to` with the same number (else at the same position), same width. Without
/// steps on either side, the traces' starts are aligned.
TimeRange alignRange(const AlignedSide& from, const AlignedSide& to, TimeRange visible);

/// The ranges that show step `number` whole on both sides, start-aligned at one scale: as wide
/// as the longer of the two steps, plus up to `margin` of that on each side (less where a trace
/// ends sooner). Nullopt when `upper` has no such step.
std::optional<std::pair<TimeRange, TimeRange>> stepRanges(const AlignedSide& upper,
                                                          const AlignedSide& lower, int64_t number,
                                                          double margin = 0.03);

}  // namespace steplint::gui
