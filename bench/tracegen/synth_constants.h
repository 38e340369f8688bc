// Event names, CUPTI callback ids and units the synthesizer uses; names are spelled as real
// traces spell them.
#pragma once

#include <cstdint>
#include <string_view>

namespace steplint::bench::names {

// Names as PyTorch 2.x / cuDNN 8 on an A100 write them (docs/reference/trace-format.md §11).
inline constexpr std::string_view kDataLoaderNext =
    "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__";
inline constexpr std::string_view kConvFwd =
    "sm80_xmma_fprop_implicit_gemm_tf32f32_tf32f32_f32_nhwckrsc_nchw_tilesize128x128x16_stage4_warpsize2x2x1_g1_"
    "tensor16x8x8_kernel";
inline constexpr std::string_view kConvDgrad =
    "sm80_xmma_dgrad_implicit_gemm_tf32f32_tf32f32_f32_nhwckrsc_nchw_tilesize128x128x16_stage4_warpsize2x2x1_g1_"
    "tensor16x8x8_kernel";
inline constexpr std::string_view kConvWgrad =
    "sm80_xmma_wgrad_implicit_gemm_tf32f32_tf32f32_f32_nhwckrsc_nchw_tilesize128x128x16_stage4_warpsize2x2x1_g1_"
    "tensor16x8x8_kernel";
inline constexpr std::string_view kBnFwd =
    "void cudnn::bn_fw_tr_1C11_kernel_NCHW<float, float, int, 512, true, 1>(cudnnTensorStruct, float const*, "
    "cudnnTensorStruct, float*, float const*, float const*, float, float, float*, float*, float*, float*, float, "
    "float)";
inline constexpr std::string_view kBnBwd =
    "void cudnn::bn_bw_1C11_kernel_new<float, float, float2, 512, true, 1>(float, float, float, float, "
    "cudnnTensorStruct, float const*, cudnnTensorStruct, float const*, cudnnTensorStruct, float*, float const*, "
    "float*, float*, float const*, float const*, float)";
inline constexpr std::string_view kReluFwd =
    "void at::native::vectorized_elementwise_kernel<4, at::native::(anonymous namespace)::launch_clamp_scalar("
    "at::TensorIteratorBase&, c10::Scalar, c10::Scalar, at::native::detail::ClampLimits)::{lambda()#1}::operator()"
    "() const::{lambda()#7}::operator()() const::{lambda(float)#1}, at::detail::Array<char*, 2> >(int, "
    "at::native::(anonymous namespace)::launch_clamp_scalar(at::TensorIteratorBase&, c10::Scalar, c10::Scalar, "
    "at::native::detail::ClampLimits)::{lambda()#1}::operator()() const::{lambda()#7}::operator()() const::"
    "{lambda(float)#1}, at::detail::Array<char*, 2>)";
inline constexpr std::string_view kReluBwd =
    "void at::native::vectorized_elementwise_kernel<4, at::native::(anonymous namespace)::threshold_kernel_impl"
    "<float>(at::TensorIteratorBase&, float, float)::{lambda(float, float)#1}, at::detail::Array<char*, 3> >(int, "
    "at::native::(anonymous namespace)::threshold_kernel_impl<float>(at::TensorIteratorBase&, float, float)::"
    "{lambda(float, float)#1}, at::detail::Array<char*, 3>)";
inline constexpr std::string_view kSoftmaxFwd =
    "void (anonymous namespace)::cunn_SoftMaxForward<4, float, float, float, (anonymous namespace)::"
    "LogSoftMaxForwardEpilogue>(float*, float const*, int)";
inline constexpr std::string_view kNllFwd =
    "void at::native::(anonymous namespace)::nll_loss_forward_reduce_cuda_kernel_2d<float, float, long>(float*, "
    "float*, float const*, long const*, float const*, bool, long, long, long, long)";
inline constexpr std::string_view kNllBwd =
    "void at::native::(anonymous namespace)::nll_loss_backward_reduce_cuda_kernel_2d<float, long>(float*, float "
    "const*, long const*, float const*, float const*, bool, int, int, long, long)";
inline constexpr std::string_view kSoftmaxBwd =
    "void (anonymous namespace)::cunn_SoftMaxBackward<4, float, float, float, (anonymous namespace)::"
    "LogSoftMaxBackwardEpilogue>(float*, float const*, float const*, long)";
inline constexpr std::string_view kForeachAdd =
    "void at::native::(anonymous namespace)::multi_tensor_apply_kernel<at::native::(anonymous namespace)::"
    "TensorListMetadata<2>, at::native::(anonymous namespace)::BinaryOpListAlphaFunctor<float, 2, 2, 0>, "
    "std::plus<float>, float>(at::native::(anonymous namespace)::TensorListMetadata<2>, at::native::(anonymous "
    "namespace)::BinaryOpListAlphaFunctor<float, 2, 2, 0>, std::plus<float>, float)";
inline constexpr std::string_view kForeachMul =
    "void at::native::(anonymous namespace)::multi_tensor_apply_kernel<at::native::(anonymous namespace)::"
    "TensorListMetadata<1>, at::native::(anonymous namespace)::BinaryOpScalarFunctor<float, 1, 1, 0>, "
    "std::multiplies<float>, float>(at::native::(anonymous namespace)::TensorListMetadata<1>, "
    "at::native::(anonymous namespace)::BinaryOpScalarFunctor<float, 1, 1, 0>, std::multiplies<float>, float)";

// CUPTI runtime callback ids.
inline constexpr int32_t kCbidLaunchKernel = 211;
inline constexpr int32_t kCbidMemcpyAsync = 41;
inline constexpr int32_t kCbidMemsetAsync = 51;
inline constexpr int32_t kCbidStreamSynchronize = 131;

inline constexpr int64_t kUs = 1000;
inline constexpr int64_t kMs = 1000 * kUs;
inline constexpr int64_t kBatchBytes = int64_t{32} * 3 * 224 * 224 * 4;  // one fp32 ImageNet batch
inline constexpr int64_t kLogicalMainThread = 1;  // RecordFunction's id of the forward thread
inline constexpr double kPageableGbps = 6.0;      // staged copies from pageable memory
inline constexpr double kDeviceCopyGbps =
    600.0;  // device-to-device within one V100's HBM2 (~900 GB/s peak)

}  // namespace steplint::bench::names
