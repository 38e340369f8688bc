// summarizeRank (rank_summary.h): one pass over the events for the collectives and the kernels
// of each step, the rest from the step attribution the summary already holds.
#include "steplint/analyzer/rank_summary.h"

#include <algorithm>
#include <cctype>
#include <unordered_map>

#include "rank_collectives.h"
#include "steplint/analyzer/breakdown.h"
#include "steplint/analyzer/name_memo.h"

namespace steplint::analyzer {
namespace {

using trace::Event;
using trace::EventKind;
using trace::TraceModel;

bool startsWith(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

// The c10d range of one collective: nccl:* and gloo:* (record_param_comms wraps them, so it is
// left out to count each call once).
bool isCollectiveRange(std::string_view name) {
  return startsWith(name, "nccl:") || startsWith(name, "gloo:");
}

/// Index of the step whose [start, end) holds t, or -1 (steps are sorted and disjoint).
int stepIndexAt(const std::vector<Step>& steps, int64_t t) {
  auto it = std::upper_bound(steps.begin(), steps.end(), t,
                             [](int64_t v, const Step& s) { return v < s.start_ns; });
  if (it == steps.begin()) return -1;
  --it;
  return t < it->end_ns ? static_cast<int>(it - steps.begin()) : -1;
}

std::string stepSourceName(StepSource s) {
  switch (s) {
    case StepSource::kProfilerStep:
      return "ProfilerStep";
    case StepSource::kDetected:
      return "detected";
    case StepSource::kWholeTrace:
      return "whole trace";
    default:
      return "none";
  }
}

/// Fills the per-step numbers from the attribution: the busiest device's causes, or the host's
/// when the rank has no device work.
void fillComponents(RankStep& row, const StepAttribution& a) {
  row.step_ns = a.total_ns;
  row.dataloader_ns = a.host_ns[static_cast<size_t>(HostCause::kDataLoader)];
  const DeviceAttribution* busiest = nullptr;
  for (const DeviceAttribution& d : a.devices) {
    const auto compute = d.ns[static_cast<size_t>(DeviceCause::kCompute)];
    if (!busiest || compute > busiest->ns[static_cast<size_t>(DeviceCause::kCompute)]) busiest = &d;
  }
  if (!busiest) {
    row.sync_ns = a.host_ns[static_cast<size_t>(HostCause::kBlockedSync)] +
                  a.host_ns[static_cast<size_t>(HostCause::kBlockedCopy)];
    row.host_work_ns = a.host_ns[static_cast<size_t>(HostCause::kOps)] +
                       a.host_ns[static_cast<size_t>(HostCause::kLaunch)];
    return;
  }
  auto ns = [&](DeviceCause c) { return busiest->ns[static_cast<size_t>(c)]; };
  row.compute_ns = ns(DeviceCause::kCompute);
  row.sync_ns = ns(DeviceCause::kIdleBlocked) + ns(DeviceCause::kIdleAfterSync);
  row.host_work_ns = ns(DeviceCause::kIdleLaunch) + ns(DeviceCause::kIdleHostWork);
  row.idle_ns = ns(DeviceCause::kIdleData) + row.sync_ns + row.host_work_ns;
}

/// Collectives per step in the rank's own order, numbered per process group.
void addCollectives(std::vector<RankStep>& rows, std::vector<std::vector<TimedCollective>>& raw) {
  for (size_t i = 0; i < rows.size(); ++i) {
    std::sort(raw[i].begin(), raw[i].end(), [](const TimedCollective& a, const TimedCollective& b) {
      return a.start_ns < b.start_ns;
    });
    std::unordered_map<std::string, int64_t> next_index;
    // The time in collectives, each instant once: gloo runs a step's buckets on several worker
    // threads at once, and NCCL kernels of two groups can share the GPU (summed, a gloo rank's
    // 47.7 ms of collectives exceeded its 44.4 ms step).
    int64_t covered_until = INT64_MIN;
    for (TimedCollective& r : raw[i]) {
      r.c.index = next_index[r.c.group]++;
      const int64_t end = r.start_ns + r.c.dur_ns;
      if (end > covered_until) {
        rows[i].comm_ns += end - std::max(r.start_ns, covered_until);
        covered_until = end;
      }
      rows[i].collectives.push_back(std::move(r.c));
    }
  }
}

}  // namespace

std::string collectiveKind(std::string_view name) {
  std::string_view kind;
  if (const size_t colon = name.find(':');
      colon != std::string_view::npos && isCollectiveRange(name)) {
    kind = name.substr(colon + 1);
  } else if (isCommunicationKernelName(name)) {
    // ncclKernel_AllReduce_RING_LL_Sum_float(...), ncclDevKernel_AllGather_RING_LL: the token
    // after the first '_' names the collective.
    const size_t first = name.find('_');
    if (first == std::string_view::npos) return "";
    kind = name.substr(first + 1);
    kind = kind.substr(0, std::min(kind.find('_'), kind.find('(')));
  } else {
    return "";
  }
  return normaliseCollectiveName(kind);
}

void setRankIdentity(const trace::DistributedInfo& info, const std::string& source,
                     RankSummary& out) {
  out.source = source;
  if (info.present && info.rank >= 0) {
    out.rank = info.rank;
    out.world_size = info.world_size;
    out.backend = info.backend;
  } else {
    out.rank = rankFromFileName(source);
    out.rank_from_file_name = out.rank >= 0;
  }
}

RankSummary summarizeRank(const TraceModel& model, const TraceSummary& summary,
                          const RankSummaryOptions& options) {
  RankSummary rank;
  setRankIdentity(model.metadata.distributed,
                  summary.source.empty() ? model.metadata.source_path : summary.source, rank);
  const std::vector<Step>& steps = summary.steps.steps;
  rank.step_source = stepSourceName(summary.steps.source);
  if (steps.empty()) {
    rank.notes.push_back("no steps: the rank cannot be compared with the others");
    return rank;
  }

  // One scan: comm kernels, collective host ranges and compute kernels, each to its step.
  NameMemo comm_kernel(model, isCommunicationKernelName);
  NameMemo peer_kernel(model, isPeerLibraryKernelName);
  NameMemo comm_range(model, isCollectiveRange);
  std::vector<std::vector<TimedCollective>> kernels(steps.size()), ranges(steps.size());
  std::vector<std::unordered_map<trace::StringId, int64_t>> compute(steps.size());
  for (const Event& e : model.events) {
    const bool kernel = e.kind == EventKind::kKernel;
    if (!kernel && !trace::isCpuRange(e.kind)) continue;
    const bool is_comm = kernel ? comm_kernel(e.name) : comm_range(e.name);
    if (!kernel && !is_comm) continue;
    const int s = stepIndexAt(steps, e.start_ns);
    if (s < 0) continue;
    if (kernel && !is_comm) {
      // DeepEP's all-to-all is communication, not a compute kernel that could have grown.
      if (!peer_kernel(e.name)) compute[s][e.name] += e.dur_ns;
      continue;
    }
    RankCollective c{"default", 0, collectiveKind(model.name(e)), e.dur_ns};
    (kernel ? kernels : ranges)[s].push_back({e.start_ns, model.indexOf(e), std::move(c)});
  }
  const bool use_kernels =
      std::any_of(kernels.begin(), kernels.end(), [](const auto& v) { return !v.empty(); });
  const bool use_ranges =
      std::any_of(ranges.begin(), ranges.end(), [](const auto& v) { return !v.empty(); });
  rank.comm_source = use_kernels ? "device kernels" : use_ranges ? "host ranges" : "";

  rank.steps.resize(steps.size());
  for (size_t i = 0; i < steps.size(); ++i) {
    RankStep& row = rank.steps[i];
    row.number = steps[i].number;
    if (i < summary.attribution.per_step.size())
      fillComponents(row, summary.attribution.per_step[i]);
    else
      row.step_ns = steps[i].duration_ns();
    std::vector<NamedTime> top;
    top.reserve(compute[i].size());
    for (const auto& [name, ns] : compute[i]) top.push_back({std::string(model.str(name)), ns});
    const size_t keep = std::min(options.top_kernels, top.size());
    std::partial_sort(top.begin(), top.begin() + static_cast<std::ptrdiff_t>(keep), top.end(),
                      [](const NamedTime& a, const NamedTime& b) {
                        return a.ns != b.ns ? a.ns > b.ns : a.name < b.name;
                      });
    top.resize(keep);
    row.top_kernels = std::move(top);
  }
  std::vector<std::vector<TimedCollective>>& timed = use_kernels ? kernels : ranges;
  fillCollectiveArgs(model, timed, rank.groups);
  addCollectives(rank.steps, timed);
  return rank;
}

int64_t rankFromFileName(std::string_view path) {
  const size_t slash = path.find_last_of('/');
  std::string lower(slash == std::string_view::npos ? path : path.substr(slash + 1));
  for (char& ch : lower) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  for (std::string_view key : {"rank", "worker"}) {
    for (size_t at = lower.find(key); at != std::string::npos; at = lower.find(key, at + 1)) {
      size_t i = at + key.size();
      if (i < lower.size() && (lower[i] == '_' || lower[i] == '-' || lower[i] == '.')) ++i;
      int64_t value = 0;
      size_t digits = 0;
      for (; i < lower.size() && std::isdigit(static_cast<unsigned char>(lower[i])) && digits < 9;
           ++i, ++digits)
        value = value * 10 + (lower[i] - '0');
      if (digits > 0) return value;
    }
  }
  return -1;
}

}  // namespace steplint::analyzer
