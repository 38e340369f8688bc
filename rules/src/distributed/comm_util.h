// Distributed-training facts read from a trace: DataParallel / DDP usage, communication
// libraries and communication kernels (docs/reference/peer-tools.md §1.2 flags, §2.2 kernel types).
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "steplint/analyzer/rule.h"
#include "steplint/trace/model.h"

namespace steplint::rules {

struct DistributedFacts {
  std::vector<uint32_t> dp_forward;   // ops/annotations named exactly "DataParallel.forward"
  std::vector<uint32_t> ddp_forward;  // ... "DistributedDataParallel.forward"
  std::vector<uint32_t> nccl_ops;     // CPU ranges named "nccl:*"
  std::vector<uint32_t> gloo_ops;     // CPU ranges named "gloo:*"
  bool nccl_kernels = false;          // device kernels named nccl* (ncclKernel_*, ncclDevKernel_*)
  std::set<int32_t> devices;          // devices with kernels, copies or memsets
};

DistributedFacts readDistributedFacts(const trace::TraceModel& model);
/// The same, computed once per context (SL501, SL502 and SL503 all ask).
const DistributedFacts& distributedFacts(const analyzer::AnalysisContext& context);

/// SL503's caveat on one rank of a job of `world_size` (> 1): within one trace the time a rank
/// waits inside collectives for slower ranks is communication too. The job report measures that
/// wait and replaces this caveat (job/rank_findings.cpp).
std::string oneRankCaveat(int64_t world_size);

/// NCCL (and RCCL) kernels by name, as HTA's COMMUNICATION type without its `^hip` quirk (HTA-Q11).
bool isCommKernelName(std::string_view name);

}  // namespace steplint::rules
