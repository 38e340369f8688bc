// A RankSummary as JSON: `steplint summary --format json` carries it as "rank_summary", so a
// launcher can reduce each rank's trace where it was written and a job report can be built from
// those small files alone (docs/analyses.md §10). Reading it back: rank_summary_read.cpp.
#include <nlohmann/json.hpp>

#include "steplint/analyzer/rank_summary.h"

namespace steplint::analyzer {

nlohmann::json rankSummaryToJson(const RankSummary& rank) {
  nlohmann::json steps = nlohmann::json::array();
  for (const RankStep& s : rank.steps) {
    nlohmann::json collectives = nlohmann::json::array();
    for (const RankCollective& c : s.collectives)
      collectives.push_back({{"group", c.group},
                             {"index", c.index},
                             {"name", c.name},
                             {"dur_ns", c.dur_ns},
                             {"seq", c.seq},
                             {"nelems", c.nelems}});
    nlohmann::json kernels = nlohmann::json::array();
    for (const NamedTime& k : s.top_kernels) kernels.push_back({{"name", k.name}, {"ns", k.ns}});
    steps.push_back({{"number", s.number},
                     {"step_ns", s.step_ns},
                     {"compute_ns", s.compute_ns},
                     {"comm_ns", s.comm_ns},
                     {"sync_ns", s.sync_ns},
                     {"host_work_ns", s.host_work_ns},
                     {"dataloader_ns", s.dataloader_ns},
                     {"idle_ns", s.idle_ns},
                     {"collectives", std::move(collectives)},
                     {"top_kernels", std::move(kernels)}});
  }
  nlohmann::json groups = nlohmann::json::array();
  for (const ProcessGroup& g : rank.groups)
    groups.push_back({{"name", g.name}, {"description", g.description}, {"ranks", g.ranks}});
  return {{"source", rank.source},
          {"rank", rank.rank},
          {"world_size", rank.world_size},
          {"groups", std::move(groups)},
          {"rank_from_file_name", rank.rank_from_file_name},
          {"backend", rank.backend},
          {"comm_source", rank.comm_source},
          {"step_source", rank.step_source},
          {"steps", std::move(steps)},
          {"notes", rank.notes}};
}

}  // namespace steplint::analyzer
