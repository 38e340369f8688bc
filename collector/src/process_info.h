// Facts about the recording process, read from the system: for trace metadata
// (trace_sink.cpp), GPU row names (cupti/), the default output name (config.cpp) and the host
// memory sampled at step boundaries (recorder.cpp).
#pragma once

#include <cstdint>
#include <string>

namespace steplint::collector {

/// gethostname(); empty when it fails.
std::string hostName();
/// The executable's name (/proc/self/comm), written as process_name; "unknown" when unreadable.
std::string executableName();
/// /proc/self/cmdline with the NUL separators turned into spaces.
std::string commandLine();
/// Resident set size in bytes (/proc/self/statm), -1 when unreadable. Allocation-free, one
/// pread (~2 µs): it runs on the trainer thread at step boundaries.
int64_t residentBytes() noexcept;

}  // namespace steplint::collector
