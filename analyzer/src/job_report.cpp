// The job report's renderings (job.h): a per-rank table and the late steps as text, and the
// same content as JSON ("steplint.job/1").
#include <ostream>

#include <nlohmann/json.hpp>

#include "steplint/analyzer/job.h"
#include "text_table.h"

namespace steplint::analyzer {
namespace {

std::string rankLabel(int64_t rank) { return rank < 0 ? "-" : std::to_string(rank); }

void printRanks(std::ostream& out, const JobAnalysis& job) {
  TextTable table({{"rank", TextTable::Align::kRight},
                   {"step ms"},
                   {"compute"},
                   {"comm transfer"},
                   {"comm wait"},
                   {"syncs"},
                   {"host work"},
                   {"DataLoader"},
                   {"idle"},
                   {"late in steps"}});
  for (const JobRank& r : job.ranks)
    table.addRow({rankLabel(r.rank), formatMs(r.step_ns), formatMs(r.compute_ns),
                  formatMs(r.transfer_ns), formatMs(r.wait_ns), formatMs(r.sync_ns),
                  formatMs(r.host_work_ns), formatMs(r.dataloader_ns), formatMs(r.idle_ns),
                  std::to_string(r.straggler_steps)});
  out << "Ranks (mean per step, ms; syncs, host work and idle are device time):\n";
  table.print(out);
}

// Rows of the steps table: a job of thousands of steps prints its first late steps only (the
// JSON form has every step).
constexpr size_t kMaxStepRows = 20;

void printSteps(std::ostream& out, const JobAnalysis& job) {
  TextTable table({{"step"},
                   {"median ms"},
                   {"collectives"},
                   {"late rank"},
                   {"others waited ms"},
                   {"cause", TextTable::Align::kLeft}});
  const bool all = job.steps.size() <= kMaxStepRows;
  size_t shown = 0, late = 0;
  for (const JobStep& s : job.steps) late += s.straggler >= 0;
  for (const JobStep& s : job.steps) {
    if (!all && (s.straggler < 0 || shown == kMaxStepRows)) continue;
    ++shown;
    std::string cause = s.straggler < 0 ? "-" : std::string(lateCauseName(s.cause));
    if (s.straggler >= 0 && s.cause != LateCause::kUnexplained)
      cause += " (+" + formatMs(static_cast<double>(s.cause_excess_ns)) + " ms)";
    if (!s.grown_kernels.empty()) cause += ": " + truncateMiddle(s.grown_kernels.front().name, 60);
    table.addRow({std::to_string(s.number), formatMs(static_cast<double>(s.median_step_ns)),
                  std::to_string(s.collectives), rankLabel(s.straggler),
                  s.straggler < 0 ? "-" : formatMs(static_cast<double>(s.late_ns)), cause});
  }
  if (all) {
    out << "Steps:\n";
  } else {
    out << "Steps (" << job.steps.size() << " compared, " << late << " with a late rank; the first "
        << shown << " of those shown, all in --format json):\n";
  }
  if (!table.empty()) table.print(out);
}

nlohmann::json namedTimes(const std::vector<NamedTime>& v) {
  nlohmann::json a = nlohmann::json::array();
  for (const NamedTime& t : v)
    a.push_back({{"name", t.name}, {"ms", static_cast<double>(t.ns) / 1e6}});
  return a;
}

}  // namespace

std::string collectiveMatching(const JobAnalysis& job) {
  const int64_t by_order = job.matched_collectives - job.matched_by_seq;
  if (job.matched_collectives == 0) return "none";
  if (by_order == 0) return "process group and sequence number";
  if (job.matched_by_seq == 0) return "order within each process group";
  return "process group and sequence number (" + std::to_string(job.matched_by_seq) +
         ") and by order (" + std::to_string(by_order) + ")";
}

void printJobText(std::ostream& out, const JobAnalysis& job) {
  out << "Job " << displayText(job.identity) << ": " << job.ranks.size() << " rank(s)";
  if (job.world_size > 0) out << " of " << job.world_size;
  out << ", " << job.steps.size() << " step(s) compared, " << job.matched_collectives
      << " collective(s) matched";
  if (job.matched_collectives > 0) out << " by " << collectiveMatching(job);
  out << "\n";
  for (const std::string& w : job.warnings) out << "warning: " << displayText(w) << "\n";
  printRanks(out, job);
  if (!job.steps.empty()) printSteps(out, job);
  if (job.straggler >= 0) {
    out << "Straggler: " << job.stragglerText()
        << (job.late_together.empty() ? "" : " (late together)") << ", late in "
        << job.straggler_steps << " of " << job.steps.size() << " steps by "
        << formatMs(job.mean_late_ns)
        << " ms on average; cause: " << lateCauseName(job.straggler_cause) << "\n";
  } else if (job.has_collectives && job.ranks.size() >= 2) {
    out << "No straggler: no rank keeps the others waiting in most steps beyond the noise threshold.\n";
  }
  for (const std::string& n : job.not_checked) out << "not checked: " << displayText(n) << "\n";
}

nlohmann::json jobToJson(const JobAnalysis& job) {
  nlohmann::json j;
  j["schema"] = "steplint.job/1";
  j["identity"] = job.identity;
  j["world_size"] = job.world_size;
  j["matched_collectives"] = job.matched_collectives;
  const int64_t by_order = job.matched_collectives - job.matched_by_seq;
  j["collective_matching"] = {{"method", job.matched_collectives == 0 ? "none"
                                         : by_order == 0              ? "seq"
                                         : job.matched_by_seq == 0    ? "order"
                                                                      : "mixed"},
                              {"by_seq", job.matched_by_seq},
                              {"by_order", by_order}};
  j["median_step_ms"] = job.median_step_ns / 1e6;
  j["mean_wait_ms"] = job.mean_wait_ns / 1e6;
  nlohmann::json ranks = nlohmann::json::array();
  for (const JobRank& r : job.ranks)
    ranks.push_back({{"rank", r.rank},
                     {"source", r.source},
                     {"step_ms", r.step_ns / 1e6},
                     {"compute_ms", r.compute_ns / 1e6},
                     {"comm_transfer_ms", r.transfer_ns / 1e6},
                     {"comm_wait_ms", r.wait_ns / 1e6},
                     {"sync_ms", r.sync_ns / 1e6},
                     {"host_work_ms", r.host_work_ns / 1e6},
                     {"dataloader_ms", r.dataloader_ns / 1e6},
                     {"idle_ms", r.idle_ns / 1e6},
                     {"straggler_steps", r.straggler_steps}});
  j["ranks"] = std::move(ranks);
  nlohmann::json steps = nlohmann::json::array();
  for (const JobStep& s : job.steps) {
    nlohmann::json row = {{"step", s.number},
                          {"median_step_ms", static_cast<double>(s.median_step_ns) / 1e6},
                          {"collectives", s.collectives}};
    if (s.straggler >= 0) {
      row["straggler"] = s.straggler;
      row["late_ms"] = static_cast<double>(s.late_ns) / 1e6;
      row["cause"] = lateCauseName(s.cause);
      row["cause_excess_ms"] = static_cast<double>(s.cause_excess_ns) / 1e6;
      if (!s.grown_kernels.empty()) row["grown_kernels"] = namedTimes(s.grown_kernels);
      if (s.late_ranks.size() > 1) row["late_ranks"] = s.late_ranks;
    }
    steps.push_back(std::move(row));
  }
  j["steps"] = std::move(steps);
  if (job.straggler >= 0)
    j["straggler"] = {{"rank", job.straggler},
                      {"cause", lateCauseName(job.straggler_cause)},
                      {"late_steps", job.straggler_steps},
                      {"mean_late_ms", job.mean_late_ns / 1e6}};
  if (job.straggler >= 0 && !job.late_together.empty())
    j["straggler"]["late_together"] = job.late_together;
  if (job.straggler < 0) j["straggler"] = nullptr;
  j["warnings"] = job.warnings;
  j["not_checked"] = job.not_checked;
  return j;
}

}  // namespace steplint::analyzer
