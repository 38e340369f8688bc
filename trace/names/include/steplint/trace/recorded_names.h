// Names that steplint's collector writes into a trace and its rules read back, spelled once for
// both sides (header-only: the collector links no importer, the rules no writer).
#pragma once

#include <string_view>

namespace steplint::trace {

/// Counter (ph C) with the process's resident set at every captured step boundary.
inline constexpr std::string_view kHostMemoryCounter = "Host memory (steplint)";
inline constexpr std::string_view kHostMemorySeries = "rss_bytes";

/// Top-level metadata: std::thread::hardware_concurrency() of the recording host.
inline constexpr std::string_view kCpuCoresKey = "cpu_cores";

}  // namespace steplint::trace
