// diff_sections.h.
#include "diff_sections.h"

#include <cmath>
#include <ostream>

namespace steplint::analyzer {

std::string signedMs(double ns) {
  if (std::fabs(ns) < kDiffNoiseNs) return "0.000";
  return (ns > 0 ? "+" : "-") + formatMs(std::fabs(ns));
}

std::string signedPercent(double delta, double base) {
  if (base <= 0) return "";
  return (delta >= 0 ? "+" : "-") + formatFixed(100.0 * std::fabs(delta) / base, 1) + "%";
}

std::string changeTestText(const ChangeTest& test, double base_median_ns, double new_median_ns) {
  if (test.tested && !test.significant) {
    std::string text = " mean; " + test.text;
    if (std::string pct = signedPercent(new_median_ns - base_median_ns, base_median_ns);
        !pct.empty())
      text += "; median " + pct;
    return text;
  }
  return test.text.empty() ? "" : "; " + test.text;
}

namespace {

std::string magnitudeText(const FindingSize& f) {
  if (f.fingerprint.empty()) return "-";
  if (f.magnitude < 0) return "?";
  return formatFixed(f.magnitude, 2) + " " + f.unit;  // the unit is the metric's key
}

}  // namespace

DiffSection findingsSection(bool compared, const std::vector<FindingDelta>& findings) {
  DiffSection s{"Findings",
                {{"change", TextTable::Align::kLeft},
                 {"code", TextTable::Align::kLeft},
                 {"base"},
                 {"new"},
                 {"message", TextTable::Align::kLeft}},
                {},
                ""};
  if (!compared) {
    s.footer = "not compared: the rules were not run on both runs (--no-findings)";
    return s;
  }
  for (const FindingDelta& f : findings) {
    const FindingSize& shown = f.next.fingerprint.empty() ? f.base : f.next;
    s.rows.push_back({std::string(findingChangeName(f.change)), shown.code + " " + shown.name,
                      magnitudeText(f.base), magnitudeText(f.next), shown.message});
  }
  if (s.rows.empty()) s.footer = "no findings in either run";
  return s;
}

void printSectionsText(std::ostream& out, const std::vector<DiffSection>& sections) {
  for (const DiffSection& s : sections) {
    out << '\n' << displayText(s.title) << '\n';
    if (!s.rows.empty()) {
      TextTable table(s.columns);
      for (const auto& row : s.rows) table.addRow(row);
      table.print(out);
    }
    if (!s.footer.empty()) out << "  " << displayText(s.footer) << '\n';
  }
}

void printSectionsMarkdown(std::ostream& out, const std::vector<DiffSection>& sections) {
  for (const DiffSection& s : sections) {
    out << "\n### " << s.title << "\n\n";
    if (!s.rows.empty()) {
      out << '|';
      for (const auto& c : s.columns) out << ' ' << markdownCell(c.title) << " |";
      out << "\n|";
      for (const auto& c : s.columns)
        out << (c.align == TextTable::Align::kRight ? "---:|" : "---|");
      out << '\n';
      for (const auto& row : s.rows) {
        out << '|';
        for (const std::string& v : row) out << ' ' << markdownCell(v) << " |";
        out << '\n';
      }
    }
    if (!s.footer.empty()) out << (s.rows.empty() ? "" : "\n") << s.footer << '\n';
  }
}

void printNotesText(std::ostream& out, const std::vector<std::string>& notes) {
  if (notes.empty()) return;
  out << "\nNotes\n";
  for (const std::string& n : notes) out << "  - " << displayText(n) << '\n';
}

void printNotesMarkdown(std::ostream& out, const std::vector<std::string>& notes) {
  for (const std::string& n : notes) out << "\n> **Note:** " << markdownCell(n) << '\n';
}

}  // namespace steplint::analyzer
