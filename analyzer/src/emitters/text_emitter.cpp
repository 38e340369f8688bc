// flake8-style text: one line per finding, then what could not be checked, then a total.
//   run/a.json:step 3: SL101 [warning] DataLoader wait ... (est. saving 58.3 ms/step, 33%)
#include <ostream>
#include <string>
#include <vector>

#include "builtin_emitters.h"
#include "emit_util.h"
#include "steplint/analyzer/display_text.h"

namespace steplint::analyzer {
namespace {

constexpr std::string_view kBold = "\x1b[1m";
constexpr std::string_view kReset = "\x1b[0m";

std::string_view severityColor(Severity s) {
  switch (s) {
    case Severity::kError:
      return "\x1b[1;31m";
    case Severity::kWarning:
      return "\x1b[33m";
    case Severity::kNote:
      return "\x1b[36m";
  }
  return "";
}

/// `text` wrapped in `style` when colour is on.
std::string paint(std::string_view text, std::string_view style, bool color) {
  if (!color) return std::string(text);
  return std::string(style) + std::string(text) + std::string(kReset);
}

/// One finding per line is the format's promise (grep, editors): a line break in a message
/// reads as a space, and other control characters from the trace are shown escaped.
std::string oneLine(std::string text) {
  for (char& c : text)
    if (c == '\n' || c == '\r') c = ' ';
  return displayText(text);
}

void printFinding(std::ostream& out, const std::string& path, const Diagnostic& d, bool color) {
  out << paint(path, kBold, color);
  if (auto step = emit::firstStep(d)) out << ":step " << *step;
  out << ": " << paint(d.code, kBold, color) << ' '
      << paint("[" + std::string(severityName(d.severity)) + "]", severityColor(d.severity), color)
      << ' ' << oneLine(d.message);
  if (const std::string saving = emit::savingText(d.saving); !saving.empty())
    out << " (est. saving " << saving << ")";
  out << '\n';
}

bool sameNotChecked(const LintResult& a, const LintResult& b) {
  if (a.not_checked.size() != b.not_checked.size()) return false;
  for (size_t i = 0; i < a.not_checked.size(); ++i)
    if (a.not_checked[i].code != b.not_checked[i].code ||
        a.not_checked[i].reason != b.not_checked[i].reason)
      return false;
  return true;
}

/// "a", or "3 traces (a, b, c)", or "8 traces (a, b, c and 5 more)".
std::string traceList(const std::vector<std::string>& paths) {
  if (paths.size() == 1) return paths.front();
  constexpr size_t kNamed = 3;
  std::string text = std::to_string(paths.size()) + " traces (";
  for (size_t i = 0; i < paths.size() && i < kNamed; ++i) text += (i ? ", " : "") + paths[i];
  if (paths.size() > kNamed) text += " and " + std::to_string(paths.size() - kNamed) + " more";
  return text + ")";
}

/// Each distinct list once: the ranks of a job, or a folder of runs, mostly share theirs, and
/// twenty identical lines per trace would bury the findings.
void printNotChecked(std::ostream& out, const LintReport& report, const std::string& base_dir) {
  std::vector<bool> done(report.traces.size(), false);
  for (size_t i = 0; i < report.traces.size(); ++i) {
    const LintResult& lint = report.traces[i].lint;
    if (done[i] || lint.not_checked.empty()) continue;
    std::vector<std::string> paths;
    for (size_t j = i; j < report.traces.size(); ++j) {
      if (done[j] || !sameNotChecked(lint, report.traces[j].lint)) continue;
      done[j] = true;
      paths.push_back(displayText(emit::displayPath(report.traces[j].lint.source, base_dir)));
    }
    out << "Not checked in " << traceList(paths) << ":\n";
    for (const NotChecked& n : lint.not_checked)
      out << "  " << n.code << ' ' << n.name << ": " << oneLine(n.reason) << '\n';
  }
}

std::string totalLine(const LintReport& report) {
  const size_t findings = report.findingCount();
  std::string line = findings == 0 ? "No findings"
                                   : "Found " + emit::counted(findings, "finding") + " (" +
                                         emit::severityBreakdown(report) + ")";
  line += " in " + emit::counted(report.traces.size(), "trace") + " (" +
          emit::counted(report.selected.size(), "rule") + " selected";
  // Per rule, not per trace: 9 rules unchecked on each of 3 traces read "27 not checked" of 29.
  if (const size_t rules = report.notCheckedRuleCount(); rules > 0)
    line += ", " + std::to_string(rules) + " not checked" +
            (report.traces.size() > 1 ? " on some trace" : "");
  line += ")";
  if (report.suppressedCount() > 0)
    line += "; " + std::to_string(report.suppressedCount()) + " suppressed by the baseline";
  return line + ".";
}

}  // namespace

void TextEmitter::emit(const LintReport& report, const EmitOptions& options,
                       std::ostream& out) const {
  for (const TraceReport& trace : report.traces) {
    const std::string path = displayText(emit::displayPath(trace.lint.source, options.base_dir));
    for (const Diagnostic& d : trace.lint.diagnostics) printFinding(out, path, d, options.color);
    if (const std::string all = emit::savingAllText(trace.lint); !all.empty())
      out << paint(path, kBold, options.color) << ": " << all << '\n';
  }
  printNotChecked(out, report, options.base_dir);
  out << totalLine(report) << '\n';
}

}  // namespace steplint::analyzer
