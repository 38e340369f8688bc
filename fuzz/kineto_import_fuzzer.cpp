// libFuzzer target for the Kineto / Chrome-trace importer (docs/fuzzing.md).
//
// Feeds arbitrary bytes (plain or gzip) through importTraceBytes with a small event size
// limit, so the "event too large" path is reachable with fuzzer-sized inputs. Any crash,
// sanitizer report, hang or unbounded allocation is a bug; an error status is fine.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "steplint/trace/importer.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  steplint::trace::ImportOptions options;
  options.max_event_bytes = 4096;  // inputs stay below -max_len; make the limit reachable
  options.threads = 1;             // deterministic and cheap per input
  steplint::trace::TraceModel model;
  steplint::trace::ImportStatus status = steplint::trace::importTraceBytes(
      std::string_view(reinterpret_cast<const char*>(data), size), model, options, "fuzz");
  // Cheap invariants that hold for any input.
  if (!status.ok() && status.message.empty()) __builtin_trap();  // every failure names its cause
  for (const auto& e : model.events) {
    if (e.dur_ns < 0) __builtin_trap();  // negative durations are clamped at import
    if (e.track >= model.tracks.size()) __builtin_trap();
  }
  return 0;
}
