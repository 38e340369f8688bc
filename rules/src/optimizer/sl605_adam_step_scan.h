// SL605's reading of one `Optimizer.step#Adam.step` range: does this Adam step add
// weight_decay * param to the gradients (coupled L2)? The version-specific op patterns of
// torch.optim.Adam live here, apart from the rule's reporting.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "steplint/analyzer/name_memo.h"
#include "steplint/trace/model.h"

namespace steplint::rules {

/// The Adam implementation that ran, told by the ops inside the step.
enum class AdamPath : uint8_t { kNone, kSingleTensor, kForeach, kFused };

/// Why a step's weight decay could not be decided.
enum class AdamUndecided : uint8_t {
  kNone,
  kNoOps,                       // no aten op recorded inside the step
  kUnknownImplementation,       // ops, but not those of a known Adam implementation
  kForeachWithoutTypes,         // the L2 add may be in place; only "Input type" tells
  kFusedWithoutConcreteInputs,  // _fused_adam_ without "Concrete Inputs"
};
/// Why SL605 was not checked; a legacy profiler export names its format, not record_shapes.
std::string adamUndecidedReason(AdamUndecided why, const trace::TraceMetadata& meta);

struct AdamStepScan {
  AdamPath path = AdamPath::kNone;
  bool l2 = false;                                 // the coupled L2 add is proven
  AdamUndecided undecided = AdamUndecided::kNone;  // neither proven nor excluded
  std::vector<uint32_t> evidence;   // the L2 add ops, or _fused_adam_ calls with weight_decay != 0
  bool weight_decay_known = false;  // some evidence op recorded its value
  double min_weight_decay = 0;      // over the evidence ops that recorded it
  double max_weight_decay = 0;
};

/// Scans Adam step ranges of one model; reuse it for all ranges (it memoizes op names).
class AdamStepScanner {
 public:
  enum class Op : uint8_t {
    kNotAten,
    kAten,
    kAdd,
    kAddcmul,  // single-tensor
    kForeach,
    kForeachAdd,
    kForeachAddInPlace,
    kForeachNeg,  // foreach
    kForeachMoment,
    kForeachAddcmul,
    kForeachAddcdiv,
    kFusedAdam,
    kFusedAdamW,  // fused
  };

  explicit AdamStepScanner(const trace::TraceModel& model);
  AdamStepScan scan(uint32_t range);

 private:
  struct Ops;  // the top-level ops of one range, by kind
  void decideFused(const Ops& ops, AdamStepScan& out) const;
  void decideForeach(const Ops& ops, AdamStepScan& out) const;
  void decideSingleTensor(const Ops& ops, AdamStepScan& out) const;
  /// Records `op` as evidence unless its recorded alpha ("Concrete Inputs" item 2) is 0.
  void addEvidence(uint32_t op, AdamStepScan& out) const;
  /// Item `index` of the op's "Concrete Inputs" as a number, when recorded.
  std::optional<double> concreteNumber(uint32_t op, size_t index) const;
  /// The op's "Input type" items, parsed once; nullopt when not recorded, empty when unreadable.
  std::optional<std::vector<std::string>> inputTypes(uint32_t op) const;

  const trace::TraceModel& model_;
  analyzer::NameMemo<Op (*)(std::string_view)> op_;
};

}  // namespace steplint::rules
