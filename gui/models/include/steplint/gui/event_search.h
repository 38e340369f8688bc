// "Find next" over event names for the toolbar search (Enter jumps to the next match).
// GUI-free so it is tested without widgets.
#pragma once

#include <cstdint>
#include <string_view>

#include "steplint/trace/model.h"

namespace steplint::gui {

/// The first event after `after` in time order over all tracks, (start, index) ascending,
/// whose name contains `needle` (ASCII case-insensitive), wrapping around to the earliest
/// match; `after` = kNoIndex starts from the beginning. kNoIndex when nothing matches or the
/// needle is empty. One linear pass; each distinct name is tested once (interned strings).
uint32_t findNextEvent(const trace::TraceModel& model, std::string_view needle, uint32_t after);

/// ASCII case-insensitive substring test (names are ASCII C++/CUDA symbols).
bool containsIgnoringCase(std::string_view haystack, std::string_view needle);

}  // namespace steplint::gui
