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

/// Top-level metadata written at the end of a recording: how many host events the collector's
/// buffer cap dropped, and how many GPU activity records CUPTI dropped (present with CUPTI only).
/// The importer turns non-zero counts into data-loss import stats (SL001, summary, GUI).
inline constexpr std::string_view kDroppedEventsKey = "steplint_dropped_events";
inline constexpr std::string_view kDroppedActivityRecordsKey = "steplint_dropped_activity_records";

/// Top-level metadata, present only when recording stopped while the program went on (or lost
/// events for another reason the collector knows of): a one-line reason for the user. Absent in
/// a complete recording.
inline constexpr std::string_view kStoppedEarlyKey = "steplint_stopped_early";

/// Top-level metadata written at the end of a recording: the time, in ns, that recording one op
/// added to the thread that ran it (the collector's callbacks, measured on a sample of the ops,
/// plus RecordFunction's own cost), and how many ops the mean is over. The step replay takes it
/// out of the host timeline before estimating savings (docs/savings.md).
inline constexpr std::string_view kOpOverheadKey = "steplint_op_overhead_ns";
inline constexpr std::string_view kOpOverheadSamplesKey = "steplint_op_overhead_samples";

/// Top-level metadata from the Python import hook: torch.distributed's backend ("nccl",
/// "gloo"). The collector writes distributedInfo when recording starts, before the program
/// initialises its process group, so the importer takes the backend from this key when
/// distributedInfo has none.
inline constexpr std::string_view kDistributedBackendKey = "distributed_backend";

}  // namespace steplint::trace
