#include "steplint/analyzer/diagnostic.h"

namespace steplint::analyzer {

std::string_view severityName(Severity s) {
  switch (s) {
    case Severity::kNote:
      return "note";
    case Severity::kWarning:
      return "warning";
    case Severity::kError:
      return "error";
  }
  return "warning";
}

bool parseSeverity(std::string_view text, Severity& out) {
  if (text == "note")
    out = Severity::kNote;
  else if (text == "warning")
    out = Severity::kWarning;
  else if (text == "error")
    out = Severity::kError;
  else
    return false;
  return true;
}

std::string_view categoryName(Category c) {
  switch (c) {
    case Category::kTraceHealth:
      return "trace-health";
    case Category::kInputPipeline:
      return "input-pipeline";
    case Category::kTransfer:
      return "transfer";
    case Category::kGpuExecution:
      return "gpu-execution";
    case Category::kMemory:
      return "memory";
    case Category::kDistributed:
      return "distributed";
    case Category::kOptimizer:
      return "optimizer";
    case Category::kJob:
      return "job";
    case Category::kComparison:
      return "comparison";
    case Category::kPreview:
      return "preview";
  }
  return "?";
}

double Evidence::metric(std::string_view key, double fallback) const {
  for (const auto& [name, value] : metrics)
    if (name == key) return value;
  return fallback;
}

}  // namespace steplint::analyzer
