// `steplint diff` of two traces as text (terminal) and Markdown (a PR comment): the same
// sections (diff_sections.h), built once as rows and printed by either renderer.
#include <algorithm>
#include <cmath>
#include <ostream>
#include <string>
#include <vector>

#include "diff_sections.h"
#include "steplint/analyzer/run_diff.h"

namespace steplint::analyzer {
namespace {

using Align = TextTable::Align;
using Section = DiffSection;

std::string countText(double per_step) {
  // Whole counts per step print as integers; averages over steps keep two decimals.
  const double rounded = std::round(per_step);
  return std::fabs(per_step - rounded) < 0.005 ? formatCount(static_cast<uint64_t>(rounded))
                                               : formatFixed(per_step, 2);
}

Section distribution(const RunDiff& d) {
  Section s{"Per-step time (ms)",
            {{"run", Align::kLeft},
             {"steps"},
             {"mean"},
             {"median"},
             {"p10"},
             {"p90"},
             {"min"},
             {"max"},
             {"stddev"}},
            {},
            ""};
  for (const auto& [label, st] : {std::pair{"base", &d.base_steps}, std::pair{"new", &d.new_steps}})
    s.rows.push_back({label, std::to_string(st->count), formatMs(st->mean_ns),
                      formatMs(st->median_ns), formatMs(st->p10_ns), formatMs(st->p90_ns),
                      formatMs(st->min_ns), formatMs(st->max_ns), formatMs(st->stddev_ns)});
  return s;
}

Section categories(const RunDiff& d) {
  Section s{"Step-time breakdown (ms/step)",
            {{"category", Align::kLeft}, {"base"}, {"new"}, {"delta"}},
            {},
            ""};
  for (const CategoryDelta& c : d.categories)
    s.rows.push_back({std::string(stepCategoryName(c.category)), formatMs(c.base_ns),
                      formatMs(c.new_ns), signedMs(c.delta_ns())});
  s.rows.push_back({"Total", formatMs(d.base_steps.mean_ns), formatMs(d.new_steps.mean_ns),
                    signedMs(d.step_delta_ns)});
  return s;
}

std::string keyText(const GroupDelta& g, bool device) {
  if (g.by_name_only) return device ? "(stream changed)" : "(shapes changed)";
  if (device) return g.stream >= 0 ? std::to_string(g.stream) : "";
  return truncateMiddle(g.shapes, 40);
}

Section groups(const std::vector<GroupDelta>& rows, bool device, size_t top) {
  Section s{device ? "Device ops per step, largest change first"
                   : "CPU ops per step, largest change first",
            {{"change", Align::kLeft},
             {"delta ms"},
             {"calls"},
             {"total ms"},
             {"mean us"},
             {device ? "stream" : "input shapes", Align::kLeft},
             {"name", Align::kLeft}},
            {},
            ""};
  size_t shown = 0, skipped = 0;
  for (const GroupDelta& g : rows) {
    if (std::fabs(g.delta_ns()) < kDiffNoiseNs && g.change == GroupChange::kMatched &&
        g.count_delta() == 0)
      continue;
    if (top > 0 && shown == top) {
      ++skipped;
      continue;
    }
    ++shown;
    s.rows.push_back(
        {std::string(groupChangeName(g.change)), signedMs(g.delta_ns()),
         countText(g.base_count) + " → " + countText(g.new_count),
         formatMs(g.base_ns) + " → " + formatMs(g.new_ns),
         formatFixed(g.base_mean_ns / 1e3, 1) + " → " + formatFixed(g.new_mean_ns / 1e3, 1),
         keyText(g, device), truncateMiddle(g.name, 90)});
  }
  if (skipped > 0)
    s.footer = "... " + std::to_string(skipped) + " more changed rows (--top 0 shows all)";
  return s;
}

Section metadata(const RunDiff& d) {
  Section s{"Run metadata that differs",
            {{"key", Align::kLeft}, {"base", Align::kLeft}, {"new", Align::kLeft}},
            {},
            ""};
  for (const MetadataDelta& m : d.metadata)
    if (m.differs())
      s.rows.push_back(
          {m.key, m.base.empty() ? "(absent)" : m.base, m.next.empty() ? "(absent)" : m.next});
  if (s.rows.empty()) s.footer = "none of the recorded run facts differ";
  return s;
}

std::vector<Section> sections(const RunDiff& d, size_t top) {
  return {distribution(d),
          categories(d),
          groups(d.device_ops, true, top),
          groups(d.ops, false, top),
          findingsSection(d.findings_compared, d.findings),
          metadata(d)};
}

}  // namespace

std::string runDiffHeadline(const RunDiff& d) {
  std::string line = "Step time: " + formatMs(d.base_steps.mean_ns) + " → " +
                     formatMs(d.new_steps.mean_ns) + " ms/step (" + signedMs(d.step_delta_ns) +
                     " ms";
  if (std::string pct = signedPercent(d.step_delta_ns, d.base_steps.mean_ns); !pct.empty())
    line += ", " + pct;
  line += changeTestText(d.step_test, d.base_steps.median_ns, d.new_steps.median_ns) + ")";
  std::vector<CategoryDelta> moved = d.categories;
  std::stable_sort(moved.begin(), moved.end(), [](const CategoryDelta& a, const CategoryDelta& b) {
    return std::fabs(a.delta_ns()) > std::fabs(b.delta_ns());
  });
  std::string parts;
  for (const CategoryDelta& c : moved) {
    if (std::fabs(c.delta_ns()) < 10 * kDiffNoiseNs) continue;  // below 5 µs/step: not worth a word
    parts += (parts.empty() ? "" : ", ") + std::string(stepCategoryName(c.category)) + " " +
             signedMs(c.delta_ns());
  }
  return parts.empty() ? line : line + ": " + parts;
}

void printRunDiffText(std::ostream& out, const RunDiff& diff, size_t top) {
  out << "base: " << displayText(diff.base_source) << '\n'
      << "new:  " << displayText(diff.new_source) << "\n\n"
      << displayText(runDiffHeadline(diff)) << '\n';
  printSectionsText(out, sections(diff, top));
  printNotesText(out, diff.notes);
}

void printRunDiffMarkdown(std::ostream& out, const RunDiff& diff, size_t top) {
  out << "## steplint diff\n\n"
      << "Base " << markdownCode(diff.base_source) << ", new " << markdownCode(diff.new_source)
      << ".\n\n**" << markdownCell(runDiffHeadline(diff)) << "**\n";
  printNotesMarkdown(out, diff.notes);
  printSectionsMarkdown(out, sections(diff, top));
}

}  // namespace steplint::analyzer
