// steplint-import-bench: times importTraceFile() alone, without any analysis, so the benchmark
// can tell importer speed from `steplint summary` speed. One line per file:
//
//   file=... ok=1 json_bytes=... seconds=... mb_per_s=... events=... peak_rss_kb=...
//
// Peak RSS is the process high-water mark, so pass one file per run when it matters.
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "steplint/trace/importer.h"

namespace {

size_t countAll(const steplint::trace::TraceModel& m) {
  return m.events.size() + m.memory_events.size() + m.instants.size() + m.counters.size() +
         m.flows.size();
}

}  // namespace

int main(int argc, char** argv) {
  steplint::trace::ImportOptions options;
  int first = 1;
  if (argc > 2 && std::strcmp(argv[1], "--threads") == 0) {
    options.threads = std::atoi(argv[2]);
    first = 3;
  }
  if (first >= argc) {
    std::fprintf(stderr, "usage: steplint-import-bench [--threads N] TRACE...\n");
    return 2;
  }
  int rc = 0;
  for (int i = first; i < argc; ++i) {
    steplint::trace::TraceModel model;
    auto t0 = std::chrono::steady_clock::now();
    steplint::trace::ImportStatus status =
        steplint::trace::importTraceFile(argv[i], model, options);
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    double mb = static_cast<double>(model.metadata.input_bytes) / 1e6;
    std::printf(
        "file=%s ok=%d json_bytes=%llu seconds=%.3f mb_per_s=%.1f events=%zu peak_rss_kb=%ld\n",
        argv[i], status.ok() ? 1 : 0, static_cast<unsigned long long>(model.metadata.input_bytes),
        seconds, seconds > 0 ? mb / seconds : 0.0, countAll(model), usage.ru_maxrss);
    if (!status.ok()) {
      std::fprintf(stderr, "steplint-import-bench: %s\n", status.message.c_str());
      rc = 1;
    }
  }
  return rc;
}
