// Comparing two runs of a trainer (`steplint diff BASE NEW`, docs/analyses.md §"Comparing
// runs"). Each trace is analysed once into a RunProfile (profileRun: its steps, breakdown,
// per-step op and device-op groups, findings, metadata); diffRuns compares two profiles, so
// nothing reads raw events twice and a profile can be kept (the GUI, a job of many ranks).
//
// Matching follows HTA's TraceDiff (name, count, total; added / deleted / increased /
// decreased) but per analysed step, so runs with different step counts compare, and with the
// key made finer where the trace records it: CPU ops by name and input shapes, device ops by
// name and stream. Groups whose fine key has no partner are then matched by name alone (a
// changed shape or stream number is not a new kernel), and only the rest appear or vanish.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "steplint/analyzer/breakdown.h"
#include "steplint/analyzer/lint.h"
#include "steplint/analyzer/steps.h"
#include "steplint/analyzer/summary.h"
#include "steplint/trace/model.h"

namespace steplint::analyzer {

/// The `steplint diff --format json` schema id (docs/diff-json.md).
inline constexpr const char* kDiffJsonSchema = "steplint.diff/1";

/// One kind of work of one run: every CPU op (or device op) with the same key, summed over
/// the analysed steps.
struct WorkGroup {
  std::string name;
  std::string shapes;   // CPU ops: "Input Dims" as recorded ("" when the trace has none)
  int32_t stream = -1;  // device ops: the stream (-1 for CPU ops or when unknown)
  trace::EventKind kind = trace::EventKind::kOther;
  int64_t count = 0;
  int64_t total_ns = 0;  // CPU ops: inclusive host time (nested ops count in both)
};

/// How big a finding is, so the same finding of two runs can be compared: the rule's first
/// per-step figure (a metric whose key says "per_step"), else its first share or fraction,
/// else the time fixing it alone would save. `unit` names which; magnitudes of different
/// units are not compared.
struct FindingSize {
  std::string fingerprint;
  std::string code;
  std::string name;
  std::string message;
  double magnitude = -1;  // < 0: the finding has no figure
  std::string unit;       // "ms/step" or the metric's key
};

/// The size of one finding (the fingerprint, message and magnitude above); baselines use it too.
FindingSize findingSize(const Diagnostic& d);

/// The rule code of a fingerprint keyed by a GPU index ("SL301:gpu6" -> "SL301"), else "".
std::string_view deviceFingerprintCode(std::string_view fingerprint);

/// What diffRuns needs of one run.
struct RunProfile {
  std::string source;
  StepSource step_source = StepSource::kNone;
  std::vector<int64_t> step_ns;  // each analysed step's duration, in time order
  std::vector<std::array<int64_t, kStepCategoryCount>> step_category_ns;  // each step's breakdown
  double average_step_ns = 0;
  std::array<double, kStepCategoryCount> category_ns{};  // average per step (breakdown.h)
  std::vector<WorkGroup> ops;         // cpu_op and user_annotation ranges (not ProfilerStep)
  std::vector<WorkGroup> device_ops;  // kernels, memcpys, memsets
  std::vector<FindingSize> findings;  // one per fingerprint (the largest), empty without lint
  bool linted = false;                // findings were computed (an empty list means none)
  /// Run facts users change between runs: accelerator, devices, versions Kineto records,
  /// distributed setup, DataLoader iterator, and any other small top-level trace key.
  std::vector<std::pair<std::string, std::string>> metadata;
  /// What per-step figures divide by: the step count, 1 without steps (whole-trace totals).
  double perStepDivisor() const {
    return step_ns.empty() ? 1.0 : static_cast<double>(step_ns.size());
  }
};

/// Builds the profile from a model and its analyses; `lint` may be null (no findings diff).
/// Ops count when they start inside an analysed step (host range for CPU ops, the step
/// extended to its device work for device ops); without steps, the whole trace counts.
RunProfile profileRun(const trace::TraceModel& model, const TraceSummary& summary,
                      const LintResult* lint);

struct DistributionStats {
  size_t count = 0;
  double mean_ns = 0, median_ns = 0, p10_ns = 0, p90_ns = 0, min_ns = 0, max_ns = 0;
  double stddev_ns = 0;  // sample standard deviation (n - 1); 0 for fewer than 2 steps
};
DistributionStats describeDistribution(std::vector<int64_t> values);

struct CategoryDelta {
  StepCategory category = StepCategory::kOther;
  double base_ns = 0;  // average per step
  double new_ns = 0;
  double delta_ns() const { return new_ns - base_ns; }
};

enum class GroupChange : uint8_t { kMatched, kAppeared, kVanished };
std::string_view groupChangeName(GroupChange change);  // "matched" | "appeared" | "vanished"

/// One op or device-op group of either run, per step.
struct GroupDelta {
  std::string name;
  std::string shapes;   // of the matched key ("" when matched by name alone or absent)
  int32_t stream = -1;  // likewise
  trace::EventKind kind = trace::EventKind::kOther;
  GroupChange change = GroupChange::kMatched;
  bool by_name_only = false;                 // shapes or stream differed; matched on the name
  double base_count = 0, new_count = 0;      // per step
  double base_ns = 0, new_ns = 0;            // total time per step
  double base_mean_ns = 0, new_mean_ns = 0;  // per call
  double delta_ns() const { return new_ns - base_ns; }
  double count_delta() const { return new_count - base_count; }
};

enum class FindingChange : uint8_t { kNew, kFixed, kWorse, kBetter, kSame };
std::string_view findingChangeName(
    FindingChange change);  // "new" | "fixed" | "worse" | "better" | "same"

struct FindingDelta {
  FindingChange change = FindingChange::kSame;
  FindingSize base;  // empty fingerprint for a new finding
  FindingSize next;  // empty fingerprint for a fixed one
  /// A finding keyed by GPU index (SL301:gpu6) matched to the other run's only one of its rule
  /// on another index (SL301:gpu7): the same GPU renumbered (CUDA_VISIBLE_DEVICES, another node).
  bool device_renumbered = false;
};

struct MetadataDelta {
  std::string key;
  std::string base;  // "" when the run does not record it
  std::string next;
  bool differs() const { return base != next; }
};

/// Whether the new run's per-step times moved from the base run's beyond step-to-step noise:
/// the regression gate's test (regression.h, testChange), in the direction the mean moved. One
/// long step moves a mean by tens of percent; the test, on ranks, is not fooled by it.
struct ChangeTest {
  bool tested = false;       // false: no change, or too few steps (then `text` says so)
  double p_value = -1;       // one-sided, in the direction of the means' change
  bool significant = false;  // p_value < the gate's significance level
  /// "significant given the per-step spread (Mann-Whitney p < 0.001 over 10 and 10 steps)",
  /// "not significant given ..." or "too few steps to tell from noise (...)"; "" when no change.
  std::string text;
};

struct DiffOptions {
  /// A finding is worse (better) when its magnitude grew (shrank) by at least this factor.
  double finding_factor = 1.25;
};

struct RunDiff {
  std::string base_source, new_source;
  DistributionStats base_steps, new_steps;
  double step_delta_ns = 0;               // new mean step - base mean step
  ChangeTest step_test;                   // the per-step times, as the gate tests them
  std::vector<CategoryDelta> categories;  // StepCategory order
  std::vector<GroupDelta> ops;            // largest |delta per step| first
  std::vector<GroupDelta> device_ops;
  bool findings_compared = false;       // both runs were linted
  std::vector<FindingDelta> findings;   // new, worse, fixed, better, then same
  std::vector<MetadataDelta> metadata;  // every key of either run, in key order
  /// Share of the device time per step (both runs) that falls in groups found in both runs;
  /// low means the traces run different work (different models), < 0 without device ops.
  double matched_device_fraction = -1;
  double matched_op_fraction = -1;  // the same for CPU ops
  std::vector<std::string> notes;   // different devices or models, missing steps: said plainly
};

RunDiff diffRuns(const RunProfile& base, const RunProfile& next, const DiffOptions& options = {});

/// The one-line verdict the renderings open with: "Step time: 77.5 → 124.1 ms/step (+46.6 ms,
/// +60.1%; significant given the per-step spread (...)): Kernel +44.4, Memcpy +13.8"
/// (categories that moved by 5 µs/step or more). A change that is not significant says "mean"
/// and adds the median's change.
std::string runDiffHeadline(const RunDiff& diff);

/// Renderings. `top` limits each op table (0 = all rows).
void printRunDiffText(std::ostream& out, const RunDiff& diff, size_t top = 15);
void printRunDiffMarkdown(std::ostream& out, const RunDiff& diff, size_t top = 15);
nlohmann::json runDiffToJson(const RunDiff& diff);

/// One size per fingerprint (the largest where a rule reports a key twice), in fingerprint
/// order: what a run's profile keeps of its findings, and what a job keeps of its job findings.
std::vector<FindingSize> findingSizes(const std::vector<Diagnostic>& diagnostics);
/// Two runs' findings matched by fingerprint (a GPU renumbered between the runs matched too):
/// new, worse, fixed, better, then same; worse and better by `factor` (DiffOptions).
std::vector<FindingDelta> diffFindings(const std::vector<FindingSize>& base,
                                       const std::vector<FindingSize>& next, double factor);
/// The `findings` array of both diff schemas (null when the findings were not compared).
nlohmann::json findingDeltasToJson(bool compared, const std::vector<FindingDelta>& findings);
/// A ChangeTest as both diff schemas write it (`step_change`, docs/diff-json.md): tested,
/// significant, p_value, median_delta_ms, verdict.
nlohmann::json changeTestToJson(const ChangeTest& test, double median_delta_ns);

}  // namespace steplint::analyzer
