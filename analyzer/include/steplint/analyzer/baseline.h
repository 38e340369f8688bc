// CI baselines: a JSON file of accepted findings (`check --write-baseline F`); `check
// --baseline F` then reports only findings that are not in it, and reports again an accepted
// finding that grew beyond a band ("worse than baseline"). Fingerprints are step- and
// path-independent (Diagnostic::fingerprint), so a re-recorded trace of the same program
// matches its baseline; each entry also carries the identity of the trace it came from
// (its scope, traceScope), so a baseline written from rank 0 does not hide rank 3's findings.
#pragma once

#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "steplint/analyzer/lint.h"
#include "steplint/trace/model.h"

namespace steplint::analyzer {

/// The baseline file's schema id. Version 2 adds `scope`, `magnitude` and `unit` to entries.
inline constexpr const char* kBaselineSchema = "steplint.baseline/2";
/// The previous version, still read: its entries have no scope and no size.
inline constexpr const char* kBaselineSchemaV1 = "steplint.baseline/1";

/// What part of a trace's identity a fingerprint is scoped to.
enum class BaselineScope : uint8_t {
  kFile,  // the file name with long digit runs (timestamps, pids) as '*', plus the rank if any
  kRank,  // the distributed rank only ("" without one)
  kNone,  // no scope: an accepted finding is accepted in every trace (version 1 behaviour)
};
/// "file" | "rank" | "none"; parseBaselineScope returns false on anything else.
std::string_view baselineScopeName(BaselineScope scope);
bool parseBaselineScope(std::string_view text, BaselineScope& out);

/// The scope key of a trace: `worker0.*.pt.trace.json.gz`, `rank=3`,
/// `rank=3:worker0.*.pt.trace.json.gz`, or "" (kNone, or kRank without a rank).
std::string traceScope(const std::string& path, const trace::TraceMetadata& metadata,
                       BaselineScope scope);

struct BaselineEntry {
  std::string scope;      // "" = every trace
  double magnitude = -1;  // the finding's size when accepted (run_diff.h FindingSize); < 0: none
  std::string unit;
};

struct Baseline {
  int version = 0;  // 1 or 2 as read ("schema"); 0 for a hand-written file without one
  std::map<std::string, std::vector<BaselineEntry>> entries;  // by fingerprint
  /// The accepted entry for `fingerprint` in a trace of scope `scope`, or nullptr. An entry
  /// without scope matches every trace, and a trace without scope ("") every entry.
  const BaselineEntry* find(const std::string& fingerprint, const std::string& scope) const;
  bool contains(const std::string& fingerprint) const { return entries.count(fingerprint) > 0; }
};

/// Reads `path` (at most 64 MiB, through trace/input_file.h). Returns "" on success, else a
/// message without the path ("not a JSON file", "unsupported baseline schema ..."). Accepts
/// versions 1 and 2, entries as objects with a "fingerprint" field or as plain strings, and a
/// hand-written file without "schema"; any other "schema" is refused.
std::string loadBaseline(const std::string& path, Baseline& out);

/// One trace's findings and its scope key, for writeBaseline.
struct ScopedResult {
  const LintResult* result = nullptr;
  std::string scope;
};

/// Writes every finding of `results` as an accepted entry (sorted by fingerprint and scope;
/// where several traces share a scope, the code, message, trace and size of the largest
/// occurrence, so that every finding written is accepted when read back) through
/// trace::writeOutputFile, so a failed write keeps the old baseline. Returns "" or an error.
std::string writeBaseline(const std::string& path, const std::vector<ScopedResult>& results);
/// Unscoped: every entry applies to every trace.
std::string writeBaseline(const std::string& path, const std::vector<LintResult>& results);

struct BaselineOutcome {
  size_t suppressed = 0;
  size_t worse = 0;  // accepted findings reported again: grown beyond the band
};

/// Removes the diagnostics accepted for a trace of scope `scope`. An accepted finding whose
/// size grew by more than `worse_factor` (same unit; from 0 to more counts) stays, its message
/// ending in "; worse than baseline: A -> B unit (band F×)" and its evidence carrying
/// `baseline_magnitude`.
BaselineOutcome applyBaseline(const Baseline& baseline, LintResult& result,
                              const std::string& scope = "", double worse_factor = 2.0);

}  // namespace steplint::analyzer
