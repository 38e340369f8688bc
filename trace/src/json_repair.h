// Byte-level repair of one JSON value that a strict parser rejected (old Kineto writers:
// docs/reference/trace-format.md §12). Each fix is counted in the import stats:
//   invalid UTF-8 -> U+FFFD, raw control characters in strings -> \u00XX,
//   bare words other than true/false/null (N/A, NaN) -> strings,
//   a quote inside a string that is not followed by , : } ] -> \" (heuristic).
#pragma once

#include <string>
#include <string_view>

#include "steplint/trace/import_stats.h"

namespace steplint::trace {

/// Writes the repaired text to `out` (cleared first). Returns true if anything changed.
bool repairJson(std::string_view in, std::string& out, ImportStats& stats);

/// Length of the valid UTF-8 sequence starting at s[0], or 0 if it is invalid.
size_t validUtf8Length(std::string_view s);

}  // namespace steplint::trace
