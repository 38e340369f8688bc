// Everything an importer repaired, dropped or could not interpret is counted here instead
// of aborting (the Perfetto trace_processor habit). One declarative table; `steplint summary`
// prints the non-zero rows, the GUI shows them as "trace health".
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace steplint::trace {

enum class StatSeverity : uint8_t {
  kInfo,      // normal for some real traces; numbers unaffected
  kError,     // an event was dropped or changed
  kDataLoss,  // the numbers are incomplete
};

// name,                          severity,   description
#define STEPLINT_IMPORT_STATS(X)                                                               \
  X(json_invalid_utf8, kInfo, "Invalid UTF-8 or lone \\u surrogates replaced by U+FFFD")       \
  X(json_control_char_escaped, kInfo, "Raw control characters escaped inside strings")         \
  X(json_bare_na_quoted, kInfo, "Unquoted N/A values turned into strings")                     \
  X(json_unescaped_quote, kInfo, "Unescaped quotes inside strings escaped")                    \
  X(json_truncated, kDataLoss, "File ended inside traceEvents; later events lost")             \
  X(json_event_unparseable, kError, "Event that is not valid JSON even after repair; dropped") \
  X(json_event_too_large, kError, "Event larger than the size limit; skipped")                 \
  X(json_trailing_garbage, kInfo, "Bytes after the end of the trace; ignored")                 \
  X(json_second_document, kDataLoss,                                                           \
    "A second JSON document after the trace; its events were not imported")                    \
  X(gzip_error, kDataLoss, "Corrupt or truncated gzip stream; later data lost")                \
  X(input_read_error, kDataLoss,                                                               \
    "Reading the file failed, or it shrank while being read; later data lost")                 \
  X(event_not_object, kError, "traceEvents element that is not an object; dropped")            \
  X(event_unknown_phase, kInfo, "Event with a phase steplint does not model; skipped")         \
  X(event_unknown_category, kInfo,                                                             \
    "Event with a category steplint does not model; kept on its row, not analysed")            \
  X(event_missing_field, kError, "Event without a usable ph/ts/dur; dropped")                  \
  X(event_bad_number, kError, "ts/dur/pid/tid that is not a number; event dropped")            \
  X(event_integer_overflow, kError,                                                            \
    "Number outside the int64 range; event dropped or id kept as text")                        \
  X(event_negative_duration, kError, "Negative dur clamped to 0")                              \
  X(event_absurd_duration, kError, "Duration over 7 days; event dropped")                      \
  X(event_begin_end_pair, kInfo, "B/E events paired into complete events")                     \
  X(event_unmatched_begin_end, kError, "B or E event without its partner; dropped")            \
  X(metadata_unknown, kInfo, "Metadata ('M') event with an unknown name; ignored")             \
  X(device_op_without_launch, kInfo, "Device op whose correlation matched no API call")        \
  X(launch_without_op, kInfo, "Runtime/driver call linked to no CPU op")                       \
  X(launch_external_id_elsewhere, kInfo,                                                       \
    "Runtime/driver call whose External id names an op at another time; linked by nesting")    \
  X(legacy_gpu_work_unwritten, kInfo,                                                          \
    "Op linked to CUDA work (cpu_to_cuda) whose kernels the legacy export does not write")     \
  X(external_id_mismatch, kInfo, "Device op and its launch call disagree on External id")      \
  X(overlapping_siblings, kInfo, "Partially overlapping events on one thread")                 \
  X(depth_saturated, kInfo, "Nesting deeper than 65535 levels; depth saturated")               \
  X(device_properties_bad, kError, "deviceProperties entry that could not be read")            \
  X(top_level_number_out_of_range, kError,                                                     \
    "deviceProperties/distributedInfo number not finite or out of range; ignored")             \
  X(base_time_invalid, kError, "baseTimeNanoseconds not an integer in 0..2^63-1; ignored")     \
  X(recorder_dropped_events, kDataLoss,                                                        \
    "Host events dropped at the collector's buffer cap; raise STEPLINT_MAX_BUFFER_MB")         \
  X(recorder_dropped_gpu_records, kDataLoss,                                                   \
    "GPU records CUPTI dropped; record fewer steps (--schedule)")                              \
  X(recorder_stopped_early, kDataLoss,                                                         \
    "Recording stopped before the program ended; later events missing")                        \
  X(recorder_metadata_bad, kError,                                                             \
    "steplint_dropped_*/steplint_stopped_early value unreadable; ignored")

enum class Stat : uint16_t {
#define SL_STAT_ENUM(name, severity, description) name,
  STEPLINT_IMPORT_STATS(SL_STAT_ENUM)
#undef SL_STAT_ENUM
      kCount
};
inline constexpr size_t kStatCount = static_cast<size_t>(Stat::kCount);

struct StatInfo {
  std::string_view name;
  StatSeverity severity;
  std::string_view description;
};
const StatInfo& statInfo(Stat stat);
std::string_view statSeverityName(StatSeverity severity);

class ImportStats;
/// One line per non-zero counter whose severity is error or data-loss, most severe first:
/// "3 x json_event_unparseable [error]: Event that is not valid JSON even after repair;
/// dropped". The CLI prefixes the file; the GUI lists them under Trace health.
std::vector<std::string> importStatLines(const ImportStats& stats);

class ImportStats {
 public:
  void add(Stat s, uint64_t n = 1) { counts_[static_cast<size_t>(s)] += n; }
  uint64_t get(Stat s) const { return counts_[static_cast<size_t>(s)]; }
  void merge(const ImportStats& other) {
    for (size_t i = 0; i < kStatCount; ++i) counts_[i] += other.counts_[i];
  }
  bool hasDataLoss() const;
  /// Total of all counters with the given severity.
  uint64_t total(StatSeverity severity) const;

 private:
  std::array<uint64_t, kStatCount> counts_{};
};

}  // namespace steplint::trace
