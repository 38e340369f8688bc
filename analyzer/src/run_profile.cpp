// profileRun: one trace's part of a run comparison (run_diff.h), computed once from its model
// and the analyses `summarize` and `runLint` already made.
#include <algorithm>
#include <map>
#include <string>
#include <tuple>
#include <unordered_map>

#include <nlohmann/json.hpp>

#include "steplint/analyzer/json_text.h"
#include "steplint/analyzer/run_diff.h"

namespace steplint::analyzer {
namespace {

using trace::Event;
using trace::EventKind;

/// Whether `t` lies in one of the (sorted, disjoint) steps, with the steps' bounds chosen by
/// `bounds`. Binary search: a trace has millions of events and thousands of steps.
template <typename Bounds>
bool inSteps(const std::vector<Step>& steps, int64_t t, Bounds bounds) {
  auto it = std::upper_bound(steps.begin(), steps.end(), t,
                             [&](int64_t v, const Step& s) { return v < bounds(s).first; });
  if (it == steps.begin()) return false;
  --it;
  const auto [start, end] = bounds(*it);
  return t >= start && t < end;
}

bool isProfilerStepName(std::string_view name) { return name.rfind("ProfilerStep#", 0) == 0; }

// Interned ids make (name, shapes, stream) an exact grouping key without string hashing.
struct GroupKey {
  trace::StringId name;
  trace::StringId shapes;
  int32_t stream;
  bool operator<(const GroupKey& o) const {
    return std::tie(name, shapes, stream) < std::tie(o.name, o.shapes, o.stream);
  }
};

void collectGroups(const trace::TraceModel& model, const StepResult& steps, RunProfile& out) {
  const bool whole = steps.steps.empty();
  std::map<GroupKey, WorkGroup> ops, device;
  for (const Event& e : model.events) {
    const bool cpu = e.kind == EventKind::kCpuOp || e.kind == EventKind::kUserAnnotation;
    if (!cpu && !trace::isDeviceOp(e.kind)) continue;
    if (cpu && isProfilerStepName(model.name(e))) continue;  // the steps themselves
    if (!whole) {
      const bool inside =
          cpu ? inSteps(steps.steps, e.start_ns,
                        [](const Step& s) { return std::pair(s.host_start_ns, s.host_end_ns); })
              : inSteps(steps.steps, e.start_ns,
                        [](const Step& s) { return std::pair(s.start_ns, s.end_ns); });
      if (!inside) continue;
    }
    GroupKey key{e.name, 0, -1};
    if (cpu) {
      if (const trace::OpDetail* d = model.op(e)) key.shapes = d->input_dims;
    } else if (const trace::GpuDetail* g = model.gpu(e)) {
      key.stream = g->stream;
    }
    auto& groups = cpu ? ops : device;
    auto [it, inserted] = groups.try_emplace(key);
    WorkGroup& g = it->second;
    if (inserted) {
      g.name = std::string(model.name(e));
      g.shapes = std::string(model.str(key.shapes));
      g.stream = key.stream;
      g.kind = e.kind;
    }
    ++g.count;
    g.total_ns += e.dur_ns;
  }
  for (auto& [key, g] : ops) out.ops.push_back(std::move(g));
  for (auto& [key, g] : device) out.device_ops.push_back(std::move(g));
}

// The rule's own per-step figure ("syncs_per_step", "gpu_ms_per_step") or share is what a
// user means by "worse"; the replayed saving is the fallback because it depends on the other
// findings (a GPU speed-up saves nothing while the DataLoader blocks every step). Other
// metrics ("device", "threshold") are not sizes.
const std::pair<std::string, double>* sizeMetric(const Evidence& evidence) {
  if (!evidence.size_metric.empty())
    for (const auto& metric : evidence.metrics)
      if (metric.first == evidence.size_metric) return &metric;
  for (std::string_view marker : {"per_step", "share", "fraction"})
    for (const auto& metric : evidence.metrics)
      if (metric.first.find(marker) != std::string::npos) return &metric;
  return nullptr;
}

void collectFindings(const LintResult& lint, RunProfile& out) {
  out.findings = findingSizes(lint.diagnostics);
  out.linted = true;
}

// Which DataLoader iterator ran: the worker setting users change most, and the one Kineto
// does not record (the iterator's class says whether workers were used, not how many).
std::string dataLoaderKind(const RunProfile& profile) {
  bool single = false, multi = false;
  for (const WorkGroup& g : profile.ops) {
    if (!isDataLoaderName(g.name)) continue;
    single |= g.name.find("_SingleProcessDataLoaderIter") != std::string::npos;
    multi |= g.name.find("_MultiProcessingDataLoaderIter") != std::string::npos;
  }
  if (single && multi) return "single-process and worker processes";
  if (single) return "single-process (num_workers=0)";
  if (multi) return "worker processes (num_workers>0)";
  return "";
}

void collectMetadata(const trace::TraceModel& model, RunProfile& out) {
  const trace::TraceMetadata& m = model.metadata;
  std::map<std::string, std::string> facts;
  if (m.accelerator != trace::Accelerator::kNone)
    facts["accelerator"] = std::string(trace::acceleratorName(m.accelerator));
  std::string devices;
  for (const trace::DeviceProperties& d : m.devices) {
    if (d.name.empty()) continue;
    if (devices.find(d.name) != std::string::npos) continue;  // "V100 x4" reads as one device kind
    devices += (devices.empty() ? "" : ", ") + d.name;
  }
  if (!devices.empty()) facts["devices"] = devices;
  if (m.distributed.present) {
    if (m.distributed.world_size >= 0)
      facts["world_size"] = std::to_string(m.distributed.world_size);
    if (!m.distributed.backend.empty()) facts["distributed_backend"] = m.distributed.backend;
  }
  if (std::string loader = dataLoaderKind(out); !loader.empty()) facts["dataloader"] = loader;
  // Top-level keys identify the recording, not the run: they differ between any two traces.
  static const char* const kIdentity[] = {"trace_id", "traceName", "baseTimeNanoseconds",
                                          "steplint_stopped_early"};
  for (const auto& [key, raw] : m.extra) {
    if (std::find(std::begin(kIdentity), std::end(kIdentity), key) != std::end(kIdentity)) continue;
    // As written, the same object re-indented or minified (json.dump of the trace) "differed".
    std::string value = raw;
    if (const auto j = nlohmann::json::parse(raw, nullptr, false); !j.is_discarded())
      value = j.is_string() ? j.get<std::string>() : jsonText(j, -1);
    if (value.size() > 200) continue;  // objects and long lists: not a fact to print on one line
    facts.emplace(key, value);
  }
  if (m.schema_version >= 0) facts["schemaVersion"] = std::to_string(m.schema_version);
  out.metadata.assign(facts.begin(), facts.end());
}

}  // namespace

std::string_view deviceFingerprintCode(std::string_view fingerprint) {
  const size_t colon = fingerprint.find(':');
  if (colon == std::string_view::npos) return {};
  const std::string_view key = fingerprint.substr(colon + 1);
  if (key.size() < 4 || key.substr(0, 3) != "gpu") return {};
  for (const char c : key.substr(3))
    if (c < '0' || c > '9') return {};
  return fingerprint.substr(0, colon);
}

std::vector<FindingSize> findingSizes(const std::vector<Diagnostic>& diagnostics) {
  std::map<std::string, FindingSize> by_fingerprint;  // a rule may report a key twice
  for (const Diagnostic& d : diagnostics) {
    FindingSize f = findingSize(d);
    auto [it, inserted] = by_fingerprint.try_emplace(f.fingerprint, f);
    if (!inserted && f.unit == it->second.unit && f.magnitude > it->second.magnitude)
      it->second = f;
  }
  std::vector<FindingSize> out;
  for (auto& [key, f] : by_fingerprint) out.push_back(std::move(f));
  return out;
}

FindingSize findingSize(const Diagnostic& d) {
  FindingSize f{d.fingerprint(), d.code, d.name, d.message, -1, ""};
  if (const auto* metric = sizeMetric(d.evidence)) {
    f.magnitude = metric->second;
    f.unit = metric->first;
  } else if (d.saving.alone_ms >= 0) {  // alone: a share of "fix everything" moves with the others
    f.magnitude = d.saving.alone_ms;
    f.unit = "saving_ms_per_step";
  } else if (d.saving.known()) {
    f.magnitude = d.saving.per_step_ms;
    f.unit = "saving_ms_per_step";
  }
  return f;
}

RunProfile profileRun(const trace::TraceModel& model, const TraceSummary& summary,
                      const LintResult* lint) {
  RunProfile out;
  out.source = summary.source;
  out.step_source = summary.steps.source;
  for (const StepBreakdown& s : summary.breakdown.per_step) {
    out.step_ns.push_back(s.total_ns);
    out.step_category_ns.push_back(s.ns);
  }
  out.average_step_ns = summary.breakdown.average_total_ns;
  out.category_ns = summary.breakdown.average_ns;
  collectGroups(model, summary.steps, out);
  if (lint) collectFindings(*lint, out);
  collectMetadata(model, out);
  return out;
}

}  // namespace steplint::analyzer
