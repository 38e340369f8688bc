// `steplint diff --format json`; the schema is documented in docs/diff-json.md.
#include <nlohmann/json.hpp>

#include "steplint/analyzer/run_diff.h"

namespace steplint::analyzer {
namespace {

using nlohmann::json;

// Stable snake_case keys, as summary JSON (display names such as "CPU Exec" are for humans).
constexpr const char* kCategoryKeys[kStepCategoryCount] = {
    "kernel", "memcpy", "memset", "communication", "runtime", "dataloader", "cpu_exec", "other"};

double ms(double ns) { return ns / 1e6; }

json distributionJson(const DistributionStats& s) {
  return {{"steps", s.count},       {"mean_ms", ms(s.mean_ns)},    {"median_ms", ms(s.median_ns)},
          {"p10_ms", ms(s.p10_ns)}, {"p90_ms", ms(s.p90_ns)},      {"min_ms", ms(s.min_ns)},
          {"max_ms", ms(s.max_ns)}, {"stddev_ms", ms(s.stddev_ns)}};
}

json groupJson(const GroupDelta& g, bool device) {
  json j = {{"name", g.name},
            {"kind", std::string(trace::eventKindName(g.kind))},
            {"change", std::string(groupChangeName(g.change))},
            {"matched_by_name_only", g.by_name_only},
            {"base",
             {{"count_per_step", g.base_count},
              {"ms_per_step", ms(g.base_ns)},
              {"mean_us", g.base_mean_ns / 1e3}}},
            {"new",
             {{"count_per_step", g.new_count},
              {"ms_per_step", ms(g.new_ns)},
              {"mean_us", g.new_mean_ns / 1e3}}},
            {"delta_ms_per_step", ms(g.delta_ns())},
            {"delta_count_per_step", g.count_delta()}};
  if (device)
    j["stream"] = g.stream >= 0 ? json(g.stream) : json(nullptr);
  else
    j["input_shapes"] = g.shapes.empty() ? json(nullptr) : json(g.shapes);
  return j;
}

json findingSideJson(const FindingSize& f) {
  if (f.fingerprint.empty()) return nullptr;
  return {{"message", f.message},
          {"magnitude", f.magnitude < 0 ? json(nullptr) : json(f.magnitude)},
          {"unit", f.unit.empty() ? json(nullptr) : json(f.unit)}};
}

}  // namespace

json findingDeltasToJson(bool compared, const std::vector<FindingDelta>& findings) {
  if (!compared) return nullptr;  // not compared: the rules did not run on both
  json out = json::array();
  for (const FindingDelta& f : findings) {
    const FindingSize& any = f.next.fingerprint.empty() ? f.base : f.next;
    out.push_back({{"change", std::string(findingChangeName(f.change))},
                   {"fingerprint", any.fingerprint},
                   {"code", any.code},
                   {"name", any.name},
                   {"base", findingSideJson(f.base)},
                   {"new", findingSideJson(f.next)}});
  }
  return out;
}

namespace {

json fraction(double f) { return f < 0 ? json(nullptr) : json(f); }

}  // namespace

// The gate's test on the per-step times (regression.h testChange); null figures when untested.
json changeTestToJson(const ChangeTest& t, double median_delta_ns) {
  return {{"tested", t.tested},
          {"significant", t.tested ? json(t.significant) : json(nullptr)},
          {"p_value", t.tested ? json(t.p_value) : json(nullptr)},
          {"median_delta_ms", ms(median_delta_ns)},
          {"verdict", t.text.empty() ? json(nullptr) : json(t.text)}};
}

json runDiffToJson(const RunDiff& d) {
  json categories = json::object();
  for (const CategoryDelta& c : d.categories)
    categories[kCategoryKeys[static_cast<int>(c.category)]] = {
        {"base_ms", ms(c.base_ns)}, {"new_ms", ms(c.new_ns)}, {"delta_ms", ms(c.delta_ns())}};
  json ops = json::array(), device = json::array();
  for (const GroupDelta& g : d.ops) ops.push_back(groupJson(g, false));
  for (const GroupDelta& g : d.device_ops) device.push_back(groupJson(g, true));
  json metadata = json::array();
  for (const MetadataDelta& m : d.metadata)
    metadata.push_back({{"key", m.key},
                        {"base", m.base.empty() ? json(nullptr) : json(m.base)},
                        {"new", m.next.empty() ? json(nullptr) : json(m.next)},
                        {"differs", m.differs()}});
  return {{"schema", kDiffJsonSchema},
          {"base", {{"source", d.base_source}, {"steps", distributionJson(d.base_steps)}}},
          {"new", {{"source", d.new_source}, {"steps", distributionJson(d.new_steps)}}},
          {"step_delta_ms", ms(d.step_delta_ns)},
          {"step_change",
           changeTestToJson(d.step_test, d.new_steps.median_ns - d.base_steps.median_ns)},
          {"categories", categories},
          {"device_ops", device},
          {"cpu_ops", ops},
          {"matched_device_time_fraction", fraction(d.matched_device_fraction)},
          {"matched_cpu_time_fraction", fraction(d.matched_op_fraction)},
          {"findings", findingDeltasToJson(d.findings_compared, d.findings)},
          {"metadata", metadata},
          {"notes", d.notes}};
}

}  // namespace steplint::analyzer
