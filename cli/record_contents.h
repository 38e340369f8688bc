// Whether a finished `steplint record` trace holds anything. A launcher such as torchrun
// imports torch, so its collector writes a trace too, of nothing; an argument typo ends a
// trainer before its first op. Asked when -o already holds a trace (only a trace that recorded
// something replaces it) and for a distributed run's launcher.
//
// A trace of nothing is a few KiB of metadata and memory samples; a real one can be
// gigabytes, and importing it whole only to find its first op cost as much as the analysis.
// So the first kRecordedHeadBytes of text (decompressed) are imported first: an op there, or a
// file that ends there, settles it. Only a trace whose first MiB holds no op is read whole.
#pragma once

#include <cstddef>
#include <string>

namespace steplint::cli {

inline constexpr size_t kRecordedHeadBytes = size_t{1} << 20;

struct RecordedCheck {
  bool records_anything = true;  // a CPU range or a device op; an unreadable trace counts
  bool read_past_head = false;   // the head did not settle it: the whole file was imported
};

RecordedCheck checkRecordsAnything(const std::string& path, size_t head_bytes = kRecordedHeadBytes);

}  // namespace steplint::cli
