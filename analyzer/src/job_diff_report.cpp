// `steplint diff` of two jobs as text, Markdown (diff_sections.h) and JSON ("steplint.jobdiff/1").
#include <algorithm>
#include <cmath>
#include <ostream>

#include <nlohmann/json.hpp>

#include "diff_sections.h"
#include "steplint/analyzer/job_diff.h"

namespace steplint::analyzer {
namespace {

using Align = TextTable::Align;

std::string runLine(const std::string& source, const JobSide& side) {
  return source + " (job " + side.identity + ", " + std::to_string(side.ranks) + " rank(s), " +
         std::to_string(side.steps) + " step(s) compared)";
}

DiffSection parts(const JobDiff& d) {
  DiffSection s{"The job's step, mean per rank and step (ms)",
                {{"part", Align::kLeft}, {"base"}, {"new"}, {"delta"}},
                {},
                ""};
  for (size_t p = 0; p < kJobPartCount; ++p)
    s.rows.push_back({std::string(jobPartName(p)), formatMs(d.base.parts[p]),
                      formatMs(d.next.parts[p]), signedMs(d.next.parts[p] - d.base.parts[p])});
  s.rows.push_back(
      {"step", formatMs(d.base.step_ns), formatMs(d.next.step_ns), signedMs(d.step_delta_ns)});
  s.footer = "syncs, host work and idle are device time; idle includes syncs and host work";
  return s;
}

std::string either(bool present, double ns) { return present ? formatMs(ns) : "-"; }

DiffSection ranks(const JobDiff& d, size_t top) {
  DiffSection s{"Ranks, mean per step (ms)",
                {{"rank"},
                 {"step"},
                 {"delta"},
                 {"compute"},
                 {"comm wait"},
                 {"syncs"},
                 {"host work"},
                 {"DataLoader"},
                 {"late in steps"}},
                {},
                ""};
  constexpr size_t kCompute = 0, kWait = 2, kSyncs = 3, kHost = 4, kLoader = 5;
  for (const RankDelta& r : d.ranks) {
    if (top > 0 && s.rows.size() == top) {
      s.footer = "... " + std::to_string(d.ranks.size() - top) + " more ranks (--top 0 shows all)";
      break;
    }
    const bool both = r.in_base && r.in_new;
    const auto part = [&](size_t p) {
      return both ? signedMs(r.new_parts[p] - r.base_parts[p]) : "-";
    };
    s.rows.push_back(
        {std::to_string(r.rank),
         either(r.in_base, r.base_step_ns) + " → " + either(r.in_new, r.new_step_ns),
         both ? signedMs(r.new_step_ns - r.base_step_ns) : "-", part(kCompute), part(kWait),
         part(kSyncs), part(kHost), part(kLoader),
         std::to_string(r.base_late_steps) + " → " + std::to_string(r.new_late_steps)});
  }
  return s;
}

/// step_ms and the parts under the job report's JSON keys (compute_ms, comm_wait_ms, ...).
nlohmann::json timesJson(double step_ns, const JobParts& parts) {
  static constexpr const char* kKeys[kJobPartCount] = {
      "compute_ms",   "comm_transfer_ms", "comm_wait_ms", "sync_ms",
      "host_work_ms", "dataloader_ms",    "idle_ms"};
  nlohmann::json j = {{"step_ms", step_ns / 1e6}};
  for (size_t p = 0; p < kJobPartCount; ++p) j[kKeys[p]] = parts[p] / 1e6;
  return j;
}

nlohmann::json sideJson(const std::string& source, const JobSide& s) {
  nlohmann::json j = timesJson(s.step_ns, s.parts);
  j.update({{"source", source},
            {"identity", s.identity},
            {"ranks", s.ranks},
            {"steps", s.steps},
            {"median_step_ms", s.median_step_ns / 1e6}});
  j["slowest_rank"] = s.slowest_rank < 0 ? nlohmann::json(nullptr)
                                         : nlohmann::json{{"rank", s.slowest_rank},
                                                          {"late_ms", s.slowest_late_ns / 1e6}};
  j["straggler"] = s.straggler < 0 ? nlohmann::json(nullptr)
                                   : nlohmann::json{{"rank", s.straggler},
                                                    {"cause", lateCauseName(s.straggler_cause)},
                                                    {"late_steps", s.straggler_steps}};
  return j;
}

}  // namespace

std::string jobDiffHeadline(const JobDiff& d) {
  std::string line = "Job step time: " + formatMs(d.base.step_ns) + " → " +
                     formatMs(d.next.step_ns) + " ms/step (" + signedMs(d.step_delta_ns) + " ms";
  if (std::string pct = signedPercent(d.step_delta_ns, d.base.step_ns); !pct.empty())
    line += ", " + pct;
  line += changeTestText(d.step_test, d.base.median_step_ns, d.next.median_step_ns) + ")";
  std::vector<size_t> order(kJobPartCount);
  for (size_t p = 0; p < kJobPartCount; ++p) order[p] = p;
  const auto delta = [&](size_t p) { return d.next.parts[p] - d.base.parts[p]; };
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return std::fabs(delta(a)) > std::fabs(delta(b)); });
  std::string parts;
  for (size_t p : order)
    if (std::fabs(delta(p)) >= 10 * kDiffNoiseNs)  // below 5 µs/step: not worth a word
      parts += (parts.empty() ? "" : ", ") + std::string(jobPartName(p)) + " " + signedMs(delta(p));
  return parts.empty() ? line : line + ": " + parts;
}

std::string slowestRankText(const JobSide& s) {
  if (s.slowest_rank < 0) return "none measured (no collectives matched)";
  std::string text = "rank " + std::to_string(s.slowest_rank) + " (the others waited " +
                     formatMs(s.slowest_late_ns) + " ms/step for it";
  if (s.straggler >= 0)
    text += "; straggler rank " + std::to_string(s.straggler) + " in " +
            std::to_string(s.straggler_steps) + " of " + std::to_string(s.steps) +
            " steps, cause: " + std::string(lateCauseName(s.straggler_cause));
  else
    text += "; no straggler";
  return text + ")";
}

void printJobDiffText(std::ostream& out, const JobDiff& diff, size_t top) {
  out << "base: " << displayText(runLine(diff.base_source, diff.base)) << '\n'
      << "new:  " << displayText(runLine(diff.new_source, diff.next)) << "\n\n"
      << displayText(jobDiffHeadline(diff)) << '\n'
      << "Slowest rank: " << displayText(slowestRankText(diff.base)) << " → "
      << displayText(slowestRankText(diff.next)) << '\n';
  printSectionsText(
      out, {parts(diff), ranks(diff, top), findingsSection(diff.findings_compared, diff.findings)});
  printNotesText(out, diff.notes);
}

void printJobDiffMarkdown(std::ostream& out, const JobDiff& diff, size_t top) {
  out << "## steplint diff (job)\n\n"
      << "Base " << markdownCode(diff.base_source) << ", new " << markdownCode(diff.new_source)
      << ".\n\n**" << markdownCell(jobDiffHeadline(diff))
      << "**\n\nSlowest rank: " << markdownCell(slowestRankText(diff.base)) << " → "
      << markdownCell(slowestRankText(diff.next)) << '\n';
  printNotesMarkdown(out, diff.notes);
  printSectionsMarkdown(
      out, {parts(diff), ranks(diff, top), findingsSection(diff.findings_compared, diff.findings)});
}

nlohmann::json jobDiffToJson(const JobDiff& diff) {
  nlohmann::json ranks = nlohmann::json::array();
  for (const RankDelta& r : diff.ranks) {
    nlohmann::json row = {{"rank", r.rank}};
    if (r.in_base) {
      row["base"] = timesJson(r.base_step_ns, r.base_parts);
      row["base"]["straggler_steps"] = r.base_late_steps;
    }
    if (r.in_new) {
      row["new"] = timesJson(r.new_step_ns, r.new_parts);
      row["new"]["straggler_steps"] = r.new_late_steps;
    }
    ranks.push_back(std::move(row));
  }
  return {{"schema", kJobDiffJsonSchema},
          {"base", sideJson(diff.base_source, diff.base)},
          {"new", sideJson(diff.new_source, diff.next)},
          {"step_delta_ms", diff.step_delta_ns / 1e6},
          {"step_change",
           changeTestToJson(diff.step_test, diff.next.median_step_ns - diff.base.median_step_ns)},
          {"ranks", std::move(ranks)},
          {"findings", findingDeltasToJson(diff.findings_compared, diff.findings)},
          {"notes", diff.notes}};
}

}  // namespace steplint::analyzer
