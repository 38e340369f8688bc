// Byte-level repair of one JSON value that a strict parser rejected (old Kineto writers:
// docs/reference/trace-format.md §12). Each fix is counted in the import stats:
//   invalid UTF-8 and unpaired surrogate escapes (\ud800) -> U+FFFD,
//   raw control characters in strings -> \u00XX,
//   bare words other than true/false/null (N/A, NaN) -> strings,
//   a quote inside a string that is not followed by , : } ] -> \" (heuristic).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "steplint/trace/import_stats.h"
#include "steplint/trace/utf8.h"  // validUtf8Length

namespace steplint::trace {

/// The four hex digits of a \u escape at s[i] as a number; false when they are not hex digits.
bool readJsonHex4(std::string_view s, size_t i, uint32_t& out);

/// A JSON string token as written ("...", quotes included, e.g. simdjson's raw token)
/// unescaped into `out`, each unpaired surrogate escape as U+FFFD (`replaced` then true): the
/// strings simdjson refuses. False when the token is no string or an escape is malformed.
bool unescapeJsonString(std::string_view token, std::string& out, bool& replaced);

/// Writes the repaired text to `out` (cleared first). Returns true if anything changed.
bool repairJson(std::string_view in, std::string& out, ImportStats& stats);

}  // namespace steplint::trace
