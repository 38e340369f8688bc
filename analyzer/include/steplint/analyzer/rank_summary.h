// One rank of a distributed job, reduced to what the cross-rank analysis (job.h) needs: a few
// numbers per step and the step's collectives. A RankSummary is a few KB whatever the trace's
// size, so a job's ranks are imported one by one (or in parallel), reduced, and their models
// freed before the ranks are compared (docs/analyses.md "Whole job").
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "steplint/analyzer/summary.h"
#include "steplint/trace/model.h"
#include "steplint/trace/peek.h"

namespace steplint::analyzer {

/// One collective call as one rank saw it. Durations are the rank's own; no absolute time is
/// kept, because the ranks' clocks are not trusted to agree.
struct RankCollective {
  std::string
      group;  // process group name from the args ("0", "1" ...); "default" when the trace has none
  int64_t index = 0;    // position among the step's collectives of this group
  std::string name;     // normalised: "allreduce", "broadcast", "allgather" ...
  int64_t dur_ns = 0;   // device kernel (NCCL) or host range (gloo), waiting included
  int64_t seq = -1;     // the call's sequence number in its group (torch >= 2.3 args), -1: unknown
  int64_t nelems = -1;  // "In msg nelems", -1: unknown
};

/// A process group as the collectives' args describe it.
struct ProcessGroup {
  std::string name;            // "0", "1" ...: the same on every rank of the group
  std::string description;     // "default_pg", ... ("" when not recorded)
  std::vector<int64_t> ranks;  // its global ranks; empty when not recorded
};

/// A name (kernel) and the time it took in one step.
struct NamedTime {
  std::string name;
  int64_t ns = 0;
};

/// One step of one rank. The components come from the step attribution (attribution.h) on the
/// rank's busiest device; a rank without device work uses its host timeline instead.
struct RankStep {
  int64_t number = 0;      // ProfilerStep number (or detected step index)
  int64_t step_ns = 0;     // wall time of the step
  int64_t compute_ns = 0;  // device: kernels other than communication
  int64_t comm_ns = 0;     // time inside the step's collectives, overlaps once (waiting included)
  int64_t sync_ns = 0;  // device idle because of host syncs: blocked, and the lead lost after one
  int64_t host_work_ns = 0;   // device idle while the host runs ops, launches or unrecorded code
  int64_t dataloader_ns = 0;  // host waiting for the next batch
  int64_t idle_ns = 0;        // all device idle time
  std::vector<RankCollective> collectives;  // in the rank's own order
  std::vector<NamedTime> top_kernels;       // compute kernels by total time in the step (capped)
};

struct RankSummary {
  std::string source;       // the trace path
  int64_t rank = -1;        // distributedInfo.rank, else from the file name, else -1
  int64_t world_size = -1;  // distributedInfo.world_size (-1: unknown)
  bool rank_from_file_name = false;
  std::string backend;      // distributedInfo.backend ("nccl", "gloo"), may be empty
  std::string comm_source;  // "device kernels", "host ranges" or "" (no collectives)
  std::string step_source;  // "ProfilerStep", "detected", "whole trace"
  std::vector<RankStep> steps;
  std::vector<ProcessGroup> groups;  // from the collectives' args, by name; empty without them
  std::vector<std::string> notes;    // what could not be read, and why
};

struct RankSummaryOptions {
  size_t top_kernels = 12;  // kernels kept per step: enough to name what grew on a slow rank
};

/// The collective's kind from a kernel or range name: "ncclDevKernel_AllReduce_Sum_f32_RING_LL"
/// and "nccl:all_reduce" both give "allreduce"; "" when the name is no collective.
std::string collectiveKind(std::string_view name);

/// Who a trace is in its job: source, rank, world size and backend from its distributedInfo,
/// else the rank from the file name. summarizeRank uses it; the CLI also on a file's first bytes
/// (trace/peek.h), to tell a job's ranks from unrelated traces before importing them.
void setRankIdentity(const trace::DistributedInfo& info, const std::string& source,
                     RankSummary& out);

/// Reduces one imported trace (and its summary) to a RankSummary.
RankSummary summarizeRank(const trace::TraceModel& model, const TraceSummary& summary,
                          const RankSummaryOptions& options = {});

/// The summary as JSON: `steplint summary --format json` writes it as "rank_summary".
nlohmann::json rankSummaryToJson(const RankSummary& rank);

enum class RankSummaryRead : uint8_t { kRead, kNotASummary, kBroken };
/// Reads the "rank_summary" of a `steplint summary --format json` document's text into `out`.
/// kNotASummary: the text is no steplint summary (a trace, another JSON document); kBroken: it
/// is one, but its rank summary is missing or malformed (`problem` says what; `out` untouched).
/// Sizes are bounded, so a corrupt file is an error, not a huge allocation.
RankSummaryRead readRankSummaryDocument(std::string_view json_text, RankSummary& out,
                                        std::string& problem);

/// Whether `path` (whose first bytes are `peek`) is a `steplint summary --format json` file with a
/// rank summary, read into `out`: how `steplint summary|check DIR` and the GUI's ranks view take
/// a rank they have no trace of. A file that is no such document is left to the trace importer
/// (false, `problem` empty); one that is but cannot be read gets `problem`, naming the path.
bool readRankSummaryFile(const std::string& path, const trace::FilePeek& peek, RankSummary& out,
                         std::string& problem);

/// The rank in a file name written by torch's tensorboard_trace_handler or a launcher
/// ("rank3", "rank_3", "rank-3", "worker3"); -1 when none is found.
int64_t rankFromFileName(std::string_view path);

}  // namespace steplint::analyzer
