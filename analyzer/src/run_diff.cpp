// diffRuns: two RunProfiles compared (run_diff.h; docs/analyses.md "Comparing runs").
#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <set>
#include <tuple>

#include "steplint/analyzer/regression.h"
#include "steplint/analyzer/run_diff.h"

namespace steplint::analyzer {
namespace {

// Linear interpolation between closest ranks (numpy's default), on sorted values.
double quantile(const std::vector<int64_t>& sorted, double q) {
  if (sorted.empty()) return 0;
  const double pos = q * static_cast<double>(sorted.size() - 1);
  const size_t lo = static_cast<size_t>(pos);
  const size_t hi = std::min(lo + 1, sorted.size() - 1);
  return static_cast<double>(sorted[lo]) +
         (pos - static_cast<double>(lo)) * static_cast<double>(sorted[hi] - sorted[lo]);
}

GroupDelta fromGroups(const WorkGroup* base, double base_steps, const WorkGroup* next,
                      double new_steps) {
  const WorkGroup& any = base ? *base : *next;
  GroupDelta d;
  d.name = any.name;
  d.shapes = any.shapes;
  d.stream = any.stream;
  d.kind = any.kind;
  d.change = base && next ? GroupChange::kMatched
             : base       ? GroupChange::kVanished
                          : GroupChange::kAppeared;
  if (base) {
    d.base_count = static_cast<double>(base->count) / base_steps;
    d.base_ns = static_cast<double>(base->total_ns) / base_steps;
    d.base_mean_ns =
        base->count ? static_cast<double>(base->total_ns) / static_cast<double>(base->count) : 0;
  }
  if (next) {
    d.new_count = static_cast<double>(next->count) / new_steps;
    d.new_ns = static_cast<double>(next->total_ns) / new_steps;
    d.new_mean_ns =
        next->count ? static_cast<double>(next->total_ns) / static_cast<double>(next->count) : 0;
  }
  return d;
}

/// Sums the groups of one name into one: the by-name fallback. Shapes and stream are kept
/// when the name had a single group (an appeared kernel still says its stream).
std::map<std::string, WorkGroup> byName(const std::vector<const WorkGroup*>& groups) {
  std::map<std::string, WorkGroup> out;
  for (const WorkGroup* g : groups) {
    auto [it, inserted] = out.try_emplace(g->name, *g);
    if (inserted) continue;
    it->second.shapes.clear();
    it->second.stream = -1;
    it->second.count += g->count;
    it->second.total_ns += g->total_ns;
  }
  return out;
}

struct Matched {
  std::vector<GroupDelta> rows;
  double fraction = -1;  // matched time / all time, both runs
};

Matched matchGroups(const std::vector<WorkGroup>& base, double base_steps,
                    const std::vector<WorkGroup>& next, double new_steps) {
  using Key = std::tuple<const std::string&, const std::string&, int32_t>;
  std::map<Key, const WorkGroup*> base_by_key;
  for (const WorkGroup& g : base) base_by_key.emplace(Key{g.name, g.shapes, g.stream}, &g);
  Matched out;
  std::set<const WorkGroup*> base_used;
  std::vector<const WorkGroup*> next_left;
  for (const WorkGroup& g : next) {
    auto it = base_by_key.find(Key{g.name, g.shapes, g.stream});
    if (it == base_by_key.end()) {
      next_left.push_back(&g);
      continue;
    }
    base_used.insert(it->second);
    out.rows.push_back(fromGroups(it->second, base_steps, &g, new_steps));
  }
  std::vector<const WorkGroup*> base_left;
  for (const WorkGroup& g : base)
    if (!base_used.count(&g)) base_left.push_back(&g);
  // Second pass: a kernel on another stream, an op with other shapes, is still that kernel/op.
  const std::map<std::string, WorkGroup> base_names = byName(base_left),
                                         next_names = byName(next_left);
  for (const auto& [name, g] : next_names) {
    auto it = base_names.find(name);
    GroupDelta d =
        fromGroups(it == base_names.end() ? nullptr : &it->second, base_steps, &g, new_steps);
    if (it != base_names.end()) {  // the fine keys differ, so neither describes the row
      d.by_name_only = true;
      d.stream = -1;
      d.shapes.clear();
    }
    out.rows.push_back(std::move(d));
  }
  for (const auto& [name, g] : base_names)
    if (!next_names.count(name)) out.rows.push_back(fromGroups(&g, base_steps, nullptr, new_steps));

  double matched = 0, all = 0;
  for (const GroupDelta& d : out.rows) {
    all += d.base_ns + d.new_ns;
    if (d.change == GroupChange::kMatched) matched += d.base_ns + d.new_ns;
  }
  if (all > 0) out.fraction = matched / all;
  std::stable_sort(out.rows.begin(), out.rows.end(), [](const GroupDelta& a, const GroupDelta& b) {
    const double da = std::fabs(a.delta_ns()), db = std::fabs(b.delta_ns());
    return da != db ? da > db : a.name < b.name;
  });
  return out;
}

FindingChange classify(const FindingSize& base, const FindingSize& next, double factor) {
  if (base.unit != next.unit || base.magnitude < 0 || next.magnitude < 0)
    return FindingChange::kSame;
  if (base.magnitude == 0) return next.magnitude > 0 ? FindingChange::kWorse : FindingChange::kSame;
  const double ratio = next.magnitude / base.magnitude;
  if (ratio >= factor) return FindingChange::kWorse;
  if (ratio <= 1.0 / factor) return FindingChange::kBetter;
  return FindingChange::kSame;
}

// A rule keyed by GPU index on a run that used another index: the one unmatched finding of the
// rule on each side is the same finding (a run on GPU 6, the next on GPU 7, is no fix).
void matchRenumberedDevices(std::map<std::string, FindingDelta>& by_fingerprint) {
  std::map<std::string, std::pair<std::vector<std::string>, std::vector<std::string>>> loose;
  for (const auto& [fingerprint, d] : by_fingerprint) {
    const std::string code(deviceFingerprintCode(fingerprint));
    if (code.empty() || (!d.base.fingerprint.empty() && !d.next.fingerprint.empty())) continue;
    (d.next.fingerprint.empty() ? loose[code].first : loose[code].second).push_back(fingerprint);
  }
  for (const auto& [code, sides] : loose) {
    if (sides.first.size() != 1 || sides.second.size() != 1) continue;
    FindingDelta& merged = by_fingerprint[sides.second[0]];
    merged.base = by_fingerprint[sides.first[0]].base;
    merged.device_renumbered = true;
    by_fingerprint.erase(sides.first[0]);
  }
}

}  // namespace

std::vector<FindingDelta> diffFindings(const std::vector<FindingSize>& base,
                                       const std::vector<FindingSize>& next, double factor) {
  std::map<std::string, FindingDelta> by_fingerprint;
  for (const FindingSize& f : base) by_fingerprint[f.fingerprint].base = f;
  for (const FindingSize& f : next) by_fingerprint[f.fingerprint].next = f;
  matchRenumberedDevices(by_fingerprint);
  std::vector<FindingDelta> out;
  for (auto& [fingerprint, d] : by_fingerprint) {
    if (d.base.fingerprint.empty())
      d.change = FindingChange::kNew;
    else if (d.next.fingerprint.empty())
      d.change = FindingChange::kFixed;
    else
      d.change = classify(d.base, d.next, factor);
    out.push_back(std::move(d));
  }
  // What a reviewer acts on first: new and worse findings.
  static constexpr FindingChange kOrder[] = {FindingChange::kNew, FindingChange::kWorse,
                                             FindingChange::kFixed, FindingChange::kBetter,
                                             FindingChange::kSame};
  auto rank = [](FindingChange c) {
    return std::find(std::begin(kOrder), std::end(kOrder), c) - std::begin(kOrder);
  };
  std::stable_sort(out.begin(), out.end(), [&](const FindingDelta& a, const FindingDelta& b) {
    return rank(a.change) < rank(b.change);
  });
  return out;
}

namespace {

std::vector<MetadataDelta> diffMetadata(const RunProfile& base, const RunProfile& next) {
  std::map<std::string, MetadataDelta> keys;
  for (const auto& [k, v] : base.metadata) keys[k] = {k, v, ""};
  for (const auto& [k, v] : next.metadata) {
    auto [it, inserted] = keys.try_emplace(k, MetadataDelta{k, "", v});
    if (!inserted) it->second.next = v;
  }
  std::vector<MetadataDelta> out;
  for (auto& [k, d] : keys) out.push_back(std::move(d));
  return out;
}

std::string percent(double fraction) {
  return std::to_string(static_cast<int>(std::lround(fraction * 100))) + "%";
}

void addNotes(const RunProfile& base, const RunProfile& next, RunDiff& diff) {
  for (const MetadataDelta& m : diff.metadata) {
    if ((m.key == "devices" || m.key == "accelerator") && m.differs() && !m.base.empty() &&
        !m.next.empty())
      diff.notes.push_back("the runs ran on different " + m.key + " (" + m.base + " vs " + m.next +
                           "): device times are compared as recorded, not normalised");
  }
  if (diff.matched_device_fraction >= 0 && diff.matched_device_fraction < 0.5)
    diff.notes.push_back(
        "only " + percent(diff.matched_device_fraction) +
        " of the device time is in kernels and copies both runs have: the traces may be of "
        "different models or libraries; the deltas compare what matches");
  for (const RunProfile* p : {&base, &next}) {
    if (p->step_ns.empty())
      diff.notes.push_back(p->source +
                           ": no steps; its figures are whole-trace totals, not per step");
    else if (p->step_source == StepSource::kWholeTrace)
      diff.notes.push_back(
          p->source + ": no ProfilerStep ranges and no detected loop; one step spans the trace");
  }
  for (const FindingDelta& f : diff.findings)
    if (f.device_renumbered)
      diff.notes.push_back(f.next.code + " is compared across GPU indices (" + f.base.fingerprint +
                           " in the base run, " + f.next.fingerprint +
                           " in the new one): the only such finding in each run");
  // A worse or better finding compares averages, which the same per-step spread moves.
  const bool resized = std::any_of(diff.findings.begin(), diff.findings.end(), [](const auto& f) {
    return f.change == FindingChange::kWorse || f.change == FindingChange::kBetter;
  });
  if (resized && diff.step_test.tested && !diff.step_test.significant)
    diff.notes.push_back(
        "the step time's change is " + diff.step_test.text +
        ": findings marked worse or better compare per-step averages, which a few long steps "
        "move as much");
  if (!base.step_ns.empty() && !next.step_ns.empty() && base.step_source != next.step_source)
    diff.notes.push_back(
        "the runs' steps were found differently (ProfilerStep ranges in one, detected in the other)");
}

}  // namespace

std::string_view groupChangeName(GroupChange change) {
  switch (change) {
    case GroupChange::kMatched:
      return "matched";
    case GroupChange::kAppeared:
      return "appeared";
    case GroupChange::kVanished:
      return "vanished";
  }
  return "matched";
}

std::string_view findingChangeName(FindingChange change) {
  switch (change) {
    case FindingChange::kNew:
      return "new";
    case FindingChange::kFixed:
      return "fixed";
    case FindingChange::kWorse:
      return "worse";
    case FindingChange::kBetter:
      return "better";
    case FindingChange::kSame:
      return "same";
  }
  return "same";
}

DistributionStats describeDistribution(std::vector<int64_t> values) {
  DistributionStats s;
  s.count = values.size();
  if (values.empty()) return s;
  std::sort(values.begin(), values.end());
  const double n = static_cast<double>(values.size());
  s.mean_ns = std::accumulate(values.begin(), values.end(), 0.0) / n;
  s.median_ns = quantile(values, 0.5);
  s.p10_ns = quantile(values, 0.1);
  s.p90_ns = quantile(values, 0.9);
  s.min_ns = static_cast<double>(values.front());
  s.max_ns = static_cast<double>(values.back());
  if (values.size() > 1) {
    double sq = 0;
    for (int64_t v : values)
      sq += (static_cast<double>(v) - s.mean_ns) * (static_cast<double>(v) - s.mean_ns);
    s.stddev_ns = std::sqrt(sq / (n - 1));
  }
  return s;
}

RunDiff diffRuns(const RunProfile& base, const RunProfile& next, const DiffOptions& options) {
  RunDiff diff;
  diff.base_source = base.source;
  diff.new_source = next.source;
  diff.base_steps = describeDistribution(base.step_ns);
  diff.new_steps = describeDistribution(next.step_ns);
  diff.step_delta_ns = next.average_step_ns - base.average_step_ns;
  diff.step_test = testChange(base.step_ns, next.step_ns);
  for (int c = 0; c < kStepCategoryCount; ++c)
    diff.categories.push_back(
        {static_cast<StepCategory>(c), base.category_ns[c], next.category_ns[c]});
  Matched ops = matchGroups(base.ops, base.perStepDivisor(), next.ops, next.perStepDivisor());
  Matched device =
      matchGroups(base.device_ops, base.perStepDivisor(), next.device_ops, next.perStepDivisor());
  diff.ops = std::move(ops.rows);
  diff.matched_op_fraction = ops.fraction;
  diff.device_ops = std::move(device.rows);
  diff.matched_device_fraction = device.fraction;
  diff.findings_compared = base.linted && next.linted;
  if (diff.findings_compared)
    diff.findings = diffFindings(base.findings, next.findings, options.finding_factor);
  diff.metadata = diffMetadata(base, next);
  addNotes(base, next, diff);
  return diff;
}

}  // namespace steplint::analyzer
