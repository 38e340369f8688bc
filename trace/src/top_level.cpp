#include "top_level.h"

#include <simdjson.h>

namespace steplint::trace {
namespace {

constexpr size_t kMaxExtraText = 4096;

int64_t intField(simdjson::dom::object obj, std::string_view key, int64_t fallback = -1) {
  simdjson::dom::element e;
  if (obj[key].get(e)) return fallback;
  int64_t i;
  if (!e.get_int64().get(i)) return i;
  uint64_t u;
  if (!e.get_uint64().get(u)) return static_cast<int64_t>(u > INT64_MAX ? INT64_MAX : u);
  double d;
  if (!e.get_double().get(d)) return static_cast<int64_t>(d);
  std::string_view s;
  if (!e.get_string().get(s)) {
    try {
      return std::stoll(std::string(s));
    } catch (...) {
    }
  }
  return fallback;
}

std::string stringField(simdjson::dom::object obj, std::string_view key) {
  std::string_view s;
  return obj[key].get_string().get(s) ? std::string() : std::string(s);
}

void readDevices(simdjson::dom::element root, TraceModel& model) {
  simdjson::dom::array arr;
  if (root.get_array().get(arr)) {
    model.stats.add(Stat::device_properties_bad);
    return;
  }
  for (auto item : arr) {
    simdjson::dom::object o;
    if (item.get_object().get(o)) {
      model.stats.add(Stat::device_properties_bad);
      continue;
    }
    DeviceProperties d;
    d.id = static_cast<int32_t>(intField(o, "id", static_cast<int64_t>(model.metadata.devices.size())));
    d.name = stringField(o, "name");
    d.total_global_mem = intField(o, "totalGlobalMem");
    d.compute_major = static_cast<int32_t>(intField(o, "computeMajor"));
    d.compute_minor = static_cast<int32_t>(intField(o, "computeMinor"));
    d.num_sms = static_cast<int32_t>(intField(o, "numSms"));
    d.max_threads_per_block = static_cast<int32_t>(intField(o, "maxThreadsPerBlock"));
    d.max_threads_per_sm = static_cast<int32_t>(intField(o, "maxThreadsPerMultiprocessor"));
    d.regs_per_block = static_cast<int32_t>(intField(o, "regsPerBlock"));
    d.regs_per_sm = static_cast<int32_t>(intField(o, "regsPerMultiprocessor"));
    d.warp_size = static_cast<int32_t>(intField(o, "warpSize"));
    d.shared_mem_per_block = intField(o, "sharedMemPerBlock");
    d.shared_mem_per_sm = intField(o, "sharedMemPerMultiprocessor");
    model.metadata.devices.push_back(std::move(d));
  }
}

void readDistributed(simdjson::dom::element root, const std::string& text, TraceModel& model) {
  DistributedInfo& info = model.metadata.distributed;
  info.present = true;
  info.raw_json = text.size() <= kMaxExtraText ? text : text.substr(0, kMaxExtraText);
  simdjson::dom::object o;
  if (root.get_object().get(o)) return;
  info.rank = intField(o, "rank");
  info.world_size = intField(o, "world_size");
  info.backend = stringField(o, "backend");
}

}  // namespace

bool isKnownTopLevelKey(std::string_view key) {
  return key == "schemaVersion" || key == "deviceProperties" || key == "distributedInfo" ||
         key == "baseTimeNanoseconds" || key == "displayTimeUnit" || key == "traceName" || key == "traceEvents";
}

void applyTopLevel(const std::string& key, const std::string& text, TraceModel& model) {
  TraceMetadata& meta = model.metadata;
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  const bool parsed = !parser.parse(simdjson::padded_string(text)).get(root);
  const auto asInt = [&](int64_t& out) {
    int64_t i;
    if (parsed && !root.get_int64().get(i)) out = i;
    return parsed && !root.get_int64().get(i);
  };
  std::string_view s;
  if (key == "schemaVersion") {
    asInt(meta.schema_version);
  } else if (key == "baseTimeNanoseconds") {
    meta.has_base_time = asInt(meta.base_time_ns);
  } else if (key == "displayTimeUnit") {
    if (parsed && !root.get_string().get(s)) meta.display_time_unit = std::string(s);
  } else if (key == "traceName") {
    if (parsed && !root.get_string().get(s)) meta.trace_name = std::string(s);
  } else if (key == "deviceProperties") {
    if (parsed) readDevices(root, model);
    else model.stats.add(Stat::device_properties_bad);
  } else if (key == "distributedInfo") {
    if (parsed) readDistributed(root, text, model);
  } else {
    meta.extra.emplace_back(key, text.size() <= kMaxExtraText ? text : text.substr(0, kMaxExtraText) + "...");
  }
}

}  // namespace steplint::trace
