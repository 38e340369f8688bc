// Counts the bytes the program holds through operator new, and the most it held since the last
// reset, so steplint-analysis-bench can print each part's peak of temporaries beside its time
// (peak RSS would show only the largest part, and glibc's arenas keep freed memory resident).
// Linking heap_meter.cpp replaces the global operator new and delete of the whole executable.
#pragma once

#include <cstddef>

namespace steplint::bench {

/// Bytes held now through operator new.
size_t heapBytes();
/// The most bytes held since the last resetHeapPeak() (or the start).
size_t heapPeakBytes();
/// Starts a new peak from what is held now.
void resetHeapPeak();

}  // namespace steplint::bench
