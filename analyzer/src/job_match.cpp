// matchCollectives (job_match.h).
#include "job_match.h"

#include <algorithm>

namespace steplint::analyzer {
namespace {

using PerRank = std::vector<std::vector<const RankCollective*>>;  // one group's calls, per rank

/// One collective matched on `ranks` (indices into the step's rows): wait and transfer.
void addMatch(const std::vector<std::pair<size_t, const RankCollective*>>& calls, StepComm& out) {
  int64_t shortest = calls.front().second->dur_ns;
  for (const auto& [r, c] : calls) shortest = std::min(shortest, c->dur_ns);
  for (const auto& [r, c] : calls) {
    out.wait_ns[r] += c->dur_ns - shortest;
    out.transfer_ns[r] += shortest;
    out.took_part[r] = true;
  }
  ++out.matched;
}

std::string stepPrefix(const RankStep& row, const std::string& group) {
  return "step " + std::to_string(row.number) + ", group " + group + ": ";
}

/// The ranks expected in `group` that recorded calls of it in this step; a member without any
/// while others have some is said once.
std::vector<size_t> participants(const std::string& group, const PerRank& per_rank,
                                 const std::vector<int64_t>& rank_ids,
                                 const std::map<std::string, std::vector<int64_t>>& members,
                                 const RankStep& row, std::vector<std::string>& warnings) {
  const auto known = members.find(group);
  std::vector<size_t> present;
  std::string silent;
  for (size_t r = 0; r < per_rank.size(); ++r) {
    const bool member =
        known == members.end() ||
        std::find(known->second.begin(), known->second.end(), rank_ids[r]) != known->second.end();
    if (!member) continue;
    if (per_rank[r].empty())
      silent += (silent.empty() ? "" : ", ") + std::to_string(rank_ids[r]);
    else
      present.push_back(r);
  }
  if (!silent.empty() && !present.empty())
    warnings.push_back(stepPrefix(row, group) + "no collectives on rank(s) " + silent +
                       " of the group; compared on the others");
  return present;
}

/// Same seq, same call on every rank that has it: robust to a call missing on one rank.
void matchBySeq(const PerRank& per_rank, const std::vector<size_t>& ranks, const std::string& group,
                const std::vector<const RankStep*>& rows, StepComm& out,
                std::vector<std::string>& warnings) {
  std::map<int64_t, std::vector<std::pair<size_t, const RankCollective*>>> by_seq;
  for (size_t r : ranks)
    for (const RankCollective* c : per_rank[r]) by_seq[c->seq].emplace_back(r, c);
  int64_t partial = 0, differing = 0;
  for (const auto& [seq, calls] : by_seq) {
    if (calls.size() < ranks.size()) ++partial;
    const bool same = std::all_of(calls.begin(), calls.end(), [&seq_calls = calls](const auto& rc) {
      return rc.second->name == seq_calls.front().second->name;
    });
    if (!same) ++differing;
    if (calls.size() >= 2 && same) {
      addMatch(calls, out);
      ++out.by_seq;
    }
  }
  if (partial > 0)
    warnings.push_back(
        stepPrefix(*rows[0], group) + std::to_string(partial) +
        " sequence number(s) not seen on every rank; each compared on the ranks that have it");
  if (differing > 0)
    warnings.push_back(
        stepPrefix(*rows[0], group) + std::to_string(differing) +
        " sequence number(s) name different collectives on different ranks; left out");
}

/// The i-th call of the group on each rank; the step's comparison stops at the first position
/// where the ranks disagree on the kind (or, when recorded, the size): order is all there is.
void matchByOrder(const PerRank& per_rank, const std::vector<size_t>& ranks,
                  const std::string& group, const std::vector<const RankStep*>& rows,
                  const std::vector<int64_t>& rank_ids, StepComm& out,
                  std::vector<std::string>& warnings) {
  const size_t first = ranks.front();
  size_t n = per_rank[first].size();
  for (size_t r : ranks) {
    if (per_rank[r].size() != per_rank[first].size())
      warnings.push_back("step " + std::to_string(rows[0]->number) + ": rank " +
                         std::to_string(rank_ids[r]) + " has " +
                         std::to_string(per_rank[r].size()) + " collectives in group " + group +
                         ", rank " + std::to_string(rank_ids[first]) + " has " +
                         std::to_string(per_rank[first].size()) + "; compared the first ones only");
    n = std::min(n, per_rank[r].size());
  }
  for (size_t i = 0; i < n; ++i) {
    const RankCollective& ref = *per_rank[first][i];
    const bool same = std::all_of(ranks.begin(), ranks.end(), [&](size_t r) {
      const RankCollective& c = *per_rank[r][i];
      return c.name == ref.name && (c.nelems < 0 || ref.nelems < 0 || c.nelems == ref.nelems);
    });
    if (!same) {
      warnings.push_back("step " + std::to_string(rows[0]->number) + ": collective " +
                         std::to_string(i) + " of group " + group + " differs between ranks (" +
                         ref.name + " on rank " + std::to_string(rank_ids[first]) +
                         "); the rest of the step is not compared");
      break;
    }
    std::vector<std::pair<size_t, const RankCollective*>> calls;
    for (size_t r : ranks) calls.emplace_back(r, per_rank[r][i]);
    addMatch(calls, out);
  }
}

}  // namespace

std::map<std::string, std::vector<int64_t>> groupMembers(const Job& job) {
  std::map<std::string, std::vector<int64_t>> members;
  for (const RankSummary& r : job.ranks)
    for (const ProcessGroup& g : r.groups)
      if (!g.ranks.empty() && !members.count(g.name)) members[g.name] = g.ranks;
  return members;
}

StepComm matchCollectives(const std::vector<const RankStep*>& rows,
                          const std::vector<int64_t>& rank_ids,
                          const std::map<std::string, std::vector<int64_t>>& members,
                          std::vector<std::string>& warnings) {
  StepComm out;
  out.wait_ns.assign(rows.size(), 0);
  out.transfer_ns.assign(rows.size(), 0);
  out.took_part.assign(rows.size(), false);
  std::map<std::string, PerRank> groups;
  for (size_t r = 0; r < rows.size(); ++r)
    for (const RankCollective& c : rows[r]->collectives) {
      PerRank& per_rank = groups[c.group];
      per_rank.resize(rows.size());
      per_rank[r].push_back(&c);
    }
  for (auto& [group, per_rank] : groups) {
    per_rank.resize(rows.size());
    const std::vector<size_t> ranks =
        participants(group, per_rank, rank_ids, members, *rows[0], warnings);
    if (ranks.size() < 2) continue;
    const bool seq = std::all_of(ranks.begin(), ranks.end(), [&rank_calls = per_rank](size_t r) {
      return std::all_of(rank_calls[r].begin(), rank_calls[r].end(),
                         [](const RankCollective* c) { return c->seq >= 0; });
    });
    if (seq)
      matchBySeq(per_rank, ranks, group, rows, out, warnings);
    else
      matchByOrder(per_rank, ranks, group, rows, rank_ids, out, warnings);
  }
  return out;
}

}  // namespace steplint::analyzer
