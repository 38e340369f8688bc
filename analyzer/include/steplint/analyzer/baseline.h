// CI baselines: a JSON file of accepted finding fingerprints (`check --write-baseline F`);
// `check --baseline F` then reports only findings whose fingerprint is not in it. Fingerprints
// are step- and path-independent (Diagnostic::fingerprint), so a re-recorded trace of the same
// program matches its baseline.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "steplint/analyzer/lint.h"

namespace steplint::analyzer {

/// The baseline file's schema id.
inline constexpr const char* kBaselineSchema = "steplint.baseline/1";

struct Baseline {
  std::set<std::string> fingerprints;
  bool contains(const std::string& fingerprint) const {
    return fingerprints.count(fingerprint) > 0;
  }
};

/// Reads `path` (at most 64 MiB, through trace/input_file.h). Returns "" on success, else a
/// message without the path ("not a JSON file", "unsupported baseline schema ..."). Accepts
/// entries as objects with a "fingerprint" field or as plain strings, and a hand-written file
/// without "schema"; a "schema" other than kBaselineSchema is refused.
std::string loadBaseline(const std::string& path, Baseline& out);

/// Writes every finding of `results` as an accepted fingerprint (sorted, unique; the code,
/// message and trace of the first occurrence are kept for reviewers) through
/// trace::writeOutputFile, so a failed write keeps the old baseline. Returns "" or an error.
std::string writeBaseline(const std::string& path, const std::vector<LintResult>& results);

/// Removes diagnostics whose fingerprint is in `baseline`; returns how many were removed.
size_t applyBaseline(const Baseline& baseline, LintResult& result);

}  // namespace steplint::analyzer
