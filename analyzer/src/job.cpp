// groupJobs and analyzeJob (job.h): everything here reads RankSummaries only.
#include "steplint/analyzer/job.h"

#include "job_match.h"
#include "steplint/analyzer/medians.h"

#include <algorithm>
#include <array>
#include <map>
#include <set>

namespace steplint::analyzer {
namespace {

std::string jobIdentity(const RankSummary& r) {
  if (r.rank_from_file_name || r.world_size < 0) return "ranks from file names";
  return "world_size=" + std::to_string(r.world_size) +
         (r.backend.empty() ? "" : " backend=" + r.backend);
}

// Collectives that overlap in time on one rank (gloo's buckets on several worker threads, two
// groups' NCCL kernels) are matched and split into wait and transfer one by one; summed, a rank
// spent more time in them than its step lasted. Both are scaled down to the time the rank spent
// in collectives at all (RankStep::comm_ns, each instant once), in proportion.
void fitToCommTime(const std::vector<const RankStep*>& rows, StepComm& comm) {
  for (size_t r = 0; r < rows.size(); ++r) {
    const int64_t summed = comm.wait_ns[r] + comm.transfer_ns[r];
    const int64_t covered = rows[r]->comm_ns;
    if (covered <= 0 || summed <= covered) continue;
    comm.wait_ns[r] =
        static_cast<int64_t>(static_cast<double>(comm.wait_ns[r]) * static_cast<double>(covered) /
                             static_cast<double>(summed));
    comm.transfer_ns[r] = covered - comm.wait_ns[r];
  }
}

std::vector<NamedTime> grownKernels(const std::vector<const RankStep*>& rows, size_t late) {
  std::vector<NamedTime> grown;
  for (const NamedTime& k : rows[late]->top_kernels) {
    std::vector<int64_t> others;
    for (size_t r = 0; r < rows.size(); ++r) {
      if (r == late) continue;
      const auto& top = rows[r]->top_kernels;
      auto it = std::find_if(top.begin(), top.end(),
                             [&](const NamedTime& o) { return o.name == k.name; });
      others.push_back(it == top.end() ? 0 : it->ns);
    }
    const int64_t excess = k.ns - middleMedian(std::move(others));
    if (excess > 0) grown.push_back({k.name, excess});
  }
  std::sort(grown.begin(), grown.end(),
            [](const NamedTime& a, const NamedTime& b) { return a.ns > b.ns; });
  if (grown.size() > 5) grown.resize(5);
  return grown;
}

/// The parts of one rank's step that can make it late, in the order causes are listed.
struct Parts {
  std::array<int64_t, 4> ns{};  // DataLoader, syncs, host work, compute
};
constexpr LateCause kPartCause[4] = {LateCause::kInputPipeline, LateCause::kHostSync,
                                     LateCause::kHostWork, LateCause::kGpuCompute};

/// A rank's parts with its waiting at collectives taken out. A collective on the host (gloo)
/// leaves the device idle while the rank waits, and the attribution calls that idle time "after
/// a sync" or "host work"; counting it there would make every waiting rank look as slow in
/// those parts as the straggler. NCCL waits inside its kernel, which is not in any part.
Parts partsOf(const RankStep& s, int64_t wait_ns, bool host_collectives) {
  Parts p;
  p.ns = {s.dataloader_ns, s.sync_ns, s.host_work_ns, s.compute_ns};
  if (!host_collectives) return p;
  for (size_t i : {size_t{1}, size_t{2}}) {
    const int64_t taken = std::min(p.ns[i], wait_ns);
    p.ns[i] -= taken;
    wait_ns -= taken;
  }
  return p;
}

/// Which part of the late rank's step grew most against the others' median; a cause only when
/// that growth explains at least half of the lateness.
void judgeCause(const std::vector<const RankStep*>& rows, const std::vector<Parts>& parts,
                size_t late, JobStep& step) {
  int64_t best = 0;
  LateCause cause = LateCause::kUnexplained;
  for (size_t i = 0; i < 4; ++i) {
    std::vector<int64_t> others;
    for (size_t r = 0; r < parts.size(); ++r)
      if (r != late) others.push_back(parts[r].ns[i]);
    const int64_t excess = parts[late].ns[i] - middleMedian(std::move(others));
    if (excess > best) best = excess, cause = kPartCause[i];
  }
  if (2 * best < step.late_ns) cause = LateCause::kUnexplained;
  step.cause = cause;
  step.cause_excess_ns = best;
  if (cause == LateCause::kGpuCompute) step.grown_kernels = grownKernels(rows, late);
}

// Step numbers every rank recorded. A rank counts once per number: a number it repeats (a
// hand-merged or concatenated summary file) is compared by its first row, with a warning.
std::vector<int64_t> commonSteps(const Job& job, std::vector<std::string>& warnings) {
  std::map<int64_t, size_t> count;
  for (const RankSummary& r : job.ranks) {
    std::set<int64_t> seen;
    size_t repeated = 0;
    for (const RankStep& s : r.steps) {
      if (seen.insert(s.number).second)
        ++count[s.number];
      else
        ++repeated;
    }
    if (repeated > 0)
      warnings.push_back("rank " + std::to_string(r.rank) + " has " + std::to_string(repeated) +
                         " repeated step number(s): the first of each is compared");
  }
  std::vector<int64_t> common;
  std::vector<int64_t> partial;
  for (const auto& [number, n] : count)
    (n == job.ranks.size() ? common : partial).push_back(number);
  if (!partial.empty()) {
    std::string list;
    for (size_t i = 0; i < partial.size() && i < 8; ++i)
      list += (i ? ", " : "") + std::to_string(partial[i]);
    warnings.push_back(std::to_string(partial.size()) +
                       " step number(s) not recorded on every rank (" + list +
                       (partial.size() > 8 ? ", ..." : "") + "): left out of the comparison");
  }
  return common;
}

// Ranks late together in at least half the steps (their late_ranks), most often late first.
// Two slow ranks of four take turns arriving last by a hair: counting only the last one named
// either in half the steps, and three of eight no straggler at all.
std::vector<int64_t> lateTogether(const std::vector<JobStep>& steps) {
  std::map<int64_t, int64_t> in_late_set;
  for (const JobStep& s : steps)
    for (int64_t r : s.late_ranks) ++in_late_set[r];
  std::vector<std::pair<int64_t, int64_t>> persistent;  // (steps, rank)
  for (const auto& [rank, n] : in_late_set)
    if (2 * n >= static_cast<int64_t>(steps.size())) persistent.emplace_back(n, rank);
  std::sort(persistent.begin(), persistent.end(), [](const auto& a, const auto& b) {
    return a.first != b.first ? a.first > b.first : a.second < b.second;
  });
  std::vector<int64_t> out;
  for (const auto& p : persistent) out.push_back(p.second);
  return out;
}

void verdict(JobAnalysis& out) {
  std::map<int64_t, int64_t> late_count;
  for (const JobStep& s : out.steps)
    if (s.straggler >= 0) ++late_count[s.straggler];
  for (const auto& [rank, n] : late_count)
    if (n > out.straggler_steps) out.straggler = rank, out.straggler_steps = n;
  if (std::vector<int64_t> together = lateTogether(out.steps); together.size() >= 2) {
    // The steps in which one of them was the last: the others waited for the set.
    out.straggler = together.front();
    out.late_together = std::move(together);
    out.straggler_steps = 0;
    for (const JobStep& s : out.steps) out.straggler_steps += out.stragglerLateIn(s);
  }
  // A rank late in only a few steps is noise or a one-off (a checkpoint, a GC pause), not a
  // straggler.
  if (out.straggler < 0 || 2 * out.straggler_steps < static_cast<int64_t>(out.steps.size())) {
    out.straggler = -1;
    out.straggler_steps = 0;
    return;
  }
  std::map<LateCause, int64_t> causes;
  double late = 0;
  for (const JobStep& s : out.steps)
    if (out.stragglerLateIn(s)) ++causes[s.cause], late += static_cast<double>(s.late_ns);
  out.mean_late_ns = late / static_cast<double>(out.straggler_steps);
  out.straggler_cause =
      std::max_element(causes.begin(), causes.end(), [](const auto& a, const auto& b) {
        return a.second < b.second;
      })->first;
}

}  // namespace

bool JobAnalysis::stragglerLateIn(const JobStep& step) const {
  if (step.straggler < 0) return false;
  if (late_together.empty()) return step.straggler == straggler;
  return std::find(late_together.begin(), late_together.end(), step.straggler) !=
         late_together.end();
}

std::string JobAnalysis::stragglerText() const {
  if (late_together.empty()) return "rank " + std::to_string(straggler);
  std::string text = "ranks ";
  for (size_t i = 0; i < late_together.size(); ++i)
    text += (i == 0                          ? ""
             : i + 1 == late_together.size() ? " and "
                                             : ", ") +
            std::to_string(late_together[i]);
  return text;
}

size_t JobAnalysis::waitingRanks() const {
  const size_t late = std::max<size_t>(1, late_together.size());
  return ranks.size() > late ? ranks.size() - late : 0;
}

std::string_view lateCauseName(LateCause c) {
  switch (c) {
    case LateCause::kNone:
      return "none";
    case LateCause::kInputPipeline:
      return "input pipeline";
    case LateCause::kHostSync:
      return "host syncs";
    case LateCause::kHostWork:
      return "host work";
    case LateCause::kGpuCompute:
      return "GPU compute";
    case LateCause::kUnexplained:
      return "unexplained";
  }
  return "unknown";
}

bool looksLikeJob(const std::vector<RankSummary>& ranks) {
  std::set<int64_t> distinct;
  for (const RankSummary& r : ranks) {
    if (r.world_size > 1) return true;
    if (r.rank >= 0) distinct.insert(r.rank);
  }
  return distinct.size() >= 2;
}

std::string notARankReason(const RankSummary& rank) {
  if (rank.rank < 0) return "no distributedInfo and no rank in the file name";
  if (rank.world_size == 1) return "a single-process run (world_size 1)";
  return {};
}

namespace {

bool hasRank(const Job& job, int64_t rank) {
  return std::any_of(job.ranks.begin(), job.ranks.end(),
                     [&](const RankSummary& o) { return o.rank == rank; });
}

// The one job (by distributedInfo) that misses `r`'s rank, which `r` (ranked by its file name
// only: an older writer, a re-saved file) then belongs to; "" when none or several do.
std::string jobMissing(const std::map<std::string, Job>& by_identity, const RankSummary& r) {
  std::string found;
  for (const auto& [identity, job] : by_identity) {
    if (job.world_size <= 0 || r.rank >= job.world_size || hasRank(job, r.rank)) continue;
    if (!found.empty()) return "";
    found = identity;
  }
  return found;
}

}  // namespace

std::vector<Job> groupJobs(std::vector<RankSummary> ranks, std::vector<std::string>& warnings) {
  std::map<std::string, Job> by_identity;
  // Ranks with distributedInfo first, so that a rank known only from its file name can join
  // the job that misses it rather than start a job of its own and hide that job's straggler.
  std::stable_partition(ranks.begin(), ranks.end(),
                        [](const RankSummary& r) { return !r.rank_from_file_name; });
  for (RankSummary& r : ranks) {
    if (r.rank < 0) {
      warnings.push_back(
          r.source +
          ": no distributedInfo and no rank in the file name: left out of the job report");
      continue;
    }
    std::string identity = jobIdentity(r);
    if (r.rank_from_file_name) {
      if (std::string joined = jobMissing(by_identity, r); !joined.empty()) identity = joined;
    }
    Job& job = by_identity[identity];
    job.identity = identity;
    if (r.rank_from_file_name)
      job.warnings.push_back(r.source + ": no distributedInfo; rank " + std::to_string(r.rank) +
                             " taken from the file name" +
                             (identity == jobIdentity(r) ? "" : ", the rank this job misses"));
    const auto dup = std::find_if(job.ranks.begin(), job.ranks.end(),
                                  [&](const RankSummary& o) { return o.rank == r.rank; });
    if (dup != job.ranks.end()) {
      job.warnings.push_back("rank " + std::to_string(r.rank) + " appears twice (" + dup->source +
                             ", " + r.source + "): kept the first");
      continue;
    }
    job.world_size = std::max(job.world_size, r.world_size);
    job.ranks.push_back(std::move(r));
  }
  std::vector<Job> jobs;
  for (auto& [identity, job] : by_identity) {
    std::sort(job.ranks.begin(), job.ranks.end(),
              [](const RankSummary& a, const RankSummary& b) { return a.rank < b.rank; });
    jobs.push_back(std::move(job));
  }
  if (jobs.size() > 1)
    warnings.push_back("the traces belong to " + std::to_string(jobs.size()) +
                       " different jobs; each gets its own report");
  return jobs;
}

namespace {

// Ranks the job lacks, and ranks no world of its size has (a rank number at or above
// world_size: a file whose distributedInfo disagrees, or a summary edited by hand).
void rankCoverageWarnings(const Job& job, std::vector<std::string>& warnings) {
  if (job.world_size <= 0) return;
  std::set<int64_t> present;
  for (const RankSummary& s : job.ranks) {
    if (s.rank >= 0 && s.rank < job.world_size)
      present.insert(s.rank);
    else
      warnings.push_back(s.source + ": rank " + std::to_string(s.rank) +
                         " is outside the job's world_size " + std::to_string(job.world_size) +
                         "; compared with the others all the same");
  }
  if (static_cast<int64_t>(present.size()) >= job.world_size) return;
  // The first 16 missing ranks, then how many more (a 64-rank job with one trace listed 16
  // of 63 as if they were all). world_size comes from a file: the absent ranks are counted
  // from the present ones, and the walk stops at the 16 listed.
  const int64_t absent = job.world_size - static_cast<int64_t>(present.size());
  std::string missing;
  for (int64_t r = 0, shown = 0; r < job.world_size && shown < 16; ++r)
    if (present.count(r) == 0) missing += (shown++ ? ", " : "") + std::to_string(r);
  if (absent > 16) missing += " and " + std::to_string(absent - 16) + " more";
  warnings.push_back("only " + std::to_string(present.size()) + " of " +
                     std::to_string(job.world_size) + " ranks have a trace (missing: " + missing +
                     "): the comparison covers those present");
}

}  // namespace

JobAnalysis analyzeJob(const Job& job, const JobOptions& options) {
  JobAnalysis out;
  out.identity = job.identity;
  out.world_size = job.world_size;
  out.warnings = job.warnings;
  const size_t n = job.ranks.size();
  rankCoverageWarnings(job, out.warnings);
  out.ranks.resize(n);
  for (size_t r = 0; r < n; ++r)
    out.ranks[r].rank = job.ranks[r].rank, out.ranks[r].source = job.ranks[r].source;
  if (n < 2) {
    out.not_checked.push_back("one rank: there is no other rank to compare it with");
  }
  const std::vector<int64_t> common = commonSteps(job, out.warnings);
  std::vector<int64_t> rank_ids;
  std::vector<bool> host_collectives;
  for (const RankSummary& r : job.ranks) {
    rank_ids.push_back(r.rank);
    host_collectives.push_back(r.comm_source == "host ranges");
  }
  const std::map<std::string, std::vector<int64_t>> members = groupMembers(job);
  std::vector<int64_t> step_medians;
  double wait_sum = 0;
  for (int64_t number : common) {
    std::vector<const RankStep*> rows;
    for (const RankSummary& r : job.ranks)
      rows.push_back(&*std::find_if(r.steps.begin(), r.steps.end(),
                                    [&](const RankStep& s) { return s.number == number; }));
    JobStep step;
    step.number = number;
    std::vector<int64_t> times;
    for (const RankStep* row : rows) times.push_back(row->step_ns);
    step.median_step_ns = middleMedian(times);
    step_medians.push_back(step.median_step_ns);
    StepComm comm = matchCollectives(rows, rank_ids, members, out.warnings);
    fitToCommTime(rows, comm);
    step.collectives = comm.matched;
    out.matched_collectives += comm.matched;
    out.matched_by_seq += comm.by_seq;
    for (size_t r = 0; r < n; ++r) {
      JobRank& row = out.ranks[r];
      row.step_ns += static_cast<double>(rows[r]->step_ns);
      row.compute_ns += static_cast<double>(rows[r]->compute_ns);
      row.transfer_ns += static_cast<double>(comm.transfer_ns[r]);
      row.wait_ns += static_cast<double>(comm.wait_ns[r]);
      row.sync_ns += static_cast<double>(rows[r]->sync_ns);
      row.host_work_ns += static_cast<double>(rows[r]->host_work_ns);
      row.dataloader_ns += static_cast<double>(rows[r]->dataloader_ns);
      row.idle_ns += static_cast<double>(rows[r]->idle_ns);
      wait_sum += static_cast<double>(comm.wait_ns[r]);
    }
    if (n >= 2 && comm.matched > 0) {
      // Only ranks that took part in a matched collective: one outside every group waited for
      // nobody.
      size_t late = n;
      for (size_t r = 0; r < n; ++r)
        if (comm.took_part[r] && (late == n || comm.wait_ns[r] < comm.wait_ns[late])) late = r;
      std::vector<int64_t> others;
      for (size_t r = 0; r < n; ++r)
        if (r != late && comm.took_part[r]) others.push_back(comm.wait_ns[r]);
      step.late_ns = middleMedian(others) - comm.wait_ns[late];
      const auto noise = std::max<int64_t>(
          options.min_late_ns,
          static_cast<int64_t>(options.noise_fraction * static_cast<double>(step.median_step_ns)));
      if (step.late_ns >= noise) {
        step.straggler = rank_ids[late];
        for (size_t r = 0; r < n; ++r)
          if (comm.took_part[r] && comm.wait_ns[r] - comm.wait_ns[late] < noise)
            step.late_ranks.push_back(rank_ids[r]);
        ++out.ranks[late].straggler_steps;
        std::vector<Parts> parts;
        for (size_t r = 0; r < n; ++r)
          parts.push_back(partsOf(*rows[r], comm.wait_ns[r], host_collectives[r]));
        judgeCause(rows, parts, late, step);
      }
    }
    out.steps.push_back(std::move(step));
  }
  out.has_collectives = out.matched_collectives > 0;
  if (n >= 2 && common.empty())
    out.not_checked.push_back("no step number is recorded on every rank");
  else if (n >= 2 && !out.has_collectives)
    out.not_checked.push_back(
        "no collectives matched across the ranks (no NCCL kernels, no nccl:/gloo: ranges): "
        "without them the ranks' waiting cannot be measured");
  if (!common.empty()) {
    const double steps = static_cast<double>(common.size());
    for (JobRank& r : out.ranks)
      for (double* v : {&r.step_ns, &r.compute_ns, &r.transfer_ns, &r.wait_ns, &r.sync_ns,
                        &r.host_work_ns, &r.dataloader_ns, &r.idle_ns})
        *v /= steps;
    out.mean_wait_ns = wait_sum / (steps * static_cast<double>(n));
    out.median_step_ns = static_cast<double>(middleMedian(step_medians));
  }
  verdict(out);
  return out;
}

}  // namespace steplint::analyzer
