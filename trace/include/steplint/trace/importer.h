// Reading trace files into a TraceModel.
//
// importTraceFile() opens the path once through the input layer (input_file.h: regular
// files, pipes and FIFOs; directories and devices are refused), sniffs the content (gzip or
// not, then the registered importers) and streams it: the whole text is never held at once, so
// memory stays proportional to the events kept, not to the file. Per-event problems are counted in
// TraceModel::stats; only file-level failures (unreadable, not a trace) return an error.
#pragma once

#include <atomic>
#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

#include "steplint/trace/input_file.h"
#include "steplint/trace/model.h"

namespace steplint::trace {

struct ImportOptions {
  /// Events larger than this are skipped and counted (json_event_too_large); this is what
  /// bounds memory on hostile input such as a 1 GB string (peak about 5x this value: the
  /// buffered text, its padded copy and simdjson's index). Real Kineto events are < 1 MB.
  size_t max_event_bytes = size_t{16} << 20;
  /// Parser threads; 0 = one per core this process may run on (availableCores()).
  int threads = 0;
  /// Called now and then with the fraction of input consumed (0..1), from the importing thread.
  std::function<void(double)> progress;
  /// Set to true from any thread to stop early (the result is then ImportError::kCancelled).
  const std::atomic<bool>* cancel = nullptr;
  /// How long a pipe or FIFO may stay silent before its first byte (input_file.h).
  std::chrono::milliseconds stream_wait = kDefaultStreamWait;
  /// Keep flow events ('s'/'t'/'f', TraceModel::flows). They are a viewer aid: no analysis,
  /// rule or GUI view reads them (links come from correlation ids), yet they are up to a third
  /// of a GPU trace's events, so by default they are counted out of the model, not kept.
  bool keep_flows = false;
};

enum class ImportError { kNone, kIo, kNotATrace, kCancelled };

struct ImportStatus {
  ImportError error = ImportError::kNone;
  std::string message;  // one line naming the file, and the offset where it helps
  bool ok() const { return error == ImportError::kNone; }
};

/// The cores this process may run on: its CPU affinity (taskset, cgroup cpusets), at least 1.
/// std::thread::hardware_concurrency() counts the machine's cores instead, which oversubscribes
/// a process confined to fewer.
unsigned availableCores();

/// Imports a Kineto / torch.profiler / Chrome-trace JSON file, plain or gzip.
ImportStatus importTraceFile(const std::string& path, TraceModel& out,
                             const ImportOptions& options = {});

/// Same, from bytes in memory (plain or gzip). Used by tests and the fuzzer.
ImportStatus importTraceBytes(std::string_view bytes, TraceModel& out,
                              const ImportOptions& options = {},
                              std::string_view source_name = "<memory>");

}  // namespace steplint::trace
