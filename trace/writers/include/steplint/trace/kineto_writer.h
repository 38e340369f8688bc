// Streaming writer for Kineto-compatible Chrome-trace JSON (docs/reference/trace-format.md §13).
//
// Used by the collector (collector/) and, later, by bench/tracegen. Depends on zlib only, so
// the collector builds on machines without steplint's importer dependencies (simdjson, ...).
//
//   KinetoJsonWriter w;
//   if (!w.open("run/trace.pt.trace.json.gz", &error)) ...        // writes "<path>.partial"
//   w.beginTrace(header);                                         // keys before traceEvents
//   w.event('X').cat("cpu_op").name("aten::addmm").pid(4242).tid(4243)
//       .ts(start_ns).dur(dur_ns).arg("External id", 7).rawArg("Input Dims", "[[8,16]]").done();
//   w.flush();                                                    // periodic: data survives a
//   crash w.endTrace(trailer, &error);                                  // "]", trailing keys,
//   rename
//
// Times are int64 ns on the writer's clock; `ts` is written relative to
// TraceHeader::base_time_ns as "{us}.{3-digit ns}" (style C of §3), never negative.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace steplint::trace {

/// One `deviceProperties[]` entry (docs/reference/trace-format.md §10.1).
struct WriterDeviceProperties {
  int id = 0;
  std::string name;
  int64_t total_global_mem = 0;
  int compute_major = 0, compute_minor = 0;
  int max_threads_per_block = 0, max_threads_per_multiprocessor = 0;
  int regs_per_block = 0, warp_size = 32;
  int64_t shared_mem_per_block = 0;
  int num_sms = 0;
  int regs_per_multiprocessor = 0;
  int64_t shared_mem_per_block_optin = 0, shared_mem_per_multiprocessor = 0;
};

struct TraceHeader {
  std::vector<WriterDeviceProperties> devices;
  int rank = 0;  // distributedInfo.rank, written as "rank": N (HTA regex)
  int world_size = 1;
  std::string backend;  // distributedInfo.backend, omitted when empty
  /// Extra top-level keys, value as raw JSON text (caller guarantees validity), e.g.
  /// {"steplint_version", "\"0.1.0\""}, {"cudnn_benchmark", "false"}.
  std::vector<std::pair<std::string, std::string>> metadata;
  int64_t base_time_ns = 0;     // epoch of relative ts: the writer clock's zero in unix ns
  int64_t clock_origin_ns = 0;  // writer-clock value that maps to ts = 0
};

/// Keys written after traceEvents (values known only at the end: drop counters, sources).
struct TraceTrailer {
  std::vector<std::pair<std::string, std::string>> metadata;  // raw JSON values
  std::string trace_name;
};

class KinetoJsonWriter;

/// Builder for one event; finish with done(). Strings are escaped per RFC 8259 and made valid
/// UTF-8 (invalid bytes become U+FFFD).
class EventBuilder {
 public:
  EventBuilder& cat(std::string_view c);
  EventBuilder& name(std::string_view n);
  EventBuilder& pid(int64_t p);
  EventBuilder& pidString(std::string_view p);  // "Spans"
  EventBuilder& tid(int64_t t);
  EventBuilder& ts(int64_t clock_ns);
  EventBuilder& dur(int64_t ns);  // negative clamped to 0
  EventBuilder& id(uint64_t flow_id);
  EventBuilder& field(std::string_view key, std::string_view raw_json);  // e.g. "s", "\"t\""
  EventBuilder& arg(std::string_view key, int64_t v);
  EventBuilder& arg(std::string_view key, double v);
  EventBuilder& arg(std::string_view key, std::string_view string_value);
  EventBuilder& arg(std::string_view key, const char* string_value) {
    return arg(key, std::string_view(string_value));
  }
  EventBuilder& rawArg(std::string_view key, std::string_view raw_json);
  /// Several args at once: an object body without braces, `"k1": v1, "k2": v2`, valid JSON.
  EventBuilder& rawArgs(std::string_view object_body);
  void done();

 private:
  friend class KinetoJsonWriter;
  explicit EventBuilder(KinetoJsonWriter* w) : w_(w) {}
  std::string& fieldKey(std::string_view key);  // `, "key": ` (closes args first)
  std::string& argsSeparator();                 // `, "args": {` or `, ` inside args
  std::string& argKey(std::string_view key);    // separator + `"key": `
  KinetoJsonWriter* w_;
  bool in_args_ = false;
};

class KinetoJsonWriter {
 public:
  KinetoJsonWriter();
  ~KinetoJsonWriter();  // an unfinished trace keeps its ".partial" file (importer repairs it)
  KinetoJsonWriter(const KinetoJsonWriter&) = delete;
  KinetoJsonWriter& operator=(const KinetoJsonWriter&) = delete;

  /// Opens "<path>.partial" for writing; gzip when path ends in ".gz". False + error on failure,
  /// and when <path> or "<path>.partial" exist and are not regular files (a device node, a FIFO,
  /// a directory): the writer never writes to or renames over anything else. Also false while
  /// another process writes the same path (openFailedInUse()): it holds the .partial's flock.
  bool open(const std::string& path, std::string* error);
  bool openFailedInUse() const;
  void beginTrace(const TraceHeader& header);
  /// Starts an event with phase ph ('X', 'i', 'M', 's', 'f', 'C').
  EventBuilder event(char ph);
  /// Pushes buffered bytes to the file (gzip: a sync flush), so a crash loses at most what
  /// came after the last flush.
  void flush();
  /// Closes traceEvents, writes the trailer, closes the file and renames .partial → path. False
  /// + error when a write failed ("write to X.partial failed: No space left on device"; the
  /// .partial is kept) or the rename did.
  bool endTrace(const TraceTrailer& trailer, std::string* error);
  /// "" while every write succeeded; else the first failure's reason ("File too large").
  const std::string& writeError() const;
  uint64_t eventsWritten() const;
  uint64_t bytesWritten() const;  // uncompressed

 private:
  friend class EventBuilder;
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// Adds the top-level key `key` (value: raw JSON text) to a trace that a KinetoJsonWriter
/// finished, plain or gzip: for a fact known only after the trace was closed (the collector's
/// steplint_stopped_early). Rewrites it through "<path>.partial" and renames it back, so the
/// finished trace stays intact on failure. False + error when it is not such a trace.
bool appendTraceMetadata(const std::string& path, std::string_view key, std::string_view raw_json,
                         std::string* error);

/// Appends s to out as a JSON string literal (quotes included), valid UTF-8, RFC 8259 escapes.
void appendJsonString(std::string& out, std::string_view s);

}  // namespace steplint::trace
