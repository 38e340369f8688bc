// Helpers shared by the robustness tests: reading and gunzipping fixtures, counting what an
// import kept, and measuring the memory an import needed on top of its input.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "sanitizers.h"  // kSanitized: the memory budgets below are relaxed under ASan
#include "steplint/trace/importer.h"

namespace steplint::test {

/// Whole file as bytes (fails the current test case if unreadable).
std::string readFileBytes(const std::string& path);

struct Gunzipped {
  std::string text;       // everything that could be inflated
  bool complete = false;  // the stream ended properly (false for a cut .gz)
};
/// Inflates a gzip stream as far as it goes; a truncated stream yields its decodable prefix.
Gunzipped gunzipPrefix(std::string_view gz);

/// Every record an import kept: complete events, memory/instant events, counters and flows.
size_t keptRecords(const trace::TraceModel& model);

/// Peak resident memory added while it is alive. It resets the kernel's high-water mark
/// (/proc/self/clear_refs "5") so earlier test cases in the same process do not hide the peak;
/// where that is not allowed it falls back to getrusage() and can only under-report.
class PeakMemoryProbe {
 public:
  PeakMemoryProbe();
  /// Bytes of resident memory above the level at construction, at the highest point since.
  int64_t peakDeltaBytes() const;
  bool precise() const { return precise_; }

 private:
  int64_t start_rss_ = 0;
  bool precise_ = false;
};

/// Environment override for loop counts (e.g. STEPLINT_ROBUSTNESS_CUTS=1000 for a long run).
int envCount(const char* name, int fallback);

}  // namespace steplint::test
