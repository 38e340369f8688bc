// `steplint summary --format json`; the schema is documented in docs/summary-json.md.
#include <algorithm>
#include <nlohmann/json.hpp>

#include "steplint/analyzer/summary.h"

namespace steplint::analyzer {
namespace {

using nlohmann::json;

constexpr const char* kSchema = "steplint.summary/1";

// Stable snake_case keys (display names such as "CPU Exec" are for humans).
constexpr const char* kCategoryKeys[kStepCategoryCount] = {
    "kernel", "memcpy", "memset", "communication", "runtime", "dataloader", "cpu_exec", "other"};

const char* stepSourceKey(StepSource source) {
  switch (source) {
    case StepSource::kProfilerStep:
      return "profiler_step";
    case StepSource::kWholeTrace:
      return "whole_trace";
    case StepSource::kDetected:
      return "detected";
    case StepSource::kNone:
      return "none";
  }
  return "none";
}

// -1 is the API's "unknown"; JSON says null.
json optionalNumber(double value) { return value < 0 ? json(nullptr) : json(value); }

json computeCapability(const trace::DeviceProperties& d) {
  if (d.compute_major < 0) return nullptr;
  return std::to_string(d.compute_major) + "." + std::to_string(std::max(d.compute_minor, 0));
}

// null for a CPU-only trace, else "CUDA", "ROCm", "XPU", "MTIA" ...
json acceleratorJson(trace::Accelerator accelerator) {
  return accelerator == trace::Accelerator::kNone
             ? json(nullptr)
             : json(std::string(trace::acceleratorName(accelerator)));
}

json traceJson(const TraceSummary& s, const trace::TraceModel& model) {
  const auto [lo, hi] = model.timeRange();
  json devices = json::array();
  for (const trace::DeviceProperties& d : model.metadata.devices)
    devices.push_back({{"id", d.id},
                       {"name", d.name},
                       {"total_global_mem", d.total_global_mem},
                       {"compute_capability", computeCapability(d)},
                       {"num_sms", d.num_sms}});
  json t = {{"format", model.metadata.format},
            {"schema_version", model.metadata.schema_version},
            {"events", s.event_count},
            {"tracks", s.track_count},
            {"start_ns", lo},
            {"end_ns", hi},
            {"duration_ns", hi - lo},
            {"base_time_ns",
             model.metadata.has_base_time ? json(model.metadata.base_time_ns) : json(nullptr)},
            {"accelerator", acceleratorJson(model.metadata.accelerator)},
            {"devices", devices}};
  const trace::DistributedInfo& dist = model.metadata.distributed;
  t["distributed"] =
      dist.present
          ? json{{"rank", dist.rank}, {"world_size", dist.world_size}, {"backend", dist.backend}}
          : json(nullptr);
  return t;
}

json stepsJson(const StepResult& st) {
  json items = json::array();
  for (const Step& s : st.steps)
    items.push_back({{"number", s.number},
                     {"start_ns", s.start_ns},
                     {"end_ns", s.end_ns},
                     {"duration_ns", s.duration_ns()},
                     {"host_start_ns", s.host_start_ns},
                     {"host_end_ns", s.host_end_ns},
                     {"device_op_count", s.device_op_count}});
  return {{"source", stepSourceKey(st.source)},
          {"count", st.steps.size()},
          {"dropped_tail_steps", st.dropped_tail_steps},
          {"dropped_warmup_steps", st.dropped_warmup_steps},
          {"notes", st.notes},
          {"items", items}};
}

json categoriesJson(const std::array<int64_t, kStepCategoryCount>& ns) {
  json out = json::object();
  for (int c = 0; c < kStepCategoryCount; ++c) out[kCategoryKeys[c]] = ns[c];
  return out;
}

json breakdownJson(const BreakdownResult& b) {
  if (b.per_step.empty()) return nullptr;
  json avg = json::object(), frac = json::object(), per_step = json::array();
  for (int c = 0; c < kStepCategoryCount; ++c) {
    avg[kCategoryKeys[c]] = b.average_ns[c];
    frac[kCategoryKeys[c]] = b.averageFraction(static_cast<StepCategory>(c));
  }
  for (const StepBreakdown& row : b.per_step)
    per_step.push_back(
        {{"step", row.step_number}, {"total_ns", row.total_ns}, {"ns", categoriesJson(row.ns)}});
  return {{"average_total_ns", b.average_total_ns},
          {"average_ns", avg},
          {"average_fraction", frac},
          {"per_step", per_step}};
}

template <size_t N>
json causesJson(const std::array<double, N>& ns, std::string_view (*name)(int)) {
  json out = json::object();
  for (size_t c = 0; c < N; ++c) out[std::string(name(static_cast<int>(c)))] = ns[c];
  return out;
}

std::string_view hostName(int c) { return hostCauseName(static_cast<HostCause>(c)); }
std::string_view deviceName(int c) { return deviceCauseName(static_cast<DeviceCause>(c)); }

json attributionJson(const AttributionResult& a) {
  if (a.per_step.empty()) return nullptr;
  json devices = json::array(), per_step = json::array();
  for (const auto& [device, ns] : a.average_device_ns)
    devices.push_back({{"device", device}, {"average_ns", causesJson(ns, deviceName)}});
  for (const StepAttribution& s : a.per_step) {
    std::array<double, kHostCauseCount> host{};
    for (int c = 0; c < kHostCauseCount; ++c) host[c] = static_cast<double>(s.host_ns[c]);
    json step_devices = json::array();
    for (const DeviceAttribution& d : s.devices) {
      std::array<double, kDeviceCauseCount> ns{};
      for (int c = 0; c < kDeviceCauseCount; ++c) ns[c] = static_cast<double>(d.ns[c]);
      step_devices.push_back({{"device", d.device}, {"ns", causesJson(ns, deviceName)}});
    }
    per_step.push_back({{"step", s.step_number},
                        {"total_ns", s.total_ns},
                        {"host_ns", causesJson(host, hostName)},
                        {"devices", step_devices}});
  }
  json out = {{"average_total_ns", a.average_total_ns},
              {"host_average_ns", causesJson(a.average_host_ns, hostName)},
              {"devices", devices},
              {"per_step", per_step}};
  if (a.dataloader_inferred)
    out["dataloader_inferred"] = true;  // the DataLoader cause is input_wait's
  return out;
}

// Only on traces without DataLoader ranges whose wait was inferred (docs/summary-json.md).
json inputWaitJson(const TraceSummary& s) {
  const InferredInputWait& w = s.input_wait;
  json per_step = json::array();
  for (size_t i = 0; i < w.per_step_ns.size() && i < s.steps.steps.size(); ++i)
    per_step.push_back({{"step", s.steps.steps[i].number},
                        {"ns", w.per_step_ns[i]},
                        {"worker_wait_ns", w.worker_wait_ns[i]}});
  return {{"inferred", true},
          {"method", w.method()},
          {"average_ns", w.average_ns},
          {"average_worker_wait_ns", w.average_worker_wait_ns},
          {"per_step", per_step}};
}

json optionalBytes(int64_t bytes) { return bytes >= 0 ? json(bytes) : json(nullptr); }

json gpusJson(const std::vector<GpuSummary>& gpus) {
  json out = json::array();
  for (const GpuSummary& g : gpus)
    out.push_back({{"device", g.device},
                   {"name", g.name},
                   {"window_ns", g.window_ns},
                   {"kernel_count", g.kernel_count},
                   {"kernel_busy_ns", g.kernel_busy_ns},
                   {"utilization", g.utilization},
                   {"sm_efficiency", optionalNumber(g.sm_efficiency)},
                   {"achieved_occupancy_pct", optionalNumber(g.achieved_occupancy)},
                   {"tensor_core_share", optionalNumber(g.tensor_core_share)},
                   {"peak_allocated_bytes", optionalBytes(g.peak_allocated_bytes)},
                   {"peak_reserved_bytes", optionalBytes(g.peak_reserved_bytes)},
                   {"memory_bytes", optionalBytes(g.memory_bytes)}});
  return out;
}

json streamsJson(const std::vector<StreamIdle>& idle) {
  json streams = json::array();
  for (const StreamIdle& i : idle)
    streams.push_back({{"device", i.device},
                       {"stream", i.stream},
                       {"span_ns", i.span_ns},
                       {"busy_ns", i.busy_ns},
                       {"idle_ns", i.idle_ns()},
                       {"host_wait_ns", i.host_wait_ns},
                       {"kernel_wait_ns", i.kernel_wait_ns},
                       {"other_ns", i.other_ns}});
  return streams;
}

json stepsWindowJson(const TraceSummary& s) {
  const bool steps = !s.steps.steps.empty();
  return {{"start_ns", s.steps_window.start},
          {"end_ns", s.steps_window.end},
          {"first_step", steps ? json(s.steps.steps.front().number) : json(nullptr)},
          {"last_step", steps ? json(s.steps.steps.back().number) : json(nullptr)},
          {"streams", streamsJson(s.idle_steps)}};
}

json htaWindowJson(const TraceSummary& s) {
  const HtaWindow& w = s.hta;
  return {{"last_step_dropped", w.filtered},
          {"last_step", w.filtered ? json(w.last_step) : json(nullptr)},
          {"cutoff_ns", w.filtered ? json(w.cutoff_ns) : json(nullptr)},
          {"profiler_step_names", w.distinct_steps},
          {"streams", streamsJson(s.idle_hta)}};
}

// `streams` keeps its v1 meaning (the whole trace); the two windows are additions.
json idleJson(const TraceSummary& s) {
  return {{"kernel_wait_threshold_ns", s.idle_options.kernel_wait_threshold_ns},
          {"streams", streamsJson(s.idle)},
          {"steps_window", stepsWindowJson(s)},
          {"hta_window", htaWindowJson(s)}};
}

json temporalJson(const TraceSummary& s) {
  json gpus = json::array();
  for (const TemporalBreakdown& g : s.temporal)
    gpus.push_back({{"device", g.device},
                    {"kernel_time_ns", g.kernel_time_ns},
                    {"idle_ns", g.idle_ns},
                    {"compute_ns", g.compute_ns},
                    {"non_compute_ns", g.non_compute_ns},
                    {"idle_pct", 100 * g.fraction(g.idle_ns)},
                    {"compute_pct", 100 * g.fraction(g.compute_ns)},
                    {"non_compute_pct", 100 * g.fraction(g.non_compute_ns)}});
  return {{"window", "hta_window"}, {"gpus", gpus}};
}

json kernelsJson(const std::vector<KernelStat>& kernels) {
  json out = json::array();
  for (const KernelStat& k : kernels)
    out.push_back({{"name", k.name},
                   {"count", k.count},
                   {"total_ns", k.total_ns},
                   {"min_ns", k.min_ns},
                   {"max_ns", k.max_ns},
                   {"mean_ns", k.mean_ns()},
                   {"tensor_core", k.tensor_core}});
  return out;
}

json importStatsJson(const trace::TraceModel& model) {
  json out = json::array();
  for (size_t i = 0; i < trace::kStatCount; ++i) {
    const auto stat = static_cast<trace::Stat>(i);
    if (model.stats.get(stat) == 0) continue;
    const trace::StatInfo& info = trace::statInfo(stat);
    out.push_back({{"name", info.name},
                   {"severity", trace::statSeverityName(info.severity)},
                   {"count", model.stats.get(stat)},
                   {"description", info.description}});
    // The collector's own words on why it stopped (docs/collector.md); the count alone is 1.
    if (stat == trace::Stat::recorder_stopped_early)
      out.back()["reason"] = model.metadata.stopped_early_reason;
  }
  return out;
}

json profilerJson(const StepProfilerCost& cost) {
  json records = json::array();
  for (const OverheadRecordKind& k : cost.cupti_records)
    records.push_back({{"name", k.name},
                       {"cupti_own", isCuptiOwnOverhead(k.name)},
                       {"count", k.count},
                       {"total_ns", k.total_ns},
                       {"in_steps_ns", k.in_steps_ns}});
  return {{"ns_per_event", cost.overhead.per_event_ns},
          {"ns_per_python_frame", cost.overhead.per_python_frame_ns},
          {"events_per_step", cost.events_per_step},
          {"python_frames_per_step", cost.python_frames_per_step},
          {"ms_per_step", cost.nsPerStep() / 1e6},
          {"source", cost.overhead.source},
          {"cupti_overhead_records", records}};
}

}  // namespace

nlohmann::json summaryToJson(const TraceSummary& summary, const trace::TraceModel& model) {
  json out = {{"schema", kSchema},
              {"source", summary.source},
              {"trace", traceJson(summary, model)},
              {"steps", stepsJson(summary.steps)},
              {"breakdown", breakdownJson(summary.breakdown)},
              {"attribution", attributionJson(summary.attribution)},
              {"profiler_overhead", profilerJson(summary.profiler)},
              {"gpus", gpusJson(summary.gpus)},
              {"idle", idleJson(summary)},
              {"temporal_breakdown", temporalJson(summary)},
              {"top_kernels", kernelsJson(summary.top_kernels)},
              {"notes", summary.notes},
              {"import_stats", importStatsJson(model)}};
  if (summary.input_wait.inferred) out["input_wait"] = inputWaitJson(summary);
  return out;
}

}  // namespace steplint::analyzer
