#include "steplint/trace/import_stats.h"

namespace steplint::trace {
namespace {
constexpr StatInfo kStatInfos[] = {
#define SL_STAT_INFO(name, severity, description) {#name, StatSeverity::severity, description},
    STEPLINT_IMPORT_STATS(SL_STAT_INFO)
#undef SL_STAT_INFO
};
static_assert(sizeof(kStatInfos) / sizeof(kStatInfos[0]) == kStatCount);
}  // namespace

const StatInfo& statInfo(Stat stat) { return kStatInfos[static_cast<size_t>(stat)]; }

std::string_view statSeverityName(StatSeverity severity) {
  switch (severity) {
    case StatSeverity::kInfo:
      return "info";
    case StatSeverity::kError:
      return "error";
    case StatSeverity::kDataLoss:
      return "data-loss";
  }
  return "?";
}

bool ImportStats::hasDataLoss() const { return total(StatSeverity::kDataLoss) > 0; }

uint64_t ImportStats::total(StatSeverity severity) const {
  uint64_t sum = 0;
  for (size_t i = 0; i < kStatCount; ++i)
    if (kStatInfos[i].severity == severity) sum += counts_[i];
  return sum;
}

std::vector<std::string> importStatLines(const ImportStats& stats) {
  std::vector<std::string> lines;
  for (StatSeverity severity : {StatSeverity::kDataLoss, StatSeverity::kError}) {
    for (size_t i = 0; i < kStatCount; ++i) {
      const auto stat = static_cast<Stat>(i);
      const StatInfo& info = statInfo(stat);
      const uint64_t count = stats.get(stat);
      if (info.severity != severity || count == 0) continue;
      std::string line = std::to_string(count) + " x ";
      line.append(info.name).append(" [").append(statSeverityName(info.severity)).append("]: ");
      line.append(info.description);
      lines.push_back(std::move(line));
    }
  }
  return lines;
}

}  // namespace steplint::trace
