// The arithmetic precision a conv/matmul kernel runs in, from its name or, where the name does
// not say, from the "Input type" of the op that launched it (record_shapes). SL305 uses it to
// tell 32-bit training (FP32 or TF32) from autocast/half-precision training.
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>

#include "steplint/trace/model.h"

namespace steplint::rules {

enum class KernelPrecision : uint8_t {
  kUnknown,  // the name does not say and no dtype was recorded (Triton, nvjet, helpers)
  kFp32,     // FP32 on the FMA pipeline (sgemm, scudnn, ffma, float template arguments)
  kTf32,     // FP32 tensors on tensor cores in TF32 (Ampere+)
  kReduced,  // 16-bit (fp16/bf16) or 8-bit inputs: autocast or a half model
};

/// From the kernel name alone; kUnknown when it states no precision.
KernelPrecision kernelPrecisionFromName(std::string_view name);

/// From a raw "Input type" JSON array (["float", "float", "Scalar"]): kReduced when a tensor is
/// c10::Half/c10::BFloat16, kFp32 when one is float, else kUnknown.
KernelPrecision precisionFromInputTypes(std::string_view input_types_json);

/// The precision of kernels: the name, else the recorded dtypes of the op that launched it
/// (the nearest enclosing op with "Input type"); a float kernel on tensor cores is TF32. Both
/// lookups are memoized by interned string: a trace repeats a few hundred kernel names and
/// type lists over millions of kernels, and parsing JSON per kernel would dominate.
class KernelPrecisionClassifier {
 public:
  explicit KernelPrecisionClassifier(const trace::TraceModel& model);
  ~KernelPrecisionClassifier();
  /// `tensor_core`: whether the kernel's name is a tensor-core kernel's.
  KernelPrecision operator()(const trace::Event& kernel, bool tensor_core);

 private:
  struct Memos;
  const trace::TraceModel& model_;
  std::unique_ptr<Memos> memos_;
};

}  // namespace steplint::rules
