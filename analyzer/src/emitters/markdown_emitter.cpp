// Markdown for a CI job summary (`>> $GITHUB_STEP_SUMMARY`): per trace a findings table, the
// step-time breakdown of the summary, and the rules that could not be checked.
#include <cctype>
#include <ostream>

#include "../text_table.h"
#include "builtin_emitters.h"
#include "emit_util.h"

namespace steplint::analyzer {
namespace {

void printHeader(std::ostream& out, const LintReport& report) {
  const size_t findings = report.findingCount();
  out << "## steplint\n\n";
  if (findings == 0)
    out << "**No findings**";
  else
    out << "**" << emit::counted(findings, "finding") << "** (" << emit::severityBreakdown(report)
        << ")";
  out << " in " << emit::counted(report.traces.size(), "trace") << " · "
      << emit::counted(report.selected.size(), "rule")
      << " selected · fail-on: " << severityName(report.fail_on);
  if (report.suppressedCount() > 0)
    out << " · " << report.suppressedCount() << " suppressed by the baseline";
  out << "\n\n";
}

void printFindings(std::ostream& out, const LintResult& lint) {
  if (lint.diagnostics.empty()) {
    out << "No findings.\n\n";
    return;
  }
  out << "| Code | Severity | Step | Message | Est. saving |\n|---|---|---:|---|---:|\n";
  for (const Diagnostic& d : lint.diagnostics) {
    const auto step = emit::firstStep(d);
    const std::string saving = emit::savingText(d.saving);
    out << "| [" << d.code << "](" << ruleDocUrl(d.code, d.name) << ") `" << d.name << "` | "
        << severityName(d.severity) << " | " << (step ? std::to_string(*step) : "") << " | "
        << emit::markdownCell(d.message) << " | "
        << (saving.empty() ? "–" : emit::markdownCell(saving)) << " |\n";
  }
  out << '\n';
  if (const std::string all = emit::savingAllText(lint); !all.empty()) {
    std::string sentence = all;
    sentence[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(sentence[0])));
    out << "**" << sentence << "**\n\n";
  }
}

void printBreakdown(std::ostream& out, const TraceSummary& summary) {
  const BreakdownResult& b = summary.breakdown;
  if (b.per_step.empty()) {
    out << "No training steps found, so no step-time breakdown.\n\n";
    return;
  }
  out << "**Step-time breakdown** (average over " << emit::counted(b.per_step.size(), "step")
      << ")\n\n"
      << "| Category | Avg ms | % |\n|---|---:|---:|\n";
  for (int i = 0; i < kStepCategoryCount; ++i) {
    const auto category = static_cast<StepCategory>(i);
    out << "| " << stepCategoryName(category) << " | " << formatMs(b.average_ns[i]) << " | "
        << formatPercent(b.averageFraction(category)) << " |\n";
  }
  out << "| **Total** | **" << formatMs(b.average_total_ns) << "** | 100.00% |\n\n";
}

void printNotChecked(std::ostream& out, const LintResult& lint) {
  if (lint.not_checked.empty()) return;
  out << "**Not checked**\n\n";
  for (const NotChecked& n : lint.not_checked)
    out << "- " << n.code << " `" << n.name << "`: " << emit::markdownCell(n.reason) << '\n';
  out << '\n';
}

}  // namespace

void MarkdownEmitter::emit(const LintReport& report, const EmitOptions& options,
                           std::ostream& out) const {
  printHeader(out, report);
  for (const TraceReport& t : report.traces) {
    out << "### " << emit::markdownCode(emit::displayPath(t.lint.source, options.base_dir))
        << "\n\n";
    printFindings(out, t.lint);
    printBreakdown(out, t.summary);
    printNotChecked(out, t.lint);
    if (t.suppressed > 0) out << "_" << t.suppressed << " suppressed by the baseline._\n\n";
  }
  if (report.warnings.empty()) return;
  out << "**Warnings**\n\n";
  for (const std::string& w : report.warnings) out << "- " << emit::markdownCell(w) << '\n';
  out << '\n';
}

}  // namespace steplint::analyzer
