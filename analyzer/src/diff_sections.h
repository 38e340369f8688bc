// What both `steplint diff` renderings share, for runs (run_diff.h) and jobs (job_diff.h):
// sections built once as rows and printed as text (terminal) or Markdown (a PR comment), so the
// two never disagree.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "emitters/emit_util.h"
#include "steplint/analyzer/run_diff.h"
#include "text_table.h"

namespace steplint::analyzer {

struct DiffSection {
  std::string title;
  std::vector<TextTable::Column> columns;
  std::vector<std::vector<std::string>> rows;
  std::string footer;  // "... 40 more rows (--top 0 shows all)"
};

// Deltas below this are rounding, not change (0.5 µs/step).
inline constexpr double kDiffNoiseNs = 500;

std::string signedMs(double ns);  // "+1.250", "-0.300", "0.000" within the noise
std::string signedPercent(double delta, double base);  // "+12.5%"; "" without a base

/// The gate's verdict on the step change, for a headline after its change of the mean:
/// "; significant given ..." or, when the mean moved but not beyond the noise (one long step
/// moves a mean), " mean; not significant given ...; median +2.6%"; "" without a change.
std::string changeTestText(const ChangeTest& test, double base_median_ns, double new_median_ns);

// Markdown cells and code spans: the emitters' (emitters/emit_util.h), so diff and check escape
// alike.
using emit::markdownCell;
using emit::markdownCode;

/// The findings of both runs side by side (change, code, base and new size, message); a footer
/// says when they were not compared or there were none.
DiffSection findingsSection(bool compared, const std::vector<FindingDelta>& findings);

void printSectionsText(std::ostream& out, const std::vector<DiffSection>& sections);
void printSectionsMarkdown(std::ostream& out, const std::vector<DiffSection>& sections);
/// The diff's notes: a "Notes" list (text), or one quoted line each (Markdown).
void printNotesText(std::ostream& out, const std::vector<std::string>& notes);
void printNotesMarkdown(std::ostream& out, const std::vector<std::string>& notes);

}  // namespace steplint::analyzer
