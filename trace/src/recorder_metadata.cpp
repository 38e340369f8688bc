#include "recorder_metadata.h"

#include <charconv>
#include <optional>

#include <simdjson.h>

#include "steplint/trace/recorded_names.h"

namespace steplint::trace {
namespace {

// The reason is shown on one line in summaries and SL001 messages; the collector writes one
// short sentence, so anything longer is not worth a wall of text.
constexpr size_t kMaxReasonBytes = 300;

std::string_view trimJsonSpace(std::string_view text) {
  const auto space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
  while (!text.empty() && space(text.front())) text.remove_prefix(1);
  while (!text.empty() && space(text.back())) text.remove_suffix(1);
  return text;
}

// Only a plain JSON integer is a count: "-1", "1e3", "12.5", "\"7\"" and values past uint64
// say the writer is not steplint's collector (or the file was edited), so none is trusted.
std::optional<uint64_t> parseCount(std::string_view raw) {
  const std::string_view text = trimJsonSpace(raw);
  if (text.empty()) return std::nullopt;
  for (char c : text)
    if (c < '0' || c > '9') return std::nullopt;
  uint64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

// A JSON string as one line of at most kMaxReasonBytes (control characters become spaces).
std::optional<std::string> parseOneLine(const std::string& raw) {
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  std::string_view s;
  if (parser.parse(simdjson::padded_string(raw)).get(root) || root.get_string().get(s))
    return std::nullopt;
  std::string reason;
  for (char c : s) {
    if (reason.size() >= kMaxReasonBytes) {
      while (!reason.empty() && (static_cast<unsigned char>(reason.back()) & 0xC0) == 0x80)
        reason.pop_back();
      if (!reason.empty() && static_cast<unsigned char>(reason.back()) >= 0xC0)
        reason.pop_back();  // lead byte
      reason += "...";
      break;
    }
    const auto u = static_cast<unsigned char>(c);
    reason.push_back(u < 0x20 || u == 0x7F ? ' ' : c);  // keep it one line
  }
  return reason;
}

// The last occurrence wins, as in a JSON object read into a map.
const std::string* lastValue(const TraceMetadata& meta, std::string_view key) {
  for (auto it = meta.extra.rbegin(); it != meta.extra.rend(); ++it)
    if (it->first == key) return &it->second;
  return nullptr;
}

void applyCount(TraceModel& model, std::string_view key, Stat stat) {
  const std::string* raw = lastValue(model.metadata, key);
  if (raw == nullptr) return;
  if (const std::optional<uint64_t> count = parseCount(*raw))
    model.stats.add(stat, *count);
  else
    model.stats.add(Stat::recorder_metadata_bad);
}

/// distributedInfo.backend from the import hook's key when the header had none (recorded_names.h).
void applyDistributedBackend(TraceModel& model) {
  DistributedInfo& info = model.metadata.distributed;
  const std::string* raw = lastValue(model.metadata, kDistributedBackendKey);
  if (raw == nullptr || !info.backend.empty()) return;
  if (std::optional<std::string> backend = parseOneLine(*raw)) info.backend = std::move(*backend);
}

}  // namespace

void applyRecorderMetadata(TraceModel& model) {
  applyDistributedBackend(model);
  applyCount(model, kDroppedEventsKey, Stat::recorder_dropped_events);
  applyCount(model, kDroppedActivityRecordsKey, Stat::recorder_dropped_gpu_records);
  const std::string* raw = lastValue(model.metadata, kStoppedEarlyKey);
  if (raw == nullptr) return;
  if (std::optional<std::string> reason = parseOneLine(*raw)) {
    model.stats.add(Stat::recorder_stopped_early);
    model.metadata.stopped_early_reason = std::move(*reason);
  } else {
    model.stats.add(Stat::recorder_metadata_bad);
  }
}

}  // namespace steplint::trace
