// fillCollectiveArgs (rank_collectives.h).
#include "rank_collectives.h"

#include <algorithm>
#include <cctype>
#include <map>

namespace steplint::analyzer {
namespace {

using trace::CollectiveDetail;
using trace::Event;
using trace::TraceModel;

// record_param_comms wraps the c10d call, whose range wraps the launch: a few levels at most.
constexpr int kMaxEnclosing = 4;

/// The args on `at` or on one of its enclosing ranges.
const CollectiveDetail* enclosingArgs(const TraceModel& model, uint32_t at) {
  for (int depth = 0; at != trace::kNoIndex && depth < kMaxEnclosing;
       ++depth, at = model.events[at].parent)
    if (const CollectiveDetail* c = model.collective(model.events[at])) return c;
  return nullptr;
}

const CollectiveDetail* linkedArgs(const TraceModel& model, const Event& e) {
  if (const CollectiveDetail* own = model.collective(e)) return own;
  if (e.kind != trace::EventKind::kKernel) return enclosingArgs(model, e.parent);
  if (e.link == trace::kNoIndex) return nullptr;
  return enclosingArgs(model, model.events[e.link].link);  // kernel -> launch call -> its op
}

/// The host-side args (record_param_comms) per normalised kind, in start order.
std::map<std::string, std::vector<const CollectiveDetail*>> hostArgsByKind(
    const TraceModel& model) {
  std::vector<std::pair<int64_t, const CollectiveDetail*>> found;
  for (const Event& e : model.events)
    if (trace::isCpuRange(e.kind))
      if (const CollectiveDetail* c = model.collective(e)) found.emplace_back(e.start_ns, c);
  std::stable_sort(found.begin(), found.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::map<std::string, std::vector<const CollectiveDetail*>> by_kind;
  for (const auto& [start, c] : found)
    by_kind[normaliseCollectiveName(model.str(c->name))].push_back(c);
  return by_kind;
}

/// Pairs the host ranges that found no args by following links (gloo runs the call on a worker
/// thread, apart from its record_param_comms) with the record_param_comms ops of their kind, in
/// order; only where no range of that kind found its args otherwise and the counts agree, so a
/// pairing is never half right.
void pairByOrder(const TraceModel& model, std::vector<TimedCollective*>& all,
                 std::vector<const CollectiveDetail*>& args) {
  std::map<std::string, std::vector<size_t>> unpaired;
  std::map<std::string, bool> some_linked;
  for (size_t i = 0; i < all.size(); ++i) {
    if (model.events[all[i]->event].kind == trace::EventKind::kKernel) continue;
    if (args[i])
      some_linked[all[i]->c.name] = true;
    else
      unpaired[all[i]->c.name].push_back(i);
  }
  if (unpaired.empty()) return;
  const auto host = hostArgsByKind(model);
  for (auto& [kind, indices] : unpaired) {
    const auto it = host.find(kind);
    if (some_linked[kind] || it == host.end() || it->second.size() != indices.size()) continue;
    std::stable_sort(indices.begin(), indices.end(),
                     [&](size_t a, size_t b) { return all[a]->start_ns < all[b]->start_ns; });
    for (size_t n = 0; n < indices.size(); ++n) args[indices[n]] = it->second[n];
  }
}

std::vector<int64_t> parseRanks(std::string_view text) {
  constexpr size_t kMaxRanks = 1 << 20;  // a group is at most the world; bounds a corrupt list
  std::vector<int64_t> ranks;
  int64_t value = 0;
  bool in_number = false;
  for (char ch : text) {
    if (std::isdigit(static_cast<unsigned char>(ch)) && value < (int64_t{1} << 40)) {
      value = value * 10 + (ch - '0');
      in_number = true;
    } else if (in_number) {
      if (ranks.size() < kMaxRanks) ranks.push_back(value);
      value = 0;
      in_number = false;
    }
  }
  if (in_number && ranks.size() < kMaxRanks) ranks.push_back(value);
  return ranks;
}

void addGroup(const TraceModel& model, const CollectiveDetail& c,
              std::vector<ProcessGroup>& groups) {
  const std::string name(model.str(c.group));
  if (std::any_of(groups.begin(), groups.end(),
                  [&](const ProcessGroup& g) { return g.name == name; }))
    return;
  groups.push_back(
      {name, std::string(model.str(c.group_desc)), parseRanks(model.str(c.group_ranks))});
}

}  // namespace

std::string normaliseCollectiveName(std::string_view name) {
  std::string out;
  for (char ch : name) {
    if (ch == '(') break;
    if (ch != '_') out += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  }
  // _all_gather_base / _reduce_scatter_base are the same collectives as all_gather /
  // reduce_scatter.
  if (out.size() > 4 && out.compare(out.size() - 4, 4, "base") == 0) out.resize(out.size() - 4);
  return out;
}

void fillCollectiveArgs(const TraceModel& model,
                        std::vector<std::vector<TimedCollective>>& per_step,
                        std::vector<ProcessGroup>& groups) {
  if (model.collectives.empty()) return;
  std::vector<TimedCollective*> all;
  for (auto& step : per_step)
    for (TimedCollective& t : step) all.push_back(&t);
  std::vector<const CollectiveDetail*> args(all.size());
  for (size_t i = 0; i < all.size(); ++i) args[i] = linkedArgs(model, model.events[all[i]->event]);
  pairByOrder(model, all, args);
  for (size_t i = 0; i < all.size(); ++i) {
    const CollectiveDetail* c = args[i];
    if (!c) continue;
    RankCollective& rc = all[i]->c;
    if (c->group != 0) {
      rc.group = std::string(model.str(c->group));
      addGroup(model, *c, groups);
    }
    rc.seq = c->seq;
    rc.nelems = c->in_nelems;
  }
  std::sort(groups.begin(), groups.end(),
            [](const ProcessGroup& a, const ProcessGroup& b) { return a.name < b.name; });
}

}  // namespace steplint::analyzer
