// How torch.optim.Adam (PyTorch 1.8-2.x, torch/optim/adam.py) applies weight_decay, as the ops
// inside one `Optimizer.step#Adam.step` range show it:
//   fused          aten::_fused_adam_(params, grads, ..., lr, beta1, beta2, weight_decay, ...):
//                  the value is "Concrete Inputs"[9]. _fused_adamw_ (decoupled) never counts.
//   foreach        per parameter group: [step counters += 1], L2 add, moment updates
//                  (_foreach_mul_/_lerp_/_addcmul_), ..., _foreach_addcdiv_ on the params. The L2
//                  add is _foreach_add(grads, params) (out of place: 1.8-1.11, 2.x) or
//                  _foreach_add_(grads, params) (in place: 1.12-1.13 as recorded in
//                  tests/data/torch113, early 2.0 builds, and 2.1+ with maximize).
//                  Other list+list adds come after the moment updates (1.13's exp_avgs update,
//                  the capturable denominator of <= 2.0), as does <= 2.0's out-of-place eps add.
//                  So: a list+list add before the group's moment updates is the L2 add. Without
//                  "Input type", an out-of-place add there still is; an in-place one cannot be
//                  told from the step-counter add, which matters where weight decay may be in
//                  place (an eps add out of place marks <= 2.0; maximize in 2.1+).
//   single-tensor  grad = grad.add(param, alpha=weight_decay): an out-of-place aten::add per
//                  parameter; Adam's other adds there are in place (step_t += 1, .add_(eps)).
// Only ops directly under the range count: the foreach CPU fallback runs per-tensor ops
// (aten::add among them) inside the foreach op.
#include "optimizer/sl605_adam_step_scan.h"

#include <algorithm>

#include "common/json_args.h"
#include "common/run_metadata.h"
#include "common/trace_tree.h"

namespace steplint::rules {

using Op = AdamStepScanner::Op;

namespace {

Op classify(std::string_view n) {
  if (!common::startsWith(n, "aten::")) return Op::kNotAten;
  if (n == "aten::add") return Op::kAdd;
  if (n == "aten::addcmul_") return Op::kAddcmul;
  if (n == "aten::_fused_adam_") return Op::kFusedAdam;
  if (n == "aten::_fused_adamw_") return Op::kFusedAdamW;
  if (!common::startsWith(n, "aten::_foreach_")) return Op::kAten;
  if (n == "aten::_foreach_add") return Op::kForeachAdd;
  if (n == "aten::_foreach_add_") return Op::kForeachAddInPlace;
  if (n == "aten::_foreach_neg") return Op::kForeachNeg;
  if (n == "aten::_foreach_addcmul_") return Op::kForeachAddcmul;
  if (n == "aten::_foreach_mul_" || n == "aten::_foreach_lerp_") return Op::kForeachMoment;
  if (n == "aten::_foreach_addcdiv_") return Op::kForeachAddcdiv;
  return Op::kForeach;
}

// _fused_adam_(self[], grads[], exp_avgs[], exp_avg_sqs[], max_exp_avg_sqs[], state_steps[], *,
//              lr, beta1, beta2, weight_decay, eps, amsgrad, maximize, grad_scale, found_inf)
constexpr size_t kFusedWeightDecay = 9;
// add(self, other, *, alpha) and _foreach_add(_).List(self[], other[], *, alpha)
constexpr size_t kAddAlpha = 2;

// Kineto writes a tensor input as its dtype ("float", "c10::BFloat16"); scalars, lists and None
// have names of their own.
bool isTensorType(std::string_view type) {
  return !type.empty() && type != "Scalar" && type != "ScalarList" && type != "TensorList" &&
         type != "GenericList";
}

void noteWeightDecay(double value, AdamStepScan& out) {
  if (!out.weight_decay_known) out.min_weight_decay = out.max_weight_decay = value;
  out.min_weight_decay = std::min(out.min_weight_decay, value);
  out.max_weight_decay = std::max(out.max_weight_decay, value);
  out.weight_decay_known = true;
}

}  // namespace

std::string adamUndecidedReason(AdamUndecided why, const trace::TraceMetadata& meta) {
  switch (why) {
    case AdamUndecided::kNone:
      return "";
    case AdamUndecided::kNoOps:
      return "the Adam steps contain no recorded aten ops";
    case AdamUndecided::kUnknownImplementation:
      return "the Adam steps' ops match none of torch.optim.Adam's implementations (single-tensor, foreach, "
             "fused), e.g. a compiled optimizer step";
    case AdamUndecided::kForeachWithoutTypes: {
      std::string legacy = common::legacyExportLacks(meta, "input types", "record_shapes",
                                                     "steplint record --shapes");
      return "Adam's foreach step records no \"Input type\": in this PyTorch version (or with maximize=True) "
             "weight decay would be an in-place aten::_foreach_add_(grads, params), which only the input types "
             "tell from the step-counter add; " +
             (legacy.empty() ? std::string("record with record_shapes=True") : legacy);
    }
    case AdamUndecided::kFusedWithoutConcreteInputs:
      return "fused Adam (aten::_fused_adam_) shows weight_decay only in \"Concrete Inputs\", which this trace "
             "lacks (recorded with record_shapes=True by recent PyTorch 2.x)";
  }
  return "";
}

struct AdamStepScanner::Ops {
  bool any_aten = false, addcmul = false, foreach = false, foreach_addcmul = false, fused = false,
       maximize = false;
  std::vector<uint32_t> adds, fused_adam;
  std::vector<std::pair<uint32_t, Op>> foreach_ops;  // in time order
};

AdamStepScanner::AdamStepScanner(const trace::TraceModel& model)
    : model_(model), op_(model, &classify) {}

AdamStepScan AdamStepScanner::scan(uint32_t range) {
  Ops ops;
  auto aten = [&](uint32_t i) {
    const trace::Event& e = model_.events[i];
    return e.kind == trace::EventKind::kCpuOp && op_(e.name) != Op::kNotAten;
  };
  common::forEachNested(model_, range, [&](uint32_t i) {
    if (!aten(i)) return true;
    ops.any_aten = true;
    for (uint32_t p = model_.events[i].parent; p != trace::kNoIndex && p != range;
         p = model_.events[p].parent)
      if (aten(p)) return true;  // runs inside another op of the step
    const Op kind = op_(model_.events[i].name);
    switch (kind) {
      case Op::kNotAten:
      case Op::kAten:
        break;
      case Op::kAdd:
        ops.adds.push_back(i);
        break;
      case Op::kAddcmul:
        ops.addcmul = true;
        break;
      case Op::kFusedAdam:
        ops.fused_adam.push_back(i), ops.fused = true;
        break;
      case Op::kFusedAdamW:
        ops.fused = true;
        break;
      default:  // the foreach ops
        ops.foreach = true;
        ops.foreach_addcmul |= kind == Op::kForeachAddcmul;
        ops.maximize |= kind == Op::kForeachNeg;
        ops.foreach_ops.emplace_back(i, kind);
    }
    return true;
  });
  AdamStepScan out;
  // The fused step also runs foreach ops (the step counters), so fused evidence comes first.
  if (ops.fused)
    decideFused(ops, out);
  else if (ops.foreach)
    decideForeach(ops, out);
  else if (ops.any_aten)
    decideSingleTensor(ops, out);
  else
    out.undecided = AdamUndecided::kNoOps;
  return out;
}

void AdamStepScanner::decideFused(const Ops& ops, AdamStepScan& out) const {
  out.path = AdamPath::kFused;
  bool missing = false;
  for (uint32_t op : ops.fused_adam) {
    const std::optional<double> weight_decay = concreteNumber(op, kFusedWeightDecay);
    missing |= !weight_decay;
    if (!weight_decay || *weight_decay == 0) continue;
    out.evidence.push_back(op);
    noteWeightDecay(*weight_decay, out);
  }
  out.l2 = !out.evidence.empty();
  if (!out.l2 && missing) out.undecided = AdamUndecided::kFusedWithoutConcreteInputs;
}

void AdamStepScanner::decideForeach(const Ops& ops, AdamStepScan& out) const {
  out.path = AdamPath::kForeach;
  if (!ops.foreach_addcmul) {  // every foreach Adam updates exp_avg_sqs with _foreach_addcmul_
    out.undecided = AdamUndecided::kUnknownImplementation;
    return;
  }
  bool before_moments = true;  // in the current parameter group
  bool late_out_of_place = false, untyped_in_place = false;
  for (const auto& [op, kind] : ops.foreach_ops) {
    if (kind == Op::kForeachMoment || kind == Op::kForeachAddcmul) before_moments = false;
    if (kind == Op::kForeachAddcdiv)
      before_moments = true;  // the group's last update; the next may follow
    if (kind != Op::kForeachAdd && kind != Op::kForeachAddInPlace) continue;
    const bool out_of_place = kind == Op::kForeachAdd;
    if (!before_moments) {
      late_out_of_place |= out_of_place;  // eps or a capturable denominator: <= 2.0
      continue;
    }
    const std::optional<std::vector<std::string>> types = inputTypes(op);
    if (!types) {
      if (out_of_place)
        addEvidence(op, out);  // nothing else is added out of place before the moments
      else
        untyped_in_place = true;  // the step counters, or in-place weight decay
      continue;
    }
    if (types->size() >= 2 && (*types)[0] == "TensorList" && (*types)[1] == "TensorList")
      addEvidence(op, out);
  }
  out.l2 = !out.evidence.empty();
  if (!out.l2 && untyped_in_place && (late_out_of_place || ops.maximize))
    out.undecided = AdamUndecided::kForeachWithoutTypes;
}

void AdamStepScanner::decideSingleTensor(const Ops& ops, AdamStepScan& out) const {
  out.path = AdamPath::kSingleTensor;
  if (!ops.addcmul) {  // every single-tensor Adam runs exp_avg_sq.mul_(beta2).addcmul_(grad, grad)
    out.undecided = AdamUndecided::kUnknownImplementation;
    return;
  }
  for (uint32_t op : ops.adds) {
    // Without "Input type" an out-of-place add still proves it: Adam has no other one here.
    if (const std::optional<std::vector<std::string>> types = inputTypes(op)) {
      if (types->size() < 2 || !isTensorType((*types)[0]) || !isTensorType((*types)[1])) continue;
    }
    addEvidence(op, out);
  }
  out.l2 = !out.evidence.empty();
}

void AdamStepScanner::addEvidence(uint32_t op, AdamStepScan& out) const {
  const std::optional<double> alpha = concreteNumber(op, kAddAlpha);
  if (alpha && *alpha == 0) return;  // adds nothing
  out.evidence.push_back(op);
  if (alpha) noteWeightDecay(*alpha, out);
}

std::optional<double> AdamStepScanner::concreteNumber(uint32_t op, size_t index) const {
  const trace::OpDetail* detail = model_.op(model_.events[op]);
  if (!detail || detail->concrete_inputs == 0) return std::nullopt;
  const std::optional<std::string> item =
      common::jsonArrayItem(model_.str(detail->concrete_inputs), index);
  return item ? common::parseNumber(*item) : std::nullopt;
}

std::optional<std::vector<std::string>> AdamStepScanner::inputTypes(uint32_t op) const {
  const trace::OpDetail* detail = model_.op(model_.events[op]);
  if (!detail || detail->input_types == 0) return std::nullopt;
  return common::jsonArrayItems(model_.str(detail->input_types))
      .value_or(std::vector<std::string>{});
}

}  // namespace steplint::rules
