// steplint-import-bench: times importTraceFile() alone, without any analysis, so the benchmark
// can tell importer speed from `steplint summary` speed. One line per file:
//
//   file=... ok=1 json_bytes=... seconds=... mb_per_s=... events=... peak_rss_kb=...
//   finalize_seconds=...   (from the importer's last progress report, after the last batch
//                           is merged, to the end: TraceBuilder::finalize(), the serial tail)
//
// Peak RSS is the process high-water mark, so pass one file per run when it matters.
//
// With `--raw`, times simdjson itself on the same JSON instead (bench/raw_parse.h), the
// baseline bench/import_bench.sh --scaling divides by:
//
//   file=... ok=1 json_bytes=... implementation=icelake ondemand_mb_per_s=... dom_mb_per_s=...
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "raw_parse.h"
#include "steplint/trace/importer.h"

namespace {

size_t countAll(const steplint::trace::TraceModel& m) {
  return m.events.size() + m.memory_events.size() + m.instants.size() + m.counters.size() +
         m.flows.size();
}

int rawParse(const char* path, int runs) {
  const steplint::bench::RawParseResult r = steplint::bench::measureRawParse(path, runs);
  if (!r.ok) {
    std::fprintf(stderr, "steplint-import-bench: %s: %s\n", path, r.error.c_str());
    return 1;
  }
  const double mb = static_cast<double>(r.json_bytes) / 1e6;
  std::printf(
      "file=%s ok=1 json_bytes=%llu implementation=%s values=%llu ondemand_seconds=%.3f "
      "ondemand_mb_per_s=%.1f dom_seconds=%.3f dom_mb_per_s=%.1f load_seconds=%.3f "
      "first_ondemand_seconds=%.3f cold_mb_per_s=%.1f\n",
      path, static_cast<unsigned long long>(r.json_bytes), r.implementation.c_str(),
      static_cast<unsigned long long>(r.values), r.ondemand_seconds,
      r.ondemand_seconds > 0 ? mb / r.ondemand_seconds : 0.0, r.dom_seconds,
      r.dom_seconds > 0 ? mb / r.dom_seconds : 0.0, r.load_seconds, r.first_ondemand_seconds,
      mb / (r.load_seconds + r.first_ondemand_seconds));
  if (!r.dom_error.empty())
    std::fprintf(stderr, "steplint-import-bench: %s: DOM not timed: %s\n", path,
                 r.dom_error.c_str());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  steplint::trace::ImportOptions options;
  int first = 1;
  int raw_runs = 0;
  while (first + 1 < argc && argv[first][0] == '-') {
    if (std::strcmp(argv[first], "--threads") == 0) {
      options.threads = std::atoi(argv[first + 1]);
    } else if (std::strcmp(argv[first], "--raw") == 0) {
      raw_runs = std::max(1, std::atoi(argv[first + 1]));
    } else {
      break;
    }
    first += 2;
  }
  if (first >= argc) {
    std::fprintf(stderr, "usage: steplint-import-bench [--threads N | --raw RUNS] TRACE...\n");
    return 2;
  }
  int rc = 0;
  for (int i = first; i < argc; ++i) {
    if (raw_runs > 0) {
      rc |= rawParse(argv[i], raw_runs);
      continue;
    }
    steplint::trace::TraceModel model;
    // The importer reports progress 1.0 once every batch is parsed and merged, just before
    // TraceBuilder::finalize(): the time from the last report to the end is the import's tail.
    auto last_progress = std::chrono::steady_clock::now();
    options.progress = [&](double) { last_progress = std::chrono::steady_clock::now(); };
    auto t0 = std::chrono::steady_clock::now();
    steplint::trace::ImportStatus status =
        steplint::trace::importTraceFile(argv[i], model, options);
    const auto t1 = std::chrono::steady_clock::now();
    double seconds = std::chrono::duration<double>(t1 - t0).count();
    const double tail = std::chrono::duration<double>(t1 - last_progress).count();
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    double mb = static_cast<double>(model.metadata.input_bytes) / 1e6;
    std::printf(
        "file=%s ok=%d json_bytes=%llu seconds=%.3f mb_per_s=%.1f events=%zu peak_rss_kb=%ld "
        "finalize_seconds=%.3f\n",
        argv[i], status.ok() ? 1 : 0, static_cast<unsigned long long>(model.metadata.input_bytes),
        seconds, seconds > 0 ? mb / seconds : 0.0, countAll(model), usage.ru_maxrss, tail);
    if (!status.ok()) {
      std::fprintf(stderr, "steplint-import-bench: %s\n", status.message.c_str());
      rc = 1;
    }
  }
  return rc;
}
