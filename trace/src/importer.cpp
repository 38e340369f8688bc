// Entry points and the importer registry: the content decides the format, never the file
// name (gzip is detected by its magic number, then each importer sniffs the first bytes).
#include "steplint/trace/importer.h"

#include <sched.h>

#include <algorithm>
#include <thread>
#include <vector>

#include "byte_source.h"
#include "kineto_json_importer.h"
#include "recorder_metadata.h"
#include "steplint/trace/trace_head.h"

namespace steplint::trace {
namespace {

constexpr size_t kSniffBytes = size_t{64} << 10;

struct ImporterEntry {
  std::string_view name;
  bool (*sniff)(std::string_view head);
  ImportStatus (*run)(ByteSource& source, std::string head, TraceModel& model,
                      const ImportOptions& options);
};

// The one registry of trace formats. Add new importers here, in priority order.
const std::vector<ImporterEntry>& builtinImporters() {
  static const std::vector<ImporterEntry> importers = {
      {"chrome-json", &sniffChromeJson,
       &importChromeJson},  // Kineto / torch.profiler / Chrome trace
  };
  return importers;
}

std::string readHead(ByteSource& source) {
  std::string head(kSniffBytes, '\0');
  head.resize(readFully(source, head.data(), head.size()));
  return head;
}

std::string describeHead(std::string_view head) {
  if (head.empty()) return "empty file";
  if (head.substr(0, 4) == "\x89PNG") return "a PNG image";
  if (head.substr(0, 5) == "%PDF-") return "a PDF document";
  if (head.substr(0, 4) ==
      "\x7f"
      "ELF")
    return "an executable";
  if (head.substr(0, 4) == "PK\x03\x04") return "a zip archive";
  return "does not start with a JSON object or array";
}

ImportStatus importFrom(std::unique_ptr<ByteSource> source, const std::string& name,
                        TraceModel& out, const ImportOptions& options) {
  std::string head = readHead(*source);
  out.metadata.source_path = name;
  for (const ImporterEntry& importer : builtinImporters()) {
    if (!importer.sniff(head)) continue;
    ImportStatus status = importer.run(*source, std::move(head), out, options);
    if (status.ok())
      applyRecorderMetadata(out);  // the collector's own loss counts, once all keys are in
    if (status.error == ImportError::kNotATrace)
      status.message = name + ": not a trace (" + status.message + ")";
    else if (!status.ok())
      status.message = name + ": " + status.message;
    return status;
  }
  // A corrupt gzip header yields no bytes at all: say so rather than "empty file".
  if (const std::string problem = source->error(); !problem.empty())
    return {ImportError::kIo, name + ": " + problem};
  return {ImportError::kNotATrace, name + ": not a trace (" + describeHead(head) + ")"};
}

}  // namespace

unsigned availableCores() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) > 0)
    return static_cast<unsigned>(CPU_COUNT(&set));
  return std::max(1u, std::thread::hardware_concurrency());
}

ImportStatus importTraceFile(const std::string& path, TraceModel& out,
                             const ImportOptions& options) {
  // Opened once: a pipe or FIFO cannot be opened again to start over, so the magic bytes read
  // for gzip detection are put back in front of the stream instead.
  InputOpenOptions open_options;
  open_options.what = "trace file";
  open_options.stream_wait = options.stream_wait;
  std::string error;
  InputFile file = InputFile::open(path, error, open_options);
  if (!file.isOpen()) return {ImportError::kIo, path + ": " + error};
  std::unique_ptr<ByteSource> source = openFileSource(std::move(file));
  std::string magic(2, '\0');
  magic.resize(readFully(*source, magic.data(), magic.size()));
  const bool gzipped = isGzipHead(magic);
  source = openPrefixedSource(std::move(magic), std::move(source));
  if (gzipped) source = openPrefetchSource(openGzipSource(std::move(source)));
  return importFrom(std::move(source), path, out, options);
}

ImportStatus importTraceBytes(std::string_view bytes, TraceModel& out, const ImportOptions& options,
                              std::string_view source_name) {
  std::unique_ptr<ByteSource> source = openMemorySource(bytes);
  if (isGzipHead(bytes)) source = openGzipSource(std::move(source));
  return importFrom(std::move(source), std::string(source_name), out, options);
}

}  // namespace steplint::trace
