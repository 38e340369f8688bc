// A RankSummary as JSON and back: `steplint summary --format json` carries it as
// "rank_summary", so a launcher can reduce each rank's trace where it was written and a job
// report can be built from those small files alone (docs/analyses.md §8).
#include <nlohmann/json.hpp>

#include "steplint/analyzer/rank_summary.h"

namespace steplint::analyzer {
namespace {

// Bounds on what a file may claim, so a hostile or corrupt file cannot make the job step
// allocate without limit (a real rank has a few hundred steps and a few dozen collectives).
constexpr size_t kMaxSteps = 100'000;
constexpr size_t kMaxPerStep = 100'000;

int64_t integer(const nlohmann::json& j, const char* key) {
  const nlohmann::json& v = j.at(key);
  if (!v.is_number_integer()) throw std::invalid_argument(std::string(key) + " is not an integer");
  return v.get<int64_t>();
}

// Keys added after the first release of the format: absent in older files.
int64_t optionalInteger(const nlohmann::json& j, const char* key) { return j.contains(key) ? integer(j, key) : -1; }

std::string text(const nlohmann::json& j, const char* key) {
  const nlohmann::json& v = j.at(key);
  if (!v.is_string()) throw std::invalid_argument(std::string(key) + " is not a string");
  return v.get<std::string>();
}

const nlohmann::json& array(const nlohmann::json& j, const char* key, size_t max) {
  const nlohmann::json& v = j.at(key);
  if (!v.is_array() || v.size() > max) throw std::invalid_argument(std::string(key) + " is not an array of at most " + std::to_string(max));
  return v;
}

}  // namespace

nlohmann::json rankSummaryToJson(const RankSummary& rank) {
  nlohmann::json steps = nlohmann::json::array();
  for (const RankStep& s : rank.steps) {
    nlohmann::json collectives = nlohmann::json::array();
    for (const RankCollective& c : s.collectives)
      collectives.push_back({{"group", c.group}, {"index", c.index}, {"name", c.name}, {"dur_ns", c.dur_ns},
                             {"seq", c.seq}, {"nelems", c.nelems}});
    nlohmann::json kernels = nlohmann::json::array();
    for (const NamedTime& k : s.top_kernels) kernels.push_back({{"name", k.name}, {"ns", k.ns}});
    steps.push_back({{"number", s.number}, {"step_ns", s.step_ns}, {"compute_ns", s.compute_ns},
                     {"comm_ns", s.comm_ns}, {"sync_ns", s.sync_ns}, {"host_work_ns", s.host_work_ns},
                     {"dataloader_ns", s.dataloader_ns}, {"idle_ns", s.idle_ns},
                     {"collectives", std::move(collectives)}, {"top_kernels", std::move(kernels)}});
  }
  nlohmann::json groups = nlohmann::json::array();
  for (const ProcessGroup& g : rank.groups)
    groups.push_back({{"name", g.name}, {"description", g.description}, {"ranks", g.ranks}});
  return {{"source", rank.source}, {"rank", rank.rank}, {"world_size", rank.world_size}, {"groups", std::move(groups)},
          {"rank_from_file_name", rank.rank_from_file_name}, {"backend", rank.backend},
          {"comm_source", rank.comm_source}, {"step_source", rank.step_source},
          {"steps", std::move(steps)}, {"notes", rank.notes}};
}

std::string rankSummaryFromJson(const nlohmann::json& j, RankSummary& out) {
  try {
    RankSummary r;
    r.source = text(j, "source");
    r.rank = integer(j, "rank");
    r.world_size = integer(j, "world_size");
    r.rank_from_file_name = j.at("rank_from_file_name").get<bool>();
    r.backend = text(j, "backend");
    r.comm_source = text(j, "comm_source");
    r.step_source = text(j, "step_source");
    for (const nlohmann::json& s : array(j, "steps", kMaxSteps)) {
      RankStep step;
      step.number = integer(s, "number");
      step.step_ns = integer(s, "step_ns");
      step.compute_ns = integer(s, "compute_ns");
      step.comm_ns = integer(s, "comm_ns");
      step.sync_ns = integer(s, "sync_ns");
      step.host_work_ns = integer(s, "host_work_ns");
      step.dataloader_ns = integer(s, "dataloader_ns");
      step.idle_ns = integer(s, "idle_ns");
      for (const nlohmann::json& c : array(s, "collectives", kMaxPerStep))
        step.collectives.push_back({text(c, "group"), integer(c, "index"), text(c, "name"), integer(c, "dur_ns"),
                                    optionalInteger(c, "seq"), optionalInteger(c, "nelems")});
      for (const nlohmann::json& k : array(s, "top_kernels", kMaxPerStep))
        step.top_kernels.push_back({text(k, "name"), integer(k, "ns")});
      r.steps.push_back(std::move(step));
    }
    if (j.contains("groups"))
      for (const nlohmann::json& g : array(j, "groups", kMaxPerStep)) {
        ProcessGroup group{text(g, "name"), text(g, "description"), {}};
        for (const nlohmann::json& member : array(g, "ranks", kMaxPerStep))
          if (member.is_number_integer()) group.ranks.push_back(member.get<int64_t>());
        r.groups.push_back(std::move(group));
      }
    for (const nlohmann::json& n : array(j, "notes", kMaxPerStep))
      if (n.is_string()) r.notes.push_back(n.get<std::string>());
    out = std::move(r);
    return {};
  } catch (const std::exception& e) {
    return std::string("not a rank summary: ") + e.what();
  }
}

}  // namespace steplint::analyzer
