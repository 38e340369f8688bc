// JUnit XML: one <testsuite> per trace, one <testcase> per selected rule. A rule with findings
// is a <failure>; a rule that could not decide is <skipped>; otherwise it passed. CI systems
// (GitLab, Jenkins, Azure) then show "SL101 dataloader-wait" as a failed test of the trace.
#include <ostream>

#include "builtin_emitters.h"
#include "emit_util.h"

namespace steplint::analyzer {
namespace {

using emit::xmlEscape;

struct RuleOutcome {
  std::string code, name, category;
  std::vector<const Diagnostic*> findings;
  const NotChecked* not_checked = nullptr;
};

/// Selected rules in order, each with its findings; rules that reported without being
/// selected are appended so no finding is lost.
std::vector<RuleOutcome> outcomes(const LintReport& report, const LintResult& lint) {
  std::vector<RuleOutcome> out;
  auto slot = [&](const std::string& code, const std::string& name) -> RuleOutcome& {
    for (RuleOutcome& o : out)
      if (o.code == code) return o;
    out.push_back({code, name, "steplint", {}, nullptr});
    return out.back();
  };
  for (const RuleInfo& rule : report.selected) {
    RuleOutcome& o = slot(std::string(rule.code), std::string(rule.name));
    o.category = "steplint." + std::string(categoryName(rule.category));
  }
  for (const Diagnostic& d : lint.diagnostics) slot(d.code, d.name).findings.push_back(&d);
  for (const NotChecked& n : lint.not_checked) slot(n.code, n.name).not_checked = &n;
  return out;
}

std::string findingLine(const Diagnostic& d) {
  std::string line = "[" + std::string(severityName(d.severity)) + "] ";
  if (auto step = emit::firstStep(d)) line += "step " + std::to_string(*step) + ": ";
  line += d.message;
  if (const std::string saving = emit::savingText(d.saving); !saving.empty())
    line += " (est. saving " + saving + ")";
  return line;
}

void printTestcase(std::ostream& out, const RuleOutcome& o) {
  out << "    <testcase classname=\"" << xmlEscape(o.category) << "\" name=\""
      << xmlEscape(o.code + " " + o.name) << "\"";
  if (o.findings.empty() && o.not_checked == nullptr) {
    out << "/>\n";
    return;
  }
  out << ">\n";
  if (!o.findings.empty()) {
    out << "      <failure type=\"" << xmlEscape(o.code) << "\" message=\""
        << xmlEscape(o.findings.front()->message) << "\">";
    for (const Diagnostic* d : o.findings) out << xmlEscape(findingLine(*d)) << '\n';
    out << "See " << xmlEscape(ruleDocUrl(o.code, o.name)) << "</failure>\n";
  } else {
    out << "      <skipped message=\"" << xmlEscape("not checked: " + o.not_checked->reason)
        << "\"/>\n";
  }
  out << "    </testcase>\n";
}

struct Counts {
  size_t tests = 0, failures = 0, skipped = 0;
};

Counts count(const std::vector<RuleOutcome>& list) {
  Counts c;
  for (const RuleOutcome& o : list) {
    ++c.tests;
    if (!o.findings.empty())
      ++c.failures;
    else if (o.not_checked != nullptr)
      ++c.skipped;
  }
  return c;
}

}  // namespace

void JunitEmitter::emit(const LintReport& report, const EmitOptions& options,
                        std::ostream& out) const {
  std::vector<std::vector<RuleOutcome>> suites;
  Counts total;
  for (const TraceReport& t : report.traces) {
    suites.push_back(outcomes(report, t.lint));
    const Counts c = count(suites.back());
    total.tests += c.tests;
    total.failures += c.failures;
    total.skipped += c.skipped;
  }
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out << "<testsuites name=\"steplint\" tests=\"" << total.tests << "\" failures=\""
      << total.failures << "\" errors=\"0\" skipped=\"" << total.skipped << "\">\n";
  for (size_t i = 0; i < suites.size(); ++i) {
    const Counts c = count(suites[i]);
    out << "  <testsuite name=\""
        << xmlEscape(emit::displayPath(report.traces[i].lint.source, options.base_dir))
        << "\" tests=\"" << c.tests << "\" failures=\"" << c.failures
        << "\" errors=\"0\" skipped=\"" << c.skipped << "\">\n";
    for (const RuleOutcome& o : suites[i]) printTestcase(out, o);
    // JUnit has no warning element, and <testsuites> no log: the run's warnings go to the
    // first suite's system-err, which Jenkins and GitLab show beside its tests.
    if (i == 0 && !report.warnings.empty()) {
      out << "    <system-err>";
      for (const std::string& w : report.warnings) out << xmlEscape("warning: " + w + "\n");
      out << "</system-err>\n";
    }
    out << "  </testsuite>\n";
  }
  out << "</testsuites>\n";
}

}  // namespace steplint::analyzer
