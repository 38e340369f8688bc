// Facts about the recording process, read from the system: for trace metadata
// (trace_sink.cpp), GPU row names (cupti/) and the default output name (config.cpp).
#pragma once

#include <string>

namespace steplint::collector {

/// gethostname(); empty when it fails.
std::string hostName();
/// The executable's name (/proc/self/comm), written as process_name; "unknown" when unreadable.
std::string executableName();
/// /proc/self/cmdline with the NUL separators turned into spaces.
std::string commandLine();

}  // namespace steplint::collector
