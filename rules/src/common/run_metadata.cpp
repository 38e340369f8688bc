#include "common/run_metadata.h"

#include <charconv>
#include <limits>

#include "steplint/trace/recorded_names.h"

namespace steplint::rules::common {

namespace {

std::string_view unquoted(std::string_view raw) {
  while (!raw.empty() && (raw.front() == ' ' || raw.front() == '"')) raw.remove_prefix(1);
  while (!raw.empty() && (raw.back() == ' ' || raw.back() == '"')) raw.remove_suffix(1);
  return raw;
}

std::optional<int64_t> parseInteger(std::string_view raw) {
  raw = unquoted(raw);
  int64_t value = 0;
  const auto [end, ec] = std::from_chars(raw.data(), raw.data() + raw.size(), value);
  if (ec != std::errc() || end != raw.data() + raw.size()) return std::nullopt;
  return value;
}

}  // namespace

std::optional<std::string_view> metadataRaw(const trace::TraceMetadata& meta,
                                            std::initializer_list<std::string_view> keys) {
  for (const std::string_view key : keys)
    for (const auto& [k, raw] : meta.extra)
      if (k == key) return std::string_view(raw);
  return std::nullopt;
}

std::optional<int64_t> metadataInteger(const trace::TraceMetadata& meta,
                                       std::initializer_list<std::string_view> keys) {
  const std::optional<std::string_view> raw = metadataRaw(meta, keys);
  return raw ? parseInteger(*raw) : std::nullopt;
}

AutocastSetting autocastSetting(const trace::TraceMetadata& meta) {
  AutocastSetting out;
  const std::optional<std::string_view> enabled = metadataRaw(meta, {"autocast_enabled"});
  if (!enabled) return out;
  const std::string_view value = unquoted(*enabled);
  out.known = value == "true" || value == "false" || value == "True" || value == "False";
  out.enabled = value == "true" || value == "True";
  if (const std::optional<std::string_view> dtype = metadataRaw(meta, {"autocast_dtype"}))
    out.dtype = std::string(unquoted(*dtype));
  return out;
}

std::string legacyExportLacks(const trace::TraceMetadata& meta, std::string_view what,
                              std::string_view flag, std::string_view instead) {
  if (!meta.legacy_profiler_export) return {};
  return "the trace is the legacy profiler's export (torch without Kineto, or use_kineto=False), "
         "whose format carries no " +
         std::string(what) + " whatever " + std::string(flag) + " says: record with " +
         std::string(instead) + ", or torch.profiler on a torch built with Kineto";
}

int64_t hostCpuCores(const trace::TraceMetadata& meta, int64_t option) {
  return option > 0 ? option : metadataInteger(meta, {trace::kCpuCoresKey}).value_or(0);
}

int64_t processesWantingCores(int64_t workers, int64_t processes) {
  int64_t wanted = 0;
  if (__builtin_add_overflow(workers, 1, &wanted) ||
      __builtin_mul_overflow(wanted, processes, &wanted))
    return std::numeric_limits<int64_t>::max();
  return wanted;
}

}  // namespace steplint::rules::common
