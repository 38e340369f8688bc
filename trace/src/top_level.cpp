#include "top_level.h"

#include <charconv>
#include <cmath>
#include <limits>

#include <simdjson.h>

#include "json_repair.h"

namespace steplint::trace {
namespace {

constexpr size_t kMaxExtraText = 4096;

constexpr int64_t kInt32Max = std::numeric_limits<int32_t>::max();
constexpr int64_t kInt64Max = std::numeric_limits<int64_t>::max();

// A double within [lo, hi] once truncated; NaN, infinities and 849293475E72 are not (casting
// them to an integer is undefined behaviour, and in practice stores -2^63).
bool doubleInRange(double d, int64_t lo, int64_t hi) {
  // hi + 1 as a double is exact for the bounds used here (2^31, and 2^63 for INT64_MAX, where
  // the +1 is absorbed by rounding to the same power of two).
  return std::isfinite(d) && d > static_cast<double>(lo) - 1.0 && d < static_cast<double>(hi) + 1.0;
}

// The integer in obj[key], read as a number or a numeric string. Missing or non-numeric
// values give `fallback` as before; numbers outside [lo, hi] give it too, and are counted
// (top_level_number_out_of_range) instead of being stored as a wrapped or saturated value.
int64_t intField(simdjson::dom::object obj, std::string_view key, int64_t lo, int64_t hi,
                 TraceModel& model, int64_t fallback = -1) {
  simdjson::dom::element e;
  if (obj[key].get(e)) return fallback;
  const auto inRange = [&](bool ok, int64_t value) {
    if (ok && value >= lo && value <= hi) return value;
    model.stats.add(Stat::top_level_number_out_of_range);
    return fallback;
  };
  int64_t i;
  if (!e.get_int64().get(i)) return inRange(true, i);
  uint64_t u;
  if (!e.get_uint64().get(u)) return inRange(false, 0);  // above INT64_MAX
  double d;
  if (!e.get_double().get(d)) {
    const bool ok = doubleInRange(d, lo, hi);
    return inRange(ok, ok ? static_cast<int64_t>(d) : 0);
  }
  std::string_view s;
  if (!e.get_string().get(s)) {
    const auto [end, error] = std::from_chars(s.data(), s.data() + s.size(), i);
    if (end != s.data() + s.size() || s.empty()) return fallback;  // not a number: as if missing
    return inRange(error == std::errc(), i);
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
    const auto count = [&](std::string_view key) {
      return static_cast<int32_t>(intField(o, key, 0, kInt32Max, model));
    };
    const auto bytes = [&](std::string_view key) { return intField(o, key, 0, kInt64Max, model); };
    DeviceProperties d;
    d.id = static_cast<int32_t>(intField(o, "id", 0, kInt32Max, model,
                                         static_cast<int64_t>(model.metadata.devices.size())));
    d.name = stringField(o, "name");
    d.total_global_mem = bytes("totalGlobalMem");
    d.compute_major = count("computeMajor");
    d.compute_minor = count("computeMinor");
    d.num_sms = count("numSms");
    d.max_threads_per_block = count("maxThreadsPerBlock");
    d.max_threads_per_sm = count("maxThreadsPerMultiprocessor");
    d.regs_per_block = count("regsPerBlock");
    d.regs_per_sm = count("regsPerMultiprocessor");
    d.warp_size = count("warpSize");
    d.shared_mem_per_block = bytes("sharedMemPerBlock");
    d.shared_mem_per_sm = bytes("sharedMemPerMultiprocessor");
    model.metadata.devices.push_back(std::move(d));
  }
}

void readDistributed(simdjson::dom::element root, const std::string& text, TraceModel& model) {
  DistributedInfo& info = model.metadata.distributed;
  info.present = true;
  info.raw_json = text.size() <= kMaxExtraText ? text : text.substr(0, kMaxExtraText);
  simdjson::dom::object o;
  if (root.get_object().get(o)) return;
  info.rank = intField(o, "rank", 0, kInt32Max, model);
  info.world_size = intField(o, "world_size", 0, kInt32Max, model);
  info.backend = stringField(o, "backend");
}

// Unix time in ns of the trace's ts zero. Anything but an integer in [0, INT64_MAX] (1.8e22,
// a negative value, "NaN", a string) cannot be that, so it is ignored and counted rather
// than silently dropped or converted.
void readBaseTime(bool parsed, simdjson::dom::element root, TraceModel& model) {
  int64_t i;
  double d;
  if (parsed && !root.get_int64().get(i) && i >= 0) {
    model.metadata.base_time_ns = i;
  } else if (parsed && root.is_double() && !root.get_double().get(d) &&
             doubleInRange(d, 0, kInt64Max)) {
    model.metadata.base_time_ns = static_cast<int64_t>(d);
  } else {
    model.stats.add(Stat::base_time_invalid);
    return;
  }
  model.metadata.has_base_time = true;
}

}  // namespace

bool isKnownTopLevelKey(std::string_view key) {
  return key == "schemaVersion" || key == "deviceProperties" || key == "distributedInfo" ||
         key == "baseTimeNanoseconds" || key == "displayTimeUnit" || key == "traceName" ||
         key == "traceEvents";
}

void applyTopLevel(const std::string& key, const std::string& text, TraceModel& model) {
  TraceMetadata& meta = model.metadata;
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  bool parsed = !parser.parse(simdjson::padded_string(text)).get(root);
  std::string repaired;  // an invalid byte or escape in a GPU's name must not lose the GPU
  if (!parsed && repairJson(text, repaired, model.stats))
    parsed = !parser.parse(simdjson::padded_string(repaired)).get(root);
  std::string_view s;
  if (key == "schemaVersion") {
    int64_t version;
    if (parsed && !root.get_int64().get(version)) meta.schema_version = version;
  } else if (key == "baseTimeNanoseconds") {
    readBaseTime(parsed, root, model);
  } else if (key == "displayTimeUnit") {
    if (parsed && !root.get_string().get(s)) meta.display_time_unit = std::string(s);
  } else if (key == "traceName") {
    if (parsed && !root.get_string().get(s)) meta.trace_name = std::string(s);
  } else if (key == "deviceProperties") {
    if (parsed)
      readDevices(root, model);
    else
      model.stats.add(Stat::device_properties_bad);
  } else if (key == "distributedInfo") {
    if (parsed) readDistributed(root, text, model);
  } else {
    meta.extra.emplace_back(
        key, text.size() <= kMaxExtraText ? text : text.substr(0, kMaxExtraText) + "...");
  }
}

}  // namespace steplint::trace
