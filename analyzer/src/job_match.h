// Matching one step's collectives across the ranks (job.h): by (process group, sequence number)
// where every call of a group carries its seq, else by position among the group's calls in the
// step. Either way only the ranks in the group take part, and no clock is compared.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "steplint/analyzer/job.h"

namespace steplint::analyzer {

/// The matched collectives of one step, summed per rank.
struct StepComm {
  int64_t matched = 0;
  int64_t by_seq = 0;  // of `matched`, matched by sequence number
  std::vector<int64_t>
      wait_ns;  // per rank: duration minus the shortest rank's, over its collectives
  std::vector<int64_t>
      transfer_ns;  // per rank: the shortest duration of each collective it took part in
  std::vector<bool> took_part;  // per rank: in at least one matched collective
};

/// Each process group's global ranks, by name, as the ranks' summaries describe them; a group
/// whose args name no ranks is absent (every rank is then expected in it).
std::map<std::string, std::vector<int64_t>> groupMembers(const Job& job);

StepComm matchCollectives(const std::vector<const RankStep*>& rows,
                          const std::vector<int64_t>& rank_ids,
                          const std::map<std::string, std::vector<int64_t>>& members,
                          std::vector<std::string>& warnings);

}  // namespace steplint::analyzer
