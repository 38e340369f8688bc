// simdjson's own parse rate on a trace's JSON: the ceiling the importer is measured against
// (docs/benchmarks.md "Import scaling"). The text is read into memory first (gzip inflated),
// so only parsing is timed; one thread, as simdjson parses one document on one thread.
#pragma once

#include <cstdint>
#include <string>

namespace steplint::bench {

struct RawParseResult {
  bool ok = false;
  std::string error;           // when !ok
  std::string implementation;  // simdjson's kernel chosen at run time (icelake, haswell, ...)
  uint64_t json_bytes = 0;
  uint64_t values = 0;          // values the On-Demand walk visited (a checksum of sorts)
  double ondemand_seconds = 0;  // best of the runs: On-Demand, every value materialised
  double dom_seconds = 0;       // best of the runs: DOM parse of the whole document (0: n/a)
  std::string dom_error;        // why the DOM was not timed (too large, out of memory)
  // What a simdjson program pays on a file it has not seen: reading it into a padded buffer
  // (simdjson::padded_string::load, plain files only; 0 for gzip) and the first On-Demand
  // walk, which also faults in the parser's buffers.
  double load_seconds = 0;
  double first_ondemand_seconds = 0;
};

/// Reads `path` (plain or gzip) and times, `runs` times each, an On-Demand walk that reads
/// every key, string and number, and a DOM parse (up to 2 GB of JSON; simdjson parses no
/// document above 4 GiB at all, which is an error). The fastest run of each counts: the first
/// one also faults in the parser's buffers, which the later ones reuse; it is kept apart, with
/// the time simdjson's own loader takes to read a plain file, as the cold figure.
RawParseResult measureRawParse(const std::string& path, int runs);

}  // namespace steplint::bench
