// The c10d args of a rank's timed collectives (rank_summary.h): which process group each call
// belongs to and its sequence number there, so the job analysis can match calls across ranks
// by (group, seq) instead of by their order (docs/analyses.md §8).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "steplint/analyzer/rank_summary.h"
#include "steplint/trace/model.h"

namespace steplint::analyzer {

/// One timed collective: an NCCL kernel or a c10d host range (nccl:*, gloo:*).
struct TimedCollective {
  int64_t start_ns = 0;
  uint32_t event = trace::kNoIndex;
  RankCollective c;  // group "default", seq and nelems unknown until fillCollectiveArgs
};

/// "allreduce" for "all_reduce", "AllReduce", "_allreduce_base": the form collectiveKind gives,
/// so a kernel's or range's kind compares with the args' "Collective name".
std::string normaliseCollectiveName(std::string_view name);

/// Fills group, seq and nelems from the args: the event's own (a torch 2.x NCCL kernel), those
/// of the op that launched it or encloses it (record_param_comms), or, for host ranges that run
/// on a worker thread (gloo), the n-th record_param_comms of the same kind when the counts
/// agree. Adds each group named to `groups`.
void fillCollectiveArgs(const trace::TraceModel& model,
                        std::vector<std::vector<TimedCollective>>& per_step,
                        std::vector<ProcessGroup>& groups);

}  // namespace steplint::analyzer
