// Values the trainer or the recorder wrote as top-level trace metadata: `steplint record`
// writes cpu_cores, rank and world_size; users add their own with steplint::annotate (LibTorch)
// or torch.profiler's prof.add_metadata_json (Python). The importer keeps them as raw JSON.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>

#include "steplint/trace/model.h"

namespace steplint::rules::common {

/// The raw JSON value of the first of `keys` present in the metadata.
std::optional<std::string_view> metadataRaw(const trace::TraceMetadata& meta,
                                            std::initializer_list<std::string_view> keys);

/// The integer value of the first of `keys` present in the metadata; a quoted number ("8")
/// counts too. nullopt when none is present or the value is not an integer.
std::optional<int64_t> metadataInteger(const trace::TraceMetadata& meta,
                                       std::initializer_list<std::string_view> keys);

/// torch.autocast as `steplint record`'s Python import hook saw it (docs/collector.md "Python
/// trainers"): `autocast_enabled` (an enabled region was entered) and `autocast_dtype`.
struct AutocastSetting {
  bool known = false;  // the trace has `autocast_enabled` (Python trainers under steplint record)
  bool enabled = false;
  std::string dtype;  // "torch.bfloat16"; empty when not written
  /// "autocast (torch.bfloat16)", or "autocast" without a dtype.
  std::string describe() const { return dtype.empty() ? "autocast" : "autocast (" + dtype + ")"; }
};
AutocastSetting autocastSetting(const trace::TraceMetadata& meta);

/// Why the trace lacks `what` when the reason is its format: the legacy profiler's export
/// (TraceMetadata::legacy_profiler_export; torch without Kineto) carries no shapes, stacks or
/// memory events whatever `flag` asked for. `instead` is how steplint record gets them.
/// Empty for any other trace, where the caller's own advice (set `flag`) holds.
std::string legacyExportLacks(const trace::TraceMetadata& meta, std::string_view what,
                              std::string_view flag, std::string_view instead);

/// The host's CPU cores: a rule's `cpu-cores` option when set (> 0), else the count
/// `steplint record` wrote; 0 when neither is known.
int64_t hostCpuCores(const trace::TraceMetadata& meta, int64_t option);

/// The processes that want a core each: the DataLoader workers and the training process, times
/// the training processes on the host (SL101's advice, SL102). Saturates at INT64_MAX: both
/// counts come from the trace's metadata, which may hold any int64 (a hostile
/// `"dataloader_workers": 9223372036854775807` overflowed int64).
int64_t processesWantingCores(int64_t workers, int64_t processes);

}  // namespace steplint::rules::common
