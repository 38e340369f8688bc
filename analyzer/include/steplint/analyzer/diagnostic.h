// One finding of a rule, and the few types around it. Every output format (text, JSON, SARIF,
// JUnit, GitHub annotations, Markdown) and the GUI render this one type.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace steplint::analyzer {

enum class Severity : uint8_t { kNote, kWarning, kError };
std::string_view severityName(Severity s);  // "note" | "warning" | "error"
bool parseSeverity(std::string_view text, Severity& out);

/// Rule categories: the hundreds block of the code (docs/reference/style.md §2.4).
enum class Category : uint8_t {
  kTraceHealth,    // SL0xx
  kInputPipeline,  // SL1xx
  kTransfer,       // SL2xx: host-device transfers and synchronisation
  kGpuExecution,   // SL3xx
  kMemory,         // SL4xx
  kDistributed,    // SL5xx
  kOptimizer,      // SL6xx: optimizer, gradients, tensor creation
  kJob,            // SL7xx: the whole job across its ranks (job_rule.h)
  kComparison,     // SL8xx: against a base run (regression.h)
  kPreview,        // SL9xx: noisy or experimental, off by default
};
std::string_view categoryName(Category c);

struct TimeRange {
  int64_t start_ns = 0;
  int64_t end_ns = 0;
};

/// Where in the trace a finding comes from; the GUI zooms to `ranges` and highlights `events`.
struct Evidence {
  std::vector<int64_t> steps;     // ProfilerStep numbers
  std::vector<TimeRange> ranges;  // trace clock, ns
  std::vector<uint32_t> events;   // indices into TraceModel::events (capped)
  std::vector<std::pair<std::string, double>>
      metrics;  // measured figures, e.g. {"wait_fraction", 0.334}
  /// The metric that says how large the finding is, for `diff` and baselines ("worse" when it
  /// grows), where the first per-step or share metric is not it (run_profile.cpp sizeMetric).
  std::string size_metric;
  double metric(std::string_view key, double fallback = 0) const;
};

struct FixEffect;  // fix_effect.h

/// What fixing the finding would save, always an estimate, with how it was estimated. For a
/// finding with a FixEffect the step replay fills it (docs/savings.md): `per_step_ms` is the
/// finding's own share of fixing every finding of the trace, so the shares never count a
/// millisecond twice and add up to LintResult::saving_all.
struct SavingEstimate {
  double per_step_ms = -1;       // < 0: unknown
  double fraction_of_step = -1;  // per_step_ms / average step time
  std::string method;            // one sentence: "DataLoader wait not hidden by GPU work"
  double low_ms = -1;            // the share's low end where the trace cannot decide (< 0: none)
  double alone_ms = -1;  // if this were the only fix; overlaps other findings' (< 0: not computed)
  bool known() const { return per_step_ms >= 0; }
};

struct Diagnostic {
  std::string code;  // "SL101"
  std::string name;  // "dataloader-wait"
  Severity severity = Severity::kWarning;
  std::string message;  // one line with the figure that matters
  Evidence evidence;
  SavingEstimate saving;
  /// What fixing it changes in the trace; the step replay turns it into `saving` (null: the
  /// rule gives no time saving, and `saving.method` says why).
  std::shared_ptr<const FixEffect> effect;
  std::vector<std::string> fix;  // short fix hints; the rule's doc page has the rest
  /// Step-independent identity for baselines: code + a rule-chosen key (e.g. the kernel name).
  std::string fingerprint_key;
  std::string fingerprint() const { return code + ":" + fingerprint_key; }
};

/// A rule that was selected but could not decide (no GPU activity, no steps, no shapes...).
struct NotChecked {
  std::string code;
  std::string name;
  std::string reason;
};

}  // namespace steplint::analyzer
