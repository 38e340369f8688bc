// Number formatting shared by the GUI's models and panels. GUI-free (std::string), so the
// event-details code and its tests need no Qt.
#pragma once

#include <cstdint>
#include <string>

namespace steplint::gui {

/// A duration with a unit chosen for 3–4 significant digits: "850 ns", "12.3 µs", "1.234 ms",
/// "2.500 s".
std::string formatDurationNs(int64_t ns);

/// A fraction (0..1) as a percentage with one decimal: "12.3 %"; "n/a" when negative
/// (the analyzer's "unknown").
std::string formatFraction(double fraction);

/// A byte count with a binary unit: "512 B", "1.5 KiB", "3.0 MiB".
std::string formatBytes(int64_t bytes);

}  // namespace steplint::gui
